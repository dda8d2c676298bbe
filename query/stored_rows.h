// What the evaluations read, as the store keeps it today, one local day at a time so memory
// holds one day's rows: for the web dataset every event of the visits that started in the
// window and the window's events outside every visit (ListRollupEvents, the rows the rollups
// are built from); for the crawler dataset the window's crawler requests; for AI visibility the
// answers answered in it. A query that would read more than kMaxEventsRead rows, or run longer
// than kMaxQueryMillis, stops with VAL_003 naming `date_range` (docs/query.md, "Limits").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "query/ai_evaluation.h"
#include "query/crawler_evaluation.h"
#include "query/web_evaluation.h"
#include "reports/calendar.h"
#include "storage/store.h"

namespace sightline::query {

inline constexpr std::int64_t kMaxEventsRead = 20'000'000;
inline constexpr std::int64_t kMaxQueryMillis = 30'000;

// What one query may still read: rows and time, shared by the windows it reads (the selection
// and the comparison). Checked after each day's read and every few thousand rows evaluated, so
// a busy day cannot run on. Not thread-safe: one query, one thread.
class ReadBudget {
 public:
  explicit ReadBudget(const core::Clock& clock);
  // Counts `rows` more; VAL_003 naming `date_range` once past either limit.
  core::Result<void> Spend(std::int64_t rows);

 private:
  const core::Clock& clock_;
  const std::int64_t started_;
  std::int64_t read_ = 0;
};

// `reading`: the visit values to read (ReadingOf), the others left empty; with
// figures_suffice, the days whose visit rows are current are read from those, as figures
// (query/visit_rows.h), the others from their events. Custom properties
// are the events' tags not set by Sightline or the SDK (no `$` or `__` prefix), those of its
// property keys or, without them, all. Visits that fail its conditions may be left out. A
// day's sealed blocks are decoded on a second thread too; `each` is only ever called on the
// calling one.
VisitSource StoredVisits(storage::Store& store, ReadBudget& budget, std::string project_id,
                         const reports::ReportingZone& zone, reports::DayRange days,
                         reports::UtcWindow window, VisitReading reading);
RequestSource StoredRequests(storage::Store& store, ReadBudget& budget, std::string project_id,
                             const reports::ReportingZone& zone, reports::DayRange days,
                             reports::UtcWindow window);

// The AI-visibility answers: done answers answered in the window, with their mentions and
// citations, engines and prompts by name.
AnswerSource StoredAnswers(storage::Store& store, ReadBudget& budget, std::string project_id,
                           const reports::ReportingZone& zone, reports::DayRange days,
                           reports::UtcWindow window);
// The project's tracked brands.
core::Result<std::vector<TrackedBrand>> StoredBrands(storage::Store& store,
                                                     const std::string& project_id);

}  // namespace sightline::query
