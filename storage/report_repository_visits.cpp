// The visit rows filtered web reports read: one column block per project, zone and local day
// (visit_blocks, storage/visit_blocks.h), written once for both backends.
#include "storage/report_repository.h"

#include <algorithm>

#include "storage/sql_helpers.h"
#include "storage/visit_blocks.h"
#include "storage/visit_lists.h"

namespace sightline::storage {
namespace {

using core::Result;

// A local day is at most 25 hours long, so the visits that started in a window are in the
// blocks of the days that began at most this long before it.
constexpr std::int64_t kLongestDayMs = 25 * 3'600'000;

bool IsList(WebDimension dimension) {
  return dimension == WebDimension::kPage || dimension == WebDimension::kEvent ||
         dimension == WebDimension::kEventChannel;
}

// Whether the visit has the filter's value: equality, or for a list an item of that value.
bool Passes(const WebVisitRow& visit, const WebFilter& filter) {
  const std::string& value = TextOf(visit, ColumnOf(filter.dimension));
  if (!IsList(filter.dimension)) return value == filter.value;
  return value.find(ItemMarker(filter.value)) != std::string::npos;
}

}  // namespace

namespace internal {

Result<std::vector<WebVisitRow>> ReadVisits(SqlSession& session, std::string_view project_id,
                                            std::string_view zone, std::int64_t start_ms,
                                            std::int64_t end_ms,
                                            std::span<const VisitColumn> texts) {
  auto blocks = session.Query(
      "SELECT data FROM visit_blocks WHERE project_id = $1 AND zone = $2 AND day_start >= $3 "
      "AND day_start < $4 AND first_at < $4 AND last_at >= $5 ORDER BY day_start",
      {std::string(project_id), std::string(zone), start_ms - kLongestDayMs, end_ms, start_ms});
  if (!blocks) return blocks.error();
  std::vector<WebVisitRow> visits;
  for (const SqlRow& block : *blocks) {
    auto rows = DecodeVisits(block.Text(0), texts);
    if (!rows) return rows.error();
    for (WebVisitRow& row : *rows) {
      if (row.started_at >= start_ms && row.started_at < end_ms) visits.push_back(std::move(row));
    }
  }
  return visits;
}

}  // namespace internal

Result<void> ReportRepository::InsertWebVisits(std::string_view project_id, std::string_view zone,
                                               std::int64_t day_start,
                                               std::span<const WebVisitRow> rows) {
  if (rows.empty()) return {};
  const auto [first, last] = std::ranges::minmax(rows, {}, &WebVisitRow::started_at);
  return internal::ExecuteVoid(session_,
                     "INSERT INTO visit_blocks (project_id, zone, day_start, row_count, first_at, "
                     "last_at, data) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                     {std::string(project_id), std::string(zone), day_start,
                      static_cast<std::int64_t>(rows.size()), first.started_at, last.started_at,
                      SqlBlob{EncodeVisits(rows)}});
}

Result<std::vector<WebVisitRow>> ReportRepository::ListWebVisits(const WebVisitQuery& q) {
  std::vector<VisitColumn> texts;
  if (q.values_of) texts.push_back(ColumnOf(*q.values_of));
  if (q.filter) texts.push_back(ColumnOf(q.filter->dimension));
  auto rows = internal::ReadVisits(session_, q.project_id, q.zone, q.start_ms, q.end_ms, texts);
  if (!rows) return rows.error();
  if (q.filter) {
    std::erase_if(*rows, [&](const WebVisitRow& visit) { return !Passes(visit, *q.filter); });
  }
  // By start time; a day's visits (and loose events) in the order the rollups wrote them.
  std::ranges::stable_sort(*rows, [](const WebVisitRow& a, const WebVisitRow& b) {
    return a.started_at != b.started_at ? a.started_at < b.started_at : a.in_visit < b.in_visit;
  });
  return rows;
}

}  // namespace sightline::storage
