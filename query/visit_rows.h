// Visits read from the rollups' visit rows (storage/visit_blocks.h) instead of their events,
// for a request whose answer needs only their figures (FiguresSuffice): a row per visit,
// counted when its day was rolled up, against about three events. A day's rows are used only
// while they are current, that is rolled up in the reporting zone and not marked as changed
// since (storage/rollup_marks.h); every other day is read from its events (stored_rows.cpp),
// so the answer is the same either way (tests/e2e/query_figures_test.cpp holds them together).
//
// Only the columns the request reads are decoded (visitor ids as their bytes), the next day's
// blocks on a second thread while this one counts a day's visits.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/result.h"
#include "query/web_evaluation.h"
#include "reports/calendar.h"
#include "storage/store.h"

namespace sightline::query {

// The starts of the local days of `days` whose visit rows are current.
core::Result<std::set<std::int64_t>> CurrentVisitDays(storage::Store& store,
                                                      const std::string& project_id,
                                                      const reports::ReportingZone& zone,
                                                      reports::DayRange days);

// A part of the window to read: visits that started in [start_ms, end_ms).
struct VisitWindow {
  std::int64_t start_ms = 0, end_ms = 0;
};

// Calls `each` (on this thread) with the visits, as figures, of the windows in order, from the
// visit rows of `zone`: the values of `reading` only, those failing its conditions left out.
// `spend` is told how many rows each window handed over, and stops the reading with its error.
core::Result<void> EachVisitOfRows(storage::Store& store, const std::string& project_id,
                                   const std::string& zone,
                                   const std::vector<VisitWindow>& windows,
                                   const VisitReading& reading,
                                   const std::function<core::Result<void>(std::int64_t)>& spend,
                                   const std::function<void(const Visit&)>& each);

}  // namespace sightline::query
