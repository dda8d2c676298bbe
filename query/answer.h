// What every dataset's evaluation answers with, and the one ordering and paging of its rows
// (docs/query.md): the request's `order_by`, then time ascending, then the first metric
// descending, then the dimension values, so the same rows always come in the same order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "query/query_request.h"

namespace sightline::query {

// A value of a metric: an integer, a number, or none (a rate of an empty sample).
struct MetricValue {
  enum class Kind { kInteger, kNumber, kNone } kind = Kind::kNone;
  std::int64_t integer = 0;
  double number = 0;
  std::optional<std::pair<double, double>> interval;  // a rate's 95% interval, when it has one
};
MetricValue Integer(std::int64_t value);
// numerator ÷ denominator × scale; none when the denominator is 0.
MetricValue Ratio(double numerator, std::int64_t denominator, double scale = 1);

struct ResultRow {
  std::vector<std::string> dimensions;  // as the request names them; a time bucket's label
  std::vector<MetricValue> metrics;     // as the request names them
};

struct QueryAnswer {
  std::vector<ResultRow> rows;  // ordered, and cut to the request's page
  std::int64_t total_rows = 0;  // before the cut
};

// The time buckets of a request with a time dimension: windows (UTC ms, start inclusive, end
// exclusive, in order) and the label each row of that bucket carries.
struct TimeBuckets {
  std::vector<std::pair<std::int64_t, std::int64_t>> windows;
  std::vector<std::string> labels;
};
// The bucket holding `at`, or none.
std::optional<std::size_t> BucketOf(const TimeBuckets& buckets, std::int64_t at);

// A row before ordering, with the index of its time bucket when the request has one.
struct RankedRow {
  ResultRow row;
  std::optional<std::size_t> bucket;
};

// Orders the rows and cuts the request's page.
QueryAnswer Rank(const QueryRequest& request, std::vector<RankedRow> rows);

}  // namespace sightline::query
