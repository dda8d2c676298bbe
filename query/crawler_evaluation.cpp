#include "query/crawler_evaluation.h"

#include <algorithm>
#include <map>
#include <unordered_set>

#include "query/matching.h"

namespace sightline::query {
namespace {

using core::Error;
using core::Result;
using storage::BotRequestRecord;

// A request's value of a dimension ("" when it has none).
std::string ValueOf(const BotRequestRecord& r, std::string_view dimension) {
  if (dimension == "bot:name") return r.bot_name.value_or("");
  if (dimension == "bot:vendor") return r.bot_vendor.value_or("");
  if (dimension == "bot:category") return r.actor_category.value_or("");
  if (dimension == "bot:verification") return r.actor_type;
  if (dimension == "bot:is_ai") return r.is_ai ? "true" : "false";
  if (dimension == "event:page") return r.path.value_or("");
  if (dimension == "event:hostname") return r.host.value_or("");
  return r.country.value_or("");  // visit:country
}

bool Holds(const Filter& f, const BotRequestRecord& r) {
  if (f.condition()) {
    const bool positive = ValueMatches(f, ValueOf(r, f.dimension));
    return IsNegative(f.op) ? !positive : positive;
  }
  switch (f.op) {
    case FilterOp::kAnd:
      return std::all_of(f.children.begin(), f.children.end(),
                         [&](const Filter& child) { return Holds(child, r); });
    case FilterOp::kOr:
      return std::any_of(f.children.begin(), f.children.end(),
                         [&](const Filter& child) { return Holds(child, r); });
    default:  // kNot; has_done is refused for this dataset when the request is read
      return !Holds(f.children.front(), r);
  }
}

struct Sums {
  std::vector<std::string> dimensions;
  std::optional<std::size_t> bucket;
  std::int64_t requests = 0;
  std::unordered_set<std::string> pages;
};

}  // namespace

Result<QueryAnswer> AnswerCrawlers(const QueryRequest& request, const RequestSource& requests,
                                   const TimeBuckets& buckets) {
  if (request.dataset != Dataset::kCrawlers) {
    return Error::Internal("query: AnswerCrawlers asked for another dataset");
  }
  const bool time = std::any_of(request.dimensions.begin(), request.dimensions.end(),
                                [](const std::string& d) { return d.starts_with("time"); });
  const bool pages = std::find(request.metrics.begin(), request.metrics.end(), "pages") !=
                     request.metrics.end();
  std::map<std::vector<std::string>, Sums> rows;
  std::int64_t total = 0;
  auto read = requests([&](const BotRequestRecord& r) {
    for (const Filter& filter : request.filters) {
      if (!Holds(filter, r)) return;
    }
    ++total;
    std::optional<std::size_t> bucket;
    if (time) {
      bucket = BucketOf(buckets, r.occurred_at);
      if (!bucket) return;
    }
    std::vector<std::string> values;
    for (const std::string& dimension : request.dimensions) {
      values.push_back(dimension.starts_with("time") ? buckets.labels[*bucket]
                                                     : ValueOf(r, dimension));
    }
    auto [it, added] = rows.try_emplace(values);
    if (added) {
      it->second.dimensions = std::move(values);
      it->second.bucket = bucket;
    }
    ++it->second.requests;
    if (pages) it->second.pages.insert(r.path.value_or(""));
  });
  if (!read) return read.error();
  if (request.dimensions.empty() && rows.empty()) rows.try_emplace(std::vector<std::string>());
  std::vector<RankedRow> ranked;
  for (auto& [key, sums] : rows) {
    RankedRow row{{std::move(sums.dimensions), {}}, sums.bucket};
    for (const std::string& metric : request.metrics) {
      if (metric == "requests") row.row.metrics.push_back(Integer(sums.requests));
      if (metric == "pages") {
        row.row.metrics.push_back(Integer(static_cast<std::int64_t>(sums.pages.size())));
      }
      if (metric == "percentage") {
        row.row.metrics.push_back(Ratio(static_cast<double>(sums.requests), total, 100));
      }
    }
    ranked.push_back(std::move(row));
  }
  return Rank(request, std::move(ranked));
}

}  // namespace sightline::query
