#include "query/ai_evaluation.h"

#include <algorithm>
#include <map>
#include <set>

#include "query/matching.h"
#include "visibility/statistics.h"

namespace sightline::query {
namespace {

using core::Error;
using core::Result;

class AiEvaluation {
 public:
  AiEvaluation(const QueryRequest& request, const std::vector<TrackedBrand>& brands,
               const TimeBuckets& buckets)
      : request_(request), brands_(brands), buckets_(buckets) {}

  void Add(const AnswerFacts& answer) {
    for (const Filter& filter : request_.filters) {
      if (!Holds(filter, answer)) return;
    }
    std::optional<std::size_t> bucket;
    if (HasTime()) {
      bucket = BucketOf(buckets_, answer.at);
      if (!bucket) return;
    }
    std::vector<std::vector<std::string>> keys{{}};
    std::vector<const TrackedBrand*> subjects{nullptr};  // the row's brand; null: the own ones
    for (const std::string& dimension : request_.dimensions) Expand(dimension, answer, bucket, keys, subjects);
    for (std::size_t i = 0; i < keys.size(); ++i) Count(answer, keys[i], subjects[i], bucket);
  }

  QueryAnswer Finish() {
    if (request_.dimensions.empty() && rows_.empty()) rows_[{}];
    std::vector<RankedRow> ranked;
    for (auto& [key, sums] : rows_) {
      RankedRow row{{std::move(sums.dimensions), {}}, sums.bucket};
      for (const std::string& metric : request_.metrics) row.row.metrics.push_back(Metric(metric, sums));
      ranked.push_back(std::move(row));
    }
    return Rank(request_, std::move(ranked));
  }

 private:
  struct Sums {
    std::vector<std::string> dimensions;
    std::optional<std::size_t> bucket;
    std::int64_t answers = 0, mentioned = 0, rank_sum = 0, all_mentions = 0, cited = 0;
  };

  bool HasTime() const {
    return std::any_of(request_.dimensions.begin(), request_.dimensions.end(),
                       [](const std::string& d) { return d.starts_with("time"); });
  }

  const TrackedBrand* Brand(const std::string& id) const {
    const auto it = std::find_if(brands_.begin(), brands_.end(),
                                 [&](const TrackedBrand& b) { return b.id == id; });
    return it == brands_.end() ? nullptr : &*it;
  }

  // The values of a dimension an answer has: one, or for brands and cited domains several.
  std::vector<std::string> ValuesOf(const std::string& dimension, const AnswerFacts& a) const {
    if (dimension == "ai:engine") return {a.engine};
    if (dimension == "ai:prompt") return {a.prompt};
    if (dimension == "ai:topic") return {a.topic};
    std::set<std::string> values;
    if (dimension == "ai:brand") {
      for (const auto& [brand_id, rank] : a.mentions) {
        if (const TrackedBrand* brand = Brand(brand_id)) values.insert(brand->name);
      }
    } else {  // ai:cited_domain
      for (const auto& citation : a.citations) values.insert(citation.domain);
    }
    return {values.begin(), values.end()};
  }

  bool Holds(const Filter& f, const AnswerFacts& a) const {
    if (f.condition()) {
      const std::vector<std::string> values = ValuesOf(f.dimension, a);
      const bool positive = std::any_of(values.begin(), values.end(),
                                        [&](const std::string& v) { return ValueMatches(f, v); });
      return IsNegative(f.op) ? !positive : positive;
    }
    switch (f.op) {
      case FilterOp::kAnd:
        return std::all_of(f.children.begin(), f.children.end(),
                           [&](const Filter& child) { return Holds(child, a); });
      case FilterOp::kOr:
        return std::any_of(f.children.begin(), f.children.end(),
                           [&](const Filter& child) { return Holds(child, a); });
      default:  // kNot; has_done is refused for this dataset when the request is read
        return !Holds(f.children.front(), a);
    }
  }

  // Multiplies the answer's rows by the dimension's values: every tracked brand for
  // `ai:brand` (a brand an answer does not name is a row where it was not mentioned), each
  // cited domain for `ai:cited_domain`.
  void Expand(const std::string& dimension, const AnswerFacts& a, std::optional<std::size_t> bucket,
              std::vector<std::vector<std::string>>& keys,
              std::vector<const TrackedBrand*>& subjects) const {
    std::vector<std::vector<std::string>> next_keys;
    std::vector<const TrackedBrand*> next_subjects;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (dimension == "ai:brand") {
        for (const TrackedBrand& brand : brands_) {
          next_keys.push_back(keys[i]);
          next_keys.back().push_back(brand.name);
          next_subjects.push_back(&brand);
        }
        continue;
      }
      const std::vector<std::string> values = dimension.starts_with("time")
                                                  ? std::vector<std::string>{buckets_.labels[*bucket]}
                                                  : ValuesOf(dimension, a);
      for (const std::string& value : values) {
        next_keys.push_back(keys[i]);
        next_keys.back().push_back(value);
        next_subjects.push_back(subjects[i]);
      }
    }
    keys = std::move(next_keys);
    subjects = std::move(next_subjects);
  }

  bool IsSubject(const TrackedBrand* subject, const std::string& brand_id) const {
    if (subject) return subject->id == brand_id;
    const TrackedBrand* brand = Brand(brand_id);
    return brand && brand->own;
  }

  void Count(const AnswerFacts& a, const std::vector<std::string>& key, const TrackedBrand* subject,
             std::optional<std::size_t> bucket) {
    auto [it, added] = rows_.try_emplace(key);
    Sums& sums = it->second;
    if (added) {
      sums.dimensions = key;
      sums.bucket = bucket;
    }
    ++sums.answers;
    std::optional<std::int64_t> rank;
    std::set<std::string> named;
    for (const auto& [brand_id, position] : a.mentions) {
      if (!Brand(brand_id)) continue;
      named.insert(brand_id);
      if (IsSubject(subject, brand_id)) rank = std::min(rank.value_or(position), position);
    }
    sums.all_mentions += static_cast<std::int64_t>(named.size());
    if (rank) {
      ++sums.mentioned;
      sums.rank_sum += *rank;
    }
    const bool cited = std::any_of(a.citations.begin(), a.citations.end(), [&](const auto& c) {
      return subject ? c.brand_id == subject->id : c.owned;
    });
    if (cited) ++sums.cited;
  }

  static MetricValue WithInterval(std::int64_t successes, std::int64_t trials) {
    MetricValue value = Ratio(static_cast<double>(successes), trials);
    if (const auto interval = visibility::WilsonInterval(successes, trials)) {
      value.interval = std::pair{interval->low, interval->high};
    }
    return value;
  }

  static MetricValue Metric(const std::string& name, const Sums& s) {
    if (name == "answers") return Integer(s.answers);
    if (name == "mentions") return Integer(s.mentioned);
    if (name == "citations") return Integer(s.cited);
    if (name == "mention_rate") return WithInterval(s.mentioned, s.answers);
    if (name == "citation_rate") return WithInterval(s.cited, s.answers);
    if (name == "share_of_voice") return Ratio(static_cast<double>(s.mentioned), s.all_mentions);
    return Ratio(static_cast<double>(s.rank_sum), s.mentioned);  // average_position
  }

  const QueryRequest& request_;
  const std::vector<TrackedBrand>& brands_;
  const TimeBuckets& buckets_;
  std::map<std::vector<std::string>, Sums> rows_;
};

}  // namespace

Result<QueryAnswer> AnswerAiVisibility(const QueryRequest& request,
                                       const std::vector<TrackedBrand>& brands,
                                       const AnswerSource& answers, const TimeBuckets& buckets) {
  if (request.dataset != Dataset::kAiVisibility) {
    return Error::Internal("query: AnswerAiVisibility asked for another dataset");
  }
  AiEvaluation evaluation(request, brands, buckets);
  if (auto read = answers([&](const AnswerFacts& answer) { evaluation.Add(answer); }); !read) {
    return read.error();
  }
  return evaluation.Finish();
}

}  // namespace sightline::query
