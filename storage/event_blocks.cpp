#include "storage/event_blocks.h"

#include <array>
#include <map>
#include <charconv>
#include <cmath>
#include <utility>

namespace sightline::storage {
namespace {

using blocks::BlockReader;
using blocks::BlockWriter;
using blocks::ColumnId;
using blocks::TextValues;
using core::Result;

template <class Record>
using Optional = std::optional<std::string> Record::*;
template <class Record>
using Plain = std::string Record::*;

constexpr ColumnId Col(EventColumn c) { return static_cast<ColumnId>(c); }

// Nullable text fields of an event, each with its column.
const std::array<std::pair<EventColumn, Optional<EventRecord>>, 33>& EventTexts() {
  using C = EventColumn;
  using E = EventRecord;
  static const std::array<std::pair<EventColumn, Optional<EventRecord>>, 33> fields = {{
      {C::kUserId, &E::user_id}, {C::kAnonymousId, &E::anonymous_id},
      {C::kSessionId, &E::session_id}, {C::kIcon, &E::icon}, {C::kDescription, &E::description},
      {C::kIp, &E::ip}, {C::kUserAgent, &E::user_agent}, {C::kBrowser, &E::browser},
      {C::kBrowserVersion, &E::browser_version}, {C::kOs, &E::os},
      {C::kOsVersion, &E::os_version}, {C::kDevice, &E::device}, {C::kBrand, &E::brand},
      {C::kModel, &E::model}, {C::kSignalSource, &E::signal_source}, {C::kCountry, &E::country},
      {C::kRegion, &E::region}, {C::kCity, &E::city}, {C::kPath, &E::path},
      {C::kReferrer, &E::referrer}, {C::kUtmSource, &E::utm_source},
      {C::kUtmMedium, &E::utm_medium}, {C::kUtmCampaign, &E::utm_campaign},
      {C::kUtmTerm, &E::utm_term}, {C::kUtmContent, &E::utm_content},
      {C::kActorType, &E::actor_type}, {C::kBotName, &E::bot_name},
      {C::kBotVendor, &E::bot_vendor}, {C::kActorCategory, &E::actor_category},
      {C::kVerificationMethod, &E::verification_method},
      {C::kTrafficSource, &E::traffic_source}, {C::kTrafficChannel, &E::traffic_channel},
      {C::kDailyVisitor, &E::daily_visitor},
  }};
  return fields;
}

const std::array<std::pair<EventColumn, Plain<EventRecord>>, 4>& EventPlainTexts() {
  using C = EventColumn;
  using E = EventRecord;
  static const std::array<std::pair<EventColumn, Plain<EventRecord>>, 4> fields = {{
      {C::kId, &E::id}, {C::kEvent, &E::event}, {C::kChannel, &E::channel},
      {C::kTags, &E::tags_json},
  }};
  return fields;
}

// A double as the shortest text that reads back as the same double.
std::optional<std::string> NumberText(std::optional<double> value) {
  if (!value) return std::nullopt;
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, *value).ptr;
  return std::string(buffer, end);
}

std::optional<double> TextNumber(std::optional<std::string_view> text) {
  if (!text) return std::nullopt;
  double value = 0;
  const auto parsed = std::from_chars(text->data(), text->data() + text->size(), value);
  if (parsed.ec != std::errc()) return std::nullopt;
  return value;
}

std::int64_t EventFlags(const EventRecord& e) {
  return (e.notify ? kNotifyFlag : 0) | (e.in_app ? kInAppFlag : 0) | (e.is_bot ? kIsBotFlag : 0) |
         (e.actor_verified ? kActorVerifiedFlag : 0) | (e.is_ai ? kIsAiFlag : 0);
}

std::optional<std::string> ToOptional(std::optional<std::string_view> value) {
  if (!value) return std::nullopt;
  return std::string(*value);
}

// Decodes the columns a table lists, then assembles its records.
class Columns {
 public:
  explicit Columns(const BlockReader& reader) : reader_(reader) {}
  Result<const TextValues*> Text(ColumnId id) {
    auto [it, added] = texts_.try_emplace(id);
    if (added) {
      auto values = reader_.Text(id);
      if (!values) return values.error();
      it->second = std::move(*values);
    }
    return &it->second;
  }
  Result<const std::vector<std::int64_t>*> Integers(ColumnId id) {
    auto [it, added] = integers_.try_emplace(id);
    if (added) {
      auto values = reader_.Integers(id);
      if (!values) return values.error();
      it->second = std::move(*values);
    }
    return &it->second;
  }

 private:
  const BlockReader& reader_;
  std::map<ColumnId, TextValues> texts_;
  std::map<ColumnId, std::vector<std::int64_t>> integers_;
};

// The block's row each record is made from: `rows[i]` for records[i], or row i when `rows` is
// empty (every row).
std::size_t RowOf(std::span<const std::size_t> rows, std::size_t i) {
  return rows.empty() ? i : rows[i];
}

// Sets one optional text field of every record from its column.
template <class Record>
Result<void> FillOptional(Columns& columns, ColumnId id, Optional<Record> member,
                          std::vector<Record>& records, std::span<const std::size_t> rows = {}) {
  auto values = columns.Text(id);
  if (!values) return values.error();
  for (std::size_t i = 0; i < records.size(); ++i) {
    records[i].*member = ToOptional((*values)->At(RowOf(rows, i)));
  }
  return {};
}

template <class Record>
Result<void> FillPlain(Columns& columns, ColumnId id, Plain<Record> member,
                       std::vector<Record>& records, std::span<const std::size_t> rows = {}) {
  auto values = columns.Text(id);
  if (!values) return values.error();
  for (std::size_t i = 0; i < records.size(); ++i) {
    records[i].*member = std::string((*values)->At(RowOf(rows, i)).value_or(""));
  }
  return {};
}

// The times every table shares: when it happened, and how long after that it arrived.
template <class Record>
void WriteTimes(BlockWriter& writer, const Record& row, ColumnId occurred, ColumnId after) {
  writer.AddInteger(occurred, row.occurred_at);
  writer.AddInteger(after, row.received_at - row.occurred_at);
}

template <class Record>
Result<void> ReadTimes(Columns& columns, ColumnId occurred, ColumnId after,
                       std::vector<Record>& records, std::span<const std::size_t> rows = {}) {
  auto at = columns.Integers(occurred);
  if (!at) return at.error();
  auto late = columns.Integers(after);
  if (!late) return late.error();
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::size_t r = RowOf(rows, i);
    records[i].occurred_at = (**at)[r];
    records[i].received_at = (**at)[r] + (**late)[r];
  }
  return {};
}

// ---- Crawler requests --------------------------------------------------------------------------

enum class BotColumn : ColumnId {
  kId = 1, kOccurredAt, kReceivedAfter, kEvent, kSource, kIp, kUserAgent, kMethod, kHost, kPath,
  kReferrer, kActorType, kBotName, kBotVendor, kActorCategory, kFlags, kVerificationMethod,
  kActorConfidence, kCountry,
};
constexpr std::int64_t kBotVerified = 1, kBotIsAi = 2, kBotCounts = 4;

constexpr ColumnId Col(BotColumn c) { return static_cast<ColumnId>(c); }

const std::array<std::pair<BotColumn, Optional<BotRequestRecord>>, 9>& BotTexts() {
  using C = BotColumn;
  using B = BotRequestRecord;
  static const std::array<std::pair<BotColumn, Optional<BotRequestRecord>>, 9> fields = {{
      {C::kIp, &B::ip}, {C::kMethod, &B::method}, {C::kHost, &B::host}, {C::kPath, &B::path},
      {C::kReferrer, &B::referrer}, {C::kBotName, &B::bot_name}, {C::kBotVendor, &B::bot_vendor},
      {C::kActorCategory, &B::actor_category}, {C::kCountry, &B::country},
  }};
  return fields;
}

const std::array<std::pair<BotColumn, Plain<BotRequestRecord>>, 6>& BotPlainTexts() {
  using C = BotColumn;
  using B = BotRequestRecord;
  static const std::array<std::pair<BotColumn, Plain<BotRequestRecord>>, 6> fields = {{
      {C::kId, &B::id}, {C::kEvent, &B::event}, {C::kSource, &B::source},
      {C::kUserAgent, &B::user_agent}, {C::kActorType, &B::actor_type},
      {C::kVerificationMethod, &B::verification_method},
  }};
  return fields;
}

}  // namespace

std::string EncodeEvents(std::span<const EventRecord> events) {
  BlockWriter writer;
  for (const EventRecord& e : events) {
    WriteTimes(writer, e, Col(EventColumn::kOccurredAt), Col(EventColumn::kReceivedAfter));
    for (const auto& [column, member] : EventPlainTexts()) writer.AddText(Col(column), e.*member);
    for (const auto& [column, member] : EventTexts()) writer.AddText(Col(column), e.*member);
    writer.AddInteger(Col(EventColumn::kFlags), EventFlags(e));
    writer.AddText(Col(EventColumn::kDeviceConfidence), NumberText(e.device_confidence));
    writer.AddText(Col(EventColumn::kActorConfidence), NumberText(e.actor_confidence));
    writer.EndRow();
  }
  return writer.Finish();
}

namespace {

// Assembles the records of the rows given (every row when `rows` is empty).
Result<std::vector<EventRecord>> AssembleEvents(Columns& columns, std::size_t count,
                                                std::span<const std::size_t> rows,
                                                std::string_view project_id) {
  std::vector<EventRecord> events(count);
  for (EventRecord& e : events) e.project_id = std::string(project_id);
  if (auto t = ReadTimes(columns, Col(EventColumn::kOccurredAt),
                         Col(EventColumn::kReceivedAfter), events, rows);
      !t) {
    return t.error();
  }
  for (const auto& [column, member] : EventPlainTexts()) {
    if (auto f = FillPlain(columns, Col(column), member, events, rows); !f) return f.error();
  }
  for (const auto& [column, member] : EventTexts()) {
    if (auto f = FillOptional(columns, Col(column), member, events, rows); !f) return f.error();
  }
  auto flags = columns.Integers(Col(EventColumn::kFlags));
  auto device = columns.Text(Col(EventColumn::kDeviceConfidence));
  auto actor = columns.Text(Col(EventColumn::kActorConfidence));
  if (!flags) return flags.error();
  if (!device) return device.error();
  if (!actor) return actor.error();
  for (std::size_t i = 0; i < events.size(); ++i) {
    EventRecord& e = events[i];
    const std::size_t r = RowOf(rows, i);
    const std::int64_t bits = (**flags)[r];
    e.notify = bits & kNotifyFlag;
    e.in_app = bits & kInAppFlag;
    e.is_bot = bits & kIsBotFlag;
    e.actor_verified = bits & kActorVerifiedFlag;
    e.is_ai = bits & kIsAiFlag;
    e.device_confidence = TextNumber((*device)->At(r));
    e.actor_confidence = TextNumber((*actor)->At(r));
  }
  return events;
}

Result<std::vector<EventKey>> ReadEventKeys(Columns& columns, std::size_t count) {
  auto at = columns.Integers(Col(EventColumn::kOccurredAt));
  auto id = columns.Text(Col(EventColumn::kId));
  auto event = columns.Text(Col(EventColumn::kEvent));
  auto channel = columns.Text(Col(EventColumn::kChannel));
  auto user = columns.Text(Col(EventColumn::kUserId));
  if (!at) return at.error();
  if (!id) return id.error();
  if (!event) return event.error();
  if (!channel) return channel.error();
  if (!user) return user.error();
  std::vector<EventKey> keys(count);
  for (std::size_t r = 0; r < count; ++r) {
    keys[r] = {(**at)[r], (*id)->At(r).value_or(""), (*event)->At(r).value_or(""),
               (*channel)->At(r).value_or(""), (*user)->At(r)};
  }
  return keys;
}

}  // namespace

Result<std::vector<EventRecord>> DecodeEvents(std::string_view block,
                                              std::string_view project_id) {
  auto reader = BlockReader::Open(block);
  if (!reader) return reader.error();
  Columns columns(*reader);
  return AssembleEvents(columns, reader->rows(), {}, project_id);
}

Result<std::vector<EventRecord>> DecodeEvents(std::string_view block, std::string_view project_id,
                                              const EventRowChoice& choose) {
  auto reader = BlockReader::Open(block);
  if (!reader) return reader.error();
  Columns columns(*reader);
  auto keys = ReadEventKeys(columns, reader->rows());
  if (!keys) return keys.error();
  const std::vector<std::size_t> rows = choose(*keys);
  if (rows.empty()) return std::vector<EventRecord>();
  for (const std::size_t r : rows) {
    if (r >= reader->rows()) return core::Error::Internal("event row chosen beyond the block");
  }
  return AssembleEvents(columns, rows.size(), rows, project_id);
}

std::string EncodeBotRequests(std::span<const BotRequestRecord> requests) {
  BlockWriter writer;
  for (const BotRequestRecord& b : requests) {
    WriteTimes(writer, b, Col(BotColumn::kOccurredAt), Col(BotColumn::kReceivedAfter));
    for (const auto& [column, member] : BotPlainTexts()) writer.AddText(Col(column), b.*member);
    for (const auto& [column, member] : BotTexts()) writer.AddText(Col(column), b.*member);
    writer.AddInteger(Col(BotColumn::kFlags), (b.actor_verified ? kBotVerified : 0) |
                                                  (b.is_ai ? kBotIsAi : 0) |
                                                  (b.counts_toward_usage ? kBotCounts : 0));
    writer.AddText(Col(BotColumn::kActorConfidence), NumberText(b.actor_confidence));
    writer.EndRow();
  }
  return writer.Finish();
}

Result<std::vector<BotRequestRecord>> DecodeBotRequests(std::string_view block,
                                                        std::string_view project_id) {
  auto reader = BlockReader::Open(block);
  if (!reader) return reader.error();
  std::vector<BotRequestRecord> requests(reader->rows());
  Columns columns(*reader);
  for (BotRequestRecord& b : requests) b.project_id = std::string(project_id);
  if (auto t = ReadTimes(columns, Col(BotColumn::kOccurredAt), Col(BotColumn::kReceivedAfter),
                         requests);
      !t) {
    return t.error();
  }
  for (const auto& [column, member] : BotPlainTexts()) {
    if (auto f = FillPlain(columns, Col(column), member, requests); !f) return f.error();
  }
  for (const auto& [column, member] : BotTexts()) {
    if (auto f = FillOptional(columns, Col(column), member, requests); !f) return f.error();
  }
  auto flags = columns.Integers(Col(BotColumn::kFlags));
  auto confidence = columns.Text(Col(BotColumn::kActorConfidence));
  if (!flags) return flags.error();
  if (!confidence) return confidence.error();
  for (std::size_t r = 0; r < requests.size(); ++r) {
    BotRequestRecord& b = requests[r];
    const std::int64_t bits = (**flags)[r];
    b.actor_verified = bits & kBotVerified;
    b.is_ai = bits & kBotIsAi;
    b.counts_toward_usage = bits & kBotCounts;
    b.actor_confidence = TextNumber((*confidence)->At(r)).value_or(0);
  }
  return requests;
}

}  // namespace sightline::storage

namespace sightline::storage {

Result<std::vector<RollupEvent>> DecodeWebEvents(std::string_view block, bool with_tags) {
  using C = EventColumn;
  auto reader = BlockReader::Open(block);
  if (!reader) return reader.error();
  Columns columns(*reader);
  auto flags = columns.Integers(Col(C::kFlags));
  auto at = columns.Integers(Col(C::kOccurredAt));
  if (!flags) return flags.error();
  if (!at) return at.error();
  // The text columns in the order of `fields` below; the visitor's three candidates first.
  const std::array<C, 23> texts = {
      C::kAnonymousId, C::kUserId, C::kDailyVisitor, C::kChannel, C::kId, C::kSessionId,
      C::kEvent, C::kTrafficSource, C::kTrafficChannel, C::kPath, C::kReferrer, C::kUtmSource,
      C::kUtmMedium, C::kUtmCampaign, C::kUtmTerm, C::kUtmContent, C::kCountry, C::kRegion,
      C::kCity, C::kBrowser, C::kOs, C::kDevice, C::kTags};
  std::array<const TextValues*, 23> values{};
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (texts[i] == C::kTags && !with_tags) continue;
    auto column = columns.Text(Col(texts[i]));
    if (!column) return column.error();
    values[i] = *column;
  }
  std::vector<RollupEvent> rows;
  for (std::size_t r = 0; r < reader->rows(); ++r) {
    const auto channel = values[3]->At(r).value_or("");
    if (((**flags)[r] & kIsBotFlag) || channel == "__analytics") continue;
    RollupEvent& e = rows.emplace_back();
    const auto visitor = values[0]->At(r) ? values[0]->At(r)
                         : values[1]->At(r) ? values[1]->At(r)
                                            : values[2]->At(r);
    e.visitor = visitor.value_or("");
    e.event_channel = channel;
    e.id = values[4]->At(r).value_or("");
    e.session_id = ToOptional(values[5]->At(r));
    e.occurred_at = (**at)[r];
    std::string* fields[] = {&e.event,        &e.source,       &e.channel,    &e.path,
                             &e.referrer,     &e.utm_source,   &e.utm_medium, &e.utm_campaign,
                             &e.utm_term,     &e.utm_content,  &e.country,    &e.region,
                             &e.city,         &e.browser,      &e.os,         &e.device,
                             &e.tags};
    for (std::size_t f = 0; f < std::size(fields); ++f) {
      if (values[6 + f]) fields[f]->assign(values[6 + f]->At(r).value_or(""));
    }
  }
  return rows;
}

}  // namespace sightline::storage
