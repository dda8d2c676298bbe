// The visit rows of one project, reporting timezone and local day (WebVisitRow) as one column
// block (storage/blocks/column_block.h): what filtered web reports and the AI-visibility
// assistant visits read, written beside the day's rollups and rebuilt with them
// (docs/storage.md, "Visit blocks"). A reader decodes only the columns it names. The column
// numbers are the stored schema: never reuse or renumber one.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "storage/blocks/column_block.h"
#include "storage/report_records.h"

namespace sightline::storage {

// kSessionId is not written: no reader needs a visit's session (a visit block is read whole or
// by value), and its ids would be a fifth of the block.
enum class VisitColumn : blocks::ColumnId {
  kStartedAt = 1, kInVisit, kSessionId, kVisitor, kEvents, kPageviews, kBounce, kDurationMs,
  kEntryPage, kExitPage, kReferrer, kUtmSource, kUtmMedium, kUtmCampaign, kUtmTerm,
  kUtmContent, kCountry, kRegion, kCity, kBrowser, kOs, kDevice, kSource, kChannel, kPages,
  kEventNames, kChannels,
};

// Every text column written.
inline constexpr std::array<VisitColumn, 20> kVisitTexts = {
    VisitColumn::kVisitor,     VisitColumn::kEntryPage,
    VisitColumn::kExitPage,  VisitColumn::kReferrer,    VisitColumn::kUtmSource,
    VisitColumn::kUtmMedium, VisitColumn::kUtmCampaign, VisitColumn::kUtmTerm,
    VisitColumn::kUtmContent, VisitColumn::kCountry,    VisitColumn::kRegion,
    VisitColumn::kCity,      VisitColumn::kBrowser,     VisitColumn::kOs,
    VisitColumn::kDevice,    VisitColumn::kSource,      VisitColumn::kChannel,
    VisitColumn::kPages,     VisitColumn::kEventNames,  VisitColumn::kChannels};

// The rows in the order given, every field.
std::string EncodeVisits(std::span<const WebVisitRow> rows);

// The rows a reader wants: those that started in [start_ms, end_ms) and meet every condition:
// a column whose value `keep` accepts (asked once per distinct value of a block, so a selective
// filter costs a dictionary lookup per row and no decoding of the rows it drops).
struct VisitCondition {
  VisitColumn column;
  std::function<bool(std::string_view)> keep;
};
struct VisitSelection {
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
  std::vector<VisitCondition> conditions;
};

// Calls `each` with the block's selected rows in block order, each with the figures
// (started_at, in_visit, visitor, events, pageviews, bounce, duration_ms) and the text fields
// of `texts`; the other text fields are "". The row is reused between calls.
core::Result<void> DecodeVisits(std::string_view block, std::span<const VisitColumn> texts,
                                const VisitSelection& selection,
                                const std::function<void(const WebVisitRow&)>& each);

// The text field of a row a text column fills (kSessionId … kChannels).
std::string& TextOf(WebVisitRow& row, VisitColumn column);
const std::string& TextOf(const WebVisitRow& row, VisitColumn column);

// The column of a dimension's value (a list for pages, event names and event channels).
VisitColumn ColumnOf(WebDimension dimension);

class SqlSession;

namespace internal {

// DecodeVisits over the project's blocks in `zone` that may hold a selected row, in day order
// (storage/report_repository_visits.cpp). Memory holds one block's decoded columns at a time.
core::Result<void> ReadVisits(SqlSession& session, std::string_view project_id,
                              std::string_view zone, std::span<const VisitColumn> texts,
                              const VisitSelection& selection,
                              const std::function<void(const WebVisitRow&)>& each);

}  // namespace internal

}  // namespace sightline::storage
