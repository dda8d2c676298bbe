#include "query/answer.h"

#include <algorithm>

namespace sightline::query {
namespace {

double NumberOf(const MetricValue& v) {
  return v.kind == MetricValue::Kind::kInteger ? static_cast<double>(v.integer) : v.number;
}

// -1, 0, 1 as a is below, equal to or above b; no value sorts below every value.
int Compare(const MetricValue& a, const MetricValue& b) {
  if (a.kind == MetricValue::Kind::kNone || b.kind == MetricValue::Kind::kNone) {
    return (a.kind != MetricValue::Kind::kNone) - (b.kind != MetricValue::Kind::kNone);
  }
  return (NumberOf(a) > NumberOf(b)) - (NumberOf(a) < NumberOf(b));
}

bool IsTime(const std::string& dimension) { return dimension.starts_with("time"); }

int CompareBy(const QueryRequest& request, const std::string& name, const RankedRow& a,
              const RankedRow& b) {
  for (std::size_t i = 0; i < request.metrics.size(); ++i) {
    if (request.metrics[i] == name) return Compare(a.row.metrics[i], b.row.metrics[i]);
  }
  for (std::size_t i = 0; i < request.dimensions.size(); ++i) {
    if (request.dimensions[i] != name) continue;
    if (IsTime(name)) return (a.bucket > b.bucket) - (a.bucket < b.bucket);
    return a.row.dimensions[i].compare(b.row.dimensions[i]);
  }
  return 0;
}

}  // namespace

MetricValue Integer(std::int64_t value) { return {MetricValue::Kind::kInteger, value, 0, {}}; }

MetricValue Ratio(double numerator, std::int64_t denominator, double scale) {
  if (denominator == 0) return {};
  return {MetricValue::Kind::kNumber, 0, numerator / static_cast<double>(denominator) * scale, {}};
}

std::optional<std::size_t> BucketOf(const TimeBuckets& buckets, std::int64_t at) {
  const auto& windows = buckets.windows;
  const auto it = std::upper_bound(windows.begin(), windows.end(), at,
                                   [](std::int64_t t, const auto& w) { return t < w.first; });
  if (it == windows.begin()) return std::nullopt;
  const auto index = static_cast<std::size_t>(it - windows.begin() - 1);
  if (at >= windows[index].second) return std::nullopt;
  return index;
}

QueryAnswer Rank(const QueryRequest& request, std::vector<RankedRow> rows) {
  const bool time = std::any_of(request.dimensions.begin(), request.dimensions.end(), IsTime);
  std::sort(rows.begin(), rows.end(), [&](const RankedRow& a, const RankedRow& b) {
    for (const Order& order : request.order_by) {
      const int c = CompareBy(request, order.name, a, b);
      if (c != 0) return order.descending ? c > 0 : c < 0;
    }
    if (time && a.bucket != b.bucket) return a.bucket < b.bucket;
    const int first = Compare(a.row.metrics.front(), b.row.metrics.front());
    if (first != 0) return first > 0;
    return a.row.dimensions < b.row.dimensions;
  });
  QueryAnswer answer;
  answer.total_rows = static_cast<std::int64_t>(rows.size());
  const auto first = std::min(rows.size(), static_cast<std::size_t>(request.offset));
  const auto last = std::min(rows.size(), first + static_cast<std::size_t>(request.limit));
  for (std::size_t i = first; i < last; ++i) answer.rows.push_back(std::move(rows[i].row));
  return answer;
}

}  // namespace sightline::query
