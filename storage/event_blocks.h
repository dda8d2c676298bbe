// Tracked events and crawler requests as column blocks (storage/blocks/column_block.h): the
// sealed part of the compact event store (docs/storage.md, "Event blocks"). Lossless: every
// field of EventRecord and BotRequestRecord but the project (the block's key) comes back as
// it was written. The column numbers are the stored schema: never reuse or renumber one.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "storage/blocks/column_block.h"
#include "storage/event_records.h"
#include "storage/report_records.h"

namespace sightline::storage {

// Column numbers of an events block, for readers that decode only some columns.
enum class EventColumn : blocks::ColumnId {
  kId = 1, kOccurredAt, kReceivedAfter, kEvent, kChannel, kUserId, kAnonymousId, kSessionId,
  kIcon, kDescription, kFlags, kTags, kIp, kUserAgent, kBrowser, kBrowserVersion, kOs,
  kOsVersion, kDevice, kBrand, kModel, kDeviceConfidence, kSignalSource, kCountry, kRegion,
  kCity, kPath, kReferrer, kUtmSource, kUtmMedium, kUtmCampaign, kUtmTerm, kUtmContent,
  kActorType, kBotName, kBotVendor, kActorCategory, kVerificationMethod, kActorConfidence,
  kTrafficSource, kTrafficChannel, kDailyVisitor,
};

// Bits of the kFlags column.
inline constexpr std::int64_t kNotifyFlag = 1, kInAppFlag = 2, kIsBotFlag = 4,
                              kActorVerifiedFlag = 8, kIsAiFlag = 16;

// The rows in the order given.
std::string EncodeEvents(std::span<const EventRecord> events);
std::string EncodeBotRequests(std::span<const BotRequestRecord> requests);

// Every row of a block, `project_id` set to the one given.
core::Result<std::vector<EventRecord>> DecodeEvents(std::string_view block,
                                                    std::string_view project_id);

// What a reader that wants only some rows of a block (the events feed) filters and orders on,
// one per row; the views live as long as the decoding.
struct EventKey {
  std::int64_t occurred_at = 0;
  std::string_view id, event, channel;
  std::optional<std::string_view> user_id;
};
// The row numbers, in the order wanted, of the rows to decode.
using EventRowChoice = std::function<std::vector<std::size_t>(std::span<const EventKey>)>;
// The rows of a block `choose` picks from its keys, in its order: assembling a whole record costs
// far more than the few columns a choice needs.
core::Result<std::vector<EventRecord>> DecodeEvents(std::string_view block,
                                                    std::string_view project_id,
                                                    const EventRowChoice& choose);
core::Result<std::vector<BotRequestRecord>> DecodeBotRequests(std::string_view block,
                                                              std::string_view project_id);

// The events of a block that count for web analytics (not a bot's, not `__analytics`), as the
// report rollups and `query` read them: only the columns a RollupEvent has are decoded, the
// tags only when asked.
core::Result<std::vector<RollupEvent>> DecodeWebEvents(std::string_view block, bool with_tags);

}  // namespace sightline::storage
