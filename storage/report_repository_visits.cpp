// The visit rows filtered web reports read: one column block per project, zone and local day
// (visit_blocks, storage/visit_blocks.h), written once for both backends.
#include "storage/report_repository.h"

#include <algorithm>


#include "storage/block_reads.h"
#include "storage/sql_helpers.h"
#include "storage/visit_blocks.h"
#include "storage/visit_lists.h"

namespace sightline::storage {
namespace {

using core::Result;

// A local day is at most 25 hours long, so the visits that started in a window are in the
// blocks of the days that began at most this long before it.
constexpr std::int64_t kLongestDayMs = 25 * 3'600'000;

// The blocks that may hold visits that started in [$5, $4): $3 is $5 - kLongestDayMs.
constexpr const char* kBlocksOfWindowWhere =
    "project_id = $1 AND zone = $2 AND day_start >= $3 AND day_start < $4 AND first_at < $4 "
    "AND last_at >= $5";

bool IsList(WebDimension dimension) {
  return dimension == WebDimension::kPage || dimension == WebDimension::kEvent ||
         dimension == WebDimension::kEventChannel;
}

// Whether a visit's value of the filter's column has the filter's value: equality, or for a
// list an item of that value.
bool Holds(std::string_view value, const WebFilter& filter) {
  if (!IsList(filter.dimension)) return value == filter.value;
  return value.find(ItemMarker(filter.value)) != std::string_view::npos;
}

}  // namespace

namespace internal {

Result<void> ReadVisits(SqlSession& session, std::string_view project_id, std::string_view zone,
                        std::span<const VisitColumn> texts, const VisitSelection& selection,
                        const std::function<void(const WebVisitRow&)>& each) {
  auto blocks = ReadBlocks(session, {"visit_blocks", kBlocksOfWindowWhere,
                                     {std::string(project_id), std::string(zone),
                                      selection.start_ms - kLongestDayMs, selection.end_ms,
                                      selection.start_ms},
                                     "day_start"});
  if (!blocks) return blocks.error();
  for (const std::string& block : *blocks) {
    if (auto read = DecodeVisits(block, texts, selection, each); !read) return read;
  }
  return {};
}

}  // namespace internal

Result<void> ReportRepository::InsertWebVisits(std::string_view project_id, std::string_view zone,
                                               std::int64_t day_start,
                                               std::span<const WebVisitRow> rows) {
  if (rows.empty()) return {};
  const auto [first, last] = std::ranges::minmax(rows, {}, &WebVisitRow::started_at);
  return internal::ExecuteVoid(
      session_,
      "INSERT INTO visit_blocks (project_id, zone, day_start, first_at, last_at, data) "
      "VALUES ($1, $2, $3, $4, $5, $6)",
      {std::string(project_id), std::string(zone), day_start, first.started_at, last.started_at,
       SqlBlob{EncodeVisits(rows)}});
}

Result<void> ReportRepository::EachWebVisit(const WebVisitQuery& q,
                                            const std::function<void(const WebVisitRow&)>& each) {
  std::vector<VisitColumn> texts;
  if (q.values_of) texts.push_back(ColumnOf(*q.values_of));
  VisitSelection selection{q.start_ms, q.end_ms, {}};
  if (q.filter) {
    selection.conditions.push_back({ColumnOf(q.filter->dimension), [&](std::string_view value) {
                                      return Holds(value, *q.filter);
                                    }});
  }
  return internal::ReadVisits(session_, q.project_id, q.zone, texts, selection, each);
}

Result<std::vector<std::string>> ReportRepository::ReadVisitBlocks(
    std::string_view project_id, std::string_view zone, std::int64_t start_ms,
    std::int64_t end_ms, const std::vector<blocks::ColumnId>* columns) {
  return internal::ReadBlocks(session_,
                              {"visit_blocks", kBlocksOfWindowWhere,
                               {std::string(project_id), std::string(zone),
                                start_ms - kLongestDayMs, end_ms, start_ms},
                               "day_start"},
                              columns);
}

}  // namespace sightline::storage
