// A `query` request, read and checked before anything runs: Plausible's Stats API v2 request
// shape (`metrics`, `date_range`, `dimensions`, `filters`, `order_by`, `include`,
// `pagination`) plus Sightline's `dataset`. ParseQueryRequest refuses what cannot be answered —
// an unknown name, a name of another dataset, an impossible combination, a regular expression
// that does not compile, a filter nested too deep, anything past the limits below — with
// VAL_003 whose `details.field` is the JSON path of the offending part ("filters[1][2][0]").
// Nothing here reads the store or the clock: the date range is resolved when the query runs,
// in the project's timezone. docs/query.md is the user's description of all of it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "query/catalog.h"

namespace boost::json {
class value;
}
namespace re2 {
class RE2;
}

namespace sightline::query {

// The documented limits of one request.
inline constexpr std::size_t kMaxMetrics = 16;
inline constexpr std::size_t kMaxDimensions = 6;
inline constexpr std::size_t kMaxFilterDepth = 5;         // `and` inside `or` inside … counts each
inline constexpr std::size_t kMaxFilterConditions = 64;   // leaf conditions in the whole tree
inline constexpr std::size_t kMaxClauses = 500;           // values of one condition
inline constexpr std::size_t kMaxClauseBytes = 2000;      // one value (the longest path stored)
inline constexpr std::size_t kMaxOrderBy = 8;
inline constexpr std::int64_t kMaxLimit = 10000;          // rows of one page (Plausible's too)
inline constexpr std::int64_t kMaxPatternMemory = 1 << 20;  // bytes RE2 may use per pattern
inline constexpr std::size_t kMaxPatterns = 64;             // `matches` values in a request
inline constexpr int kMaxPatternProgram = 20000;  // RE2 instructions of all patterns together

enum class FilterOp {
  kIs, kIsNot, kContains, kContainsNot, kMatches, kMatchesNot,  // conditions on a dimension
  kAnd, kOr, kNot,                                              // logic over filters
  kHasDone, kHasNotDone,  // visits (web) with / without an event the inner filter keeps
};
std::string_view FilterOpName(FilterOp op);

// One node of the filter tree: a condition (`dimension` and its `clauses`, any of which
// matches) or a logical node over `children`.
struct Filter {
  FilterOp op = FilterOp::kAnd;
  std::string dimension;
  std::vector<std::string> clauses;
  bool case_sensitive = true;
  // kMatches/kMatchesNot: each clause compiled (RE2: linear time, no backreferences; the
  // syntax ClickHouse's `match` uses too), case-insensitive when asked.
  std::vector<std::shared_ptr<const re2::RE2>> patterns;
  std::vector<Filter> children;  // kAnd/kOr: one or more; kNot/kHasDone/kHasNotDone: one

  bool condition() const { return op <= FilterOp::kMatchesNot; }
};

// `date_range`: a shortcut ("day", "24h", "7d", "28d", "30d", "91d", "month", "6mo", "12mo",
// "year", "all") or an inclusive pair of ISO dates ("2026-01-01") or date-times with an offset
// ("2026-01-01T00:00:00+01:00").
struct DateRange {
  std::string shortcut;
  std::string from, to;
  bool date_times = false;
};

// `include.comparisons`: the spec's comparison presets (previous_period, previous_week,
// previous_month, previous_quarter, previous_year; Plausible's year_over_year is
// previous_year), or `custom` with its own `date_range` of two dates.
struct Comparison {
  std::string preset;
  std::string from, to;  // custom only
};

struct Order {
  std::string name;  // one of the request's metrics or dimensions
  bool descending = true;
};

struct QueryRequest {
  Dataset dataset = Dataset::kWeb;
  std::vector<std::string> metrics;
  DateRange date_range;
  std::vector<std::string> dimensions;
  std::vector<Filter> filters;  // all must hold (an implicit `and`)
  std::vector<Order> order_by;
  bool time_labels = false;
  bool total_rows = false;
  std::optional<Comparison> comparison;
  std::int64_t limit = kMaxLimit;
  std::int64_t offset = 0;
  std::string site_id;  // /api/v2/query's project (its id or domain); "" elsewhere
};

// Reads `body` (a JSON object). Members other than the ones above are refused, as Plausible
// does, so a misspelt option is never silently ignored; `site_id` is read, and left to the
// caller to check.
core::Result<QueryRequest> ParseQueryRequest(const boost::json::value& body);

}  // namespace sightline::query
