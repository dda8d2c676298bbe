// The visit rows of one project, reporting timezone and local day (WebVisitRow) as one column
// block (storage/blocks/column_block.h): what filtered web reports and the AI-visibility
// assistant visits read, written beside the day's rollups and rebuilt with them
// (docs/storage.md, "Visit blocks"). A reader decodes only the columns it names. The column
// numbers are the stored schema: never reuse or renumber one.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "storage/blocks/column_block.h"
#include "storage/report_records.h"

namespace sightline::storage {

enum class VisitColumn : blocks::ColumnId {
  kStartedAt = 1, kInVisit, kSessionId, kVisitor, kEvents, kPageviews, kBounce, kDurationMs,
  kEntryPage, kExitPage, kReferrer, kUtmSource, kUtmMedium, kUtmCampaign, kUtmTerm,
  kUtmContent, kCountry, kRegion, kCity, kBrowser, kOs, kDevice, kSource, kChannel, kPages,
  kEventNames, kChannels,
};

// Every text column.
inline constexpr std::array<VisitColumn, 21> kVisitTexts = {
    VisitColumn::kSessionId, VisitColumn::kVisitor,     VisitColumn::kEntryPage,
    VisitColumn::kExitPage,  VisitColumn::kReferrer,    VisitColumn::kUtmSource,
    VisitColumn::kUtmMedium, VisitColumn::kUtmCampaign, VisitColumn::kUtmTerm,
    VisitColumn::kUtmContent, VisitColumn::kCountry,    VisitColumn::kRegion,
    VisitColumn::kCity,      VisitColumn::kBrowser,     VisitColumn::kOs,
    VisitColumn::kDevice,    VisitColumn::kSource,      VisitColumn::kChannel,
    VisitColumn::kPages,     VisitColumn::kEventNames,  VisitColumn::kChannels};

// The rows in the order given, every field.
std::string EncodeVisits(std::span<const WebVisitRow> rows);

// Every row of a block with the figures (started_at, in_visit, visitor, events, pageviews,
// bounce, duration_ms) and the text fields of `texts`; the other text fields stay "".
core::Result<std::vector<WebVisitRow>> DecodeVisits(std::string_view block,
                                                    std::span<const VisitColumn> texts);

// The text field of a row a text column fills (kSessionId … kChannels).
std::string& TextOf(WebVisitRow& row, VisitColumn column);
const std::string& TextOf(const WebVisitRow& row, VisitColumn column);

// The column of a dimension's value (a list for pages, event names and event channels).
VisitColumn ColumnOf(WebDimension dimension);

class SqlSession;

namespace internal {

// The visit rows of the project's blocks in `zone` that started in [start_ms, end_ms), in
// block order, decoded as DecodeVisits does (storage/report_repository_visits.cpp).
core::Result<std::vector<WebVisitRow>> ReadVisits(SqlSession& session, std::string_view project_id,
                                                  std::string_view zone, std::int64_t start_ms,
                                                  std::int64_t end_ms,
                                                  std::span<const VisitColumn> texts);

}  // namespace internal

}  // namespace sightline::storage
