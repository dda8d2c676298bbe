// What every report operation shares: the period arguments and their schema fragments, the
// project's zone and windows, the response header (period, windows) and the change fields.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "reports/report_windows.h"
#include "tools/operation.h"

namespace sightline::tools {

struct ReportSetup {
  reports::ReportingZone zone;
  reports::ReportWindows windows;
};

// The project's reporting zone and the selected and comparison windows from the arguments
// (from, to, comparePreset, compareFrom, compareTo).
core::Result<ReportSetup> Setup(OperationContext& context, const boost::json::object& args);

// from, to, timezone, window and comparisonWindow (null without a comparison).
boost::json::object HeaderJson(const ReportSetup& setup);
// Each bucket's local start with its offset.
boost::json::array BucketsJson(const reports::ReportingZone& zone,
                               const std::vector<reports::UtcWindow>& buckets);

// Series as [{<key_name>: key or null, total, data: [...]}].
boost::json::array SeriesJson(const std::vector<reports::Series>& series,
                              std::string_view key_name);

// `previous_name`, absoluteChange and percentageChange (null when previous is 0).
void AddChange(boost::json::object& row, std::string_view previous_name, std::int64_t current,
               std::int64_t previous);
// 100 × (current − previous) / previous, 2 decimals; null when previous is 0.
boost::json::value PercentageChange(double current, double previous);
// A grouped value: null for the rows without one ("").
boost::json::value NameOrNull(const std::string& key);

}  // namespace sightline::tools
