// A `query` request is outside input (REST, /api/v2/query, MCP, the assistant): any JSON must be
// read or refused with VAL_003 naming a path, never crash, and what is accepted must hold the
// limits and name only what the catalog has. Regular expressions in it reach RE2.
#include "fuzz/fuzz_check.h"
#include "query/query_request.h"

#include <boost/json/parse.hpp>

namespace query = sightline::query;
using sightline::fuzz::Check;

namespace {

std::size_t Depth(const query::Filter& filter) {
  std::size_t deepest = 0;
  for (const query::Filter& child : filter.children) deepest = std::max(deepest, Depth(child));
  return deepest + 1;
}

void CheckFilter(const query::Filter& filter, query::Dataset dataset) {
  if (filter.condition()) {
    Check(filter.children.empty(), "a condition has no operands");
    Check(!filter.clauses.empty() && filter.clauses.size() <= query::kMaxClauses,
          "a condition has 1 to kMaxClauses values");
    Check(query::FindDimension(filter.dimension, dataset) != nullptr,
          "a condition's dimension is in the catalog");
    const bool regex = filter.op == query::FilterOp::kMatches ||
                       filter.op == query::FilterOp::kMatchesNot;
    Check(filter.patterns.size() == (regex ? filter.clauses.size() : 0),
          "every pattern is compiled, and only patterns");
    return;
  }
  Check(!filter.children.empty(), "a logical filter has operands");
  for (const query::Filter& child : filter.children) CheckFilter(child, dataset);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  boost::system::error_code failed;
  const boost::json::value body =
      boost::json::parse(std::string_view(reinterpret_cast<const char*>(data), size), failed);
  if (failed) return 0;
  const auto request = query::ParseQueryRequest(body);
  if (!request) {
    Check(request.error().details().contains("field"), "a refusal names the offending path");
    return 0;
  }
  Check(!request->metrics.empty() && request->metrics.size() <= query::kMaxMetrics,
        "1 to kMaxMetrics metrics");
  Check(request->dimensions.size() <= query::kMaxDimensions, "at most kMaxDimensions dimensions");
  for (const std::string& metric : request->metrics) {
    Check(query::FindMetric(metric, request->dataset) != nullptr, "metrics are in the catalog");
  }
  for (const query::Filter& filter : request->filters) {
    Check(Depth(filter) <= query::kMaxFilterDepth, "filters nest at most kMaxFilterDepth deep");
    CheckFilter(filter, request->dataset);
  }
  Check(request->limit >= 1 && request->limit <= query::kMaxLimit, "limit within bounds");
  Check(request->offset >= 0, "offset not negative");
  return 0;
}
