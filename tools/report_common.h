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

#define SIGHTLINE_REPORT_PERIOD_PROPERTIES                                                   \
  R"("projectId": {"type": "string", "minLength": 1, "maxLength": 64, "description": )"       \
  R"("The project. A private API key may leave it out: its own project is implied."},)"     \
  R"( "from": {"type": "string", "format": "date", "description": "First day (inclusive), )" \
  R"(in the project's reporting timezone. With 'to'; both omitted: the last 30 days."},)"   \
  R"( "to": {"type": "string", "format": "date", "description": "Last day (inclusive)."},)"  \
  R"( "comparePreset": {"type": "string", "enum": ["previous_period", "previous_week", )"    \
  R"("previous_month", "previous_quarter", "previous_year"], "description": "The )"         \
  R"(comparison window (default previous_period); wins over compareFrom/compareTo."},)"     \
  R"( "compareFrom": {"type": "string", "format": "date", "description": "Custom )"          \
  R"(comparison window, first day; must come with compareTo."},)"                           \
  R"( "compareTo": {"type": "string", "format": "date", "description": "Custom )"            \
  R"(comparison window, last day (inclusive)."})"

#define SIGHTLINE_PAGE_PROPERTIES                                                            \
  R"("limit": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 10},)"           \
  R"( "offset": {"type": "integer", "minimum": 0, "maximum": 100000, "default": 0})"

#define SIGHTLINE_WINDOW_SCHEMA                                                              \
  R"({"type": "object", "required": ["from", "to"], "properties": {)"                        \
  R"("from": {"type": "string", "format": "date-time", "description": "Inclusive (UTC)."},)" \
  R"( "to": {"type": "string", "format": "date-time", "description": "Exclusive (UTC)."}}})"

#define SIGHTLINE_REPORT_HEADER_PROPERTIES                                                   \
  R"("from": {"type": "string", "format": "date"}, "to": {"type": "string", "format": "date"},)" \
  R"( "timezone": {"type": "string"}, "window": )" SIGHTLINE_WINDOW_SCHEMA                   \
  R"(, "comparisonWindow": {"type": "object", "nullable": true, "required": ["from", "to"],)" \
  R"( "properties": {)"                                                                     \
  R"("from": {"type": "string", "format": "date-time"}, "to": {"type": "string", )"         \
  R"("format": "date-time"}}, "description": "UTC, from inclusive, to exclusive. Null )"    \
  R"(when the default comparison would reach back more than a year: then no previous )"     \
  R"(figures are given."})"

// What HeaderJson always writes.
#define SIGHTLINE_REPORT_HEADER_REQUIRED R"("from", "to", "timezone", "window", "comparisonWindow")"

#define SIGHTLINE_CHANGE_PROPERTIES                                                          \
  R"("absoluteChange": {"type": "integer", "description": "Current minus previous."},)"      \
  R"( "percentageChange": {"type": "number", "nullable": true, "description": )"             \
  R"("Relative change in percent, 2 decimals; null when the previous figure is 0."})"

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
