// Web reports under a filter (ReportWindows::filter), computed from the visit rows the rollups
// keep (storage visit_blocks) instead of the rollups, which hold one dimension per row: a filter
// keeps the visits that have its value, and every figure is then counted over those visits
// (docs/reports.md, "Filters"). Called by reports/web_reports.cpp after the rollups, and with
// them the visits, are brought up to date.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "reports/web_reports.h"
#include "storage/transaction.h"

namespace sightline::reports::filtered {

core::Result<WebSummary> Summarize(storage::Transaction& tx, const std::string& project_id,
                                   const ReportWindows& windows);

core::Result<WebTimeline> Timeline(storage::Transaction& tx, const std::string& project_id,
                                   const ReportWindows& windows,
                                   std::vector<std::vector<UtcWindow>> buckets);

core::Result<Breakdown> Rank(storage::Transaction& tx, const std::string& project_id,
                             storage::WebDimension dimension, const ReportWindows& windows,
                             std::int64_t limit, std::int64_t offset);

core::Result<std::vector<DurationRow>> Durations(storage::Transaction& tx,
                                                 const std::string& project_id,
                                                 const ReportWindows& windows,
                                                 std::int64_t limit, std::int64_t offset);

core::Result<DimensionTimeline> Series(storage::Transaction& tx, const std::string& project_id,
                                       const ReportWindows& windows,
                                       storage::WebDimension dimension,
                                       std::vector<std::vector<UtcWindow>> buckets,
                                       std::int64_t limit, std::optional<std::string> value);

}  // namespace sightline::reports::filtered
