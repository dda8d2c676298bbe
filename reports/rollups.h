// Report rollups: each local day of the reporting zone, and each local hour of it, aggregated
// once from the raw rows, so a report reads a few rows per day (docs/reports.md, "Rollups").
//
// Inserting rows marks the UTC hours they change (storage); before a report reads, the days it
// covers that were never rolled up, and every marked day, are rolled up again from the raw rows,
// so reports are exact and current. The server also does this in the background.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "reports/calendar.h"
#include "reports/report_windows.h"
#include "storage/report_records.h"
#include "storage/store.h"

namespace sightline::reports {

// The local days of `zone` a changed UTC hour (a rollup mark's, hours since 1970) touches: the
// same day twice, or two days when the zone's days start inside the hour.
std::pair<LocalDay, LocalDay> DaysOfMarkedHour(const ReportingZone& zone, std::int64_t hour);

// Rolls up the days of `ranges` never rolled up in `zone` and, with `marked_days`, every day
// whose rows changed since it was (all of them when `ranges` is empty).
core::Result<void> RefreshRollups(storage::Store& store, const std::string& project_id,
                                  const ReportingZone& zone, const std::vector<DayRange>& ranges,
                                  bool marked_days = true);

// What every report does before it reads: rolls up the days of its windows never rolled up,
// and the changed ones unless the windows leave them to the background refresher
// (ReportWindows::changed_days).
core::Result<void> RefreshForReport(storage::Store& store, const std::string& project_id,
                                    const ReportWindows& windows);

// What a report reads for `days`: their window by day and, in `blocks`, the same days as the
// fewest rolled-up periods (the largest current blocks, single days elsewhere).
core::Result<storage::RollupRange> RangeOf(storage::Transaction& tx,
                                           const std::string& project_id,
                                           const ReportingZone& zone, DayRange days);

// The project's own domains, which the rollups count referrers with (ReferrerDomain).
core::Result<std::vector<std::string>> OwnDomains(storage::Transaction& tx,
                                                  const std::string& project_id);

// The web rollup rows of one local day: the day's and each hour's totals, and the day's rows
// per dimension value, from the events ListRollupEvents returned for the day. Every figure of a
// visit goes to the day and hour it started in; events outside every visit go where they
// happened. With `hourly_values`, each hour's rows per dimension value too (not stored: the
// hourly series of a dimension computes them when asked). With `visits`, also a row per visit
// that started on the day and per event of the day outside every visit (what filtered reports
// read). `own_domains`: the project's (ReferrerDomain, reports/visit_rules.h).
std::vector<storage::WebRollupRow> RollUpWebDay(
    const std::vector<storage::RollupEvent>& events, const std::vector<UtcWindow>& hours,
    std::span<const std::string> own_domains, bool hourly_values = false,
    std::vector<storage::WebVisitRow>* visits = nullptr);

}  // namespace sightline::reports
