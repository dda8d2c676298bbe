#include "query/query_request.h"

#include "core/json_util.h"

#include <algorithm>
#include <array>
#include <span>

#include <boost/json/value.hpp>
#include <re2/re2.h>

namespace sightline::query {
namespace {

namespace json = boost::json;
using core::Error;
using core::Result;

constexpr auto kFilterOps = std::to_array<std::pair<std::string_view, FilterOp>>({
    {"is", FilterOp::kIs},
    {"is_not", FilterOp::kIsNot},
    {"contains", FilterOp::kContains},
    {"contains_not", FilterOp::kContainsNot},
    {"matches", FilterOp::kMatches},
    {"matches_not", FilterOp::kMatchesNot},
    {"and", FilterOp::kAnd},
    {"or", FilterOp::kOr},
    {"not", FilterOp::kNot},
    {"has_done", FilterOp::kHasDone},
    {"has_not_done", FilterOp::kHasNotDone},
});

constexpr auto kShortcuts = std::to_array<std::string_view>(
    {"day", "24h", "7d", "28d", "30d", "91d", "month", "6mo", "12mo", "year", "all"});

constexpr auto kComparisonModes = std::to_array<std::string_view>(
    {"previous_period", "previous_week", "previous_month", "previous_quarter", "previous_year",
     "year_over_year", "custom"});

std::string At(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

Error Bad(const std::string& path, std::string message) {
  return Error::Invalid(path, std::move(message));
}

// Why `name` is no dimension of `dataset`: another dataset's, a bad property key, or unknown.
Error UnknownDimension(const std::string& name, Dataset dataset, const std::string& path) {
  if (name.starts_with(kPropertyPrefix)) {
    if (dataset != Dataset::kWeb) return Bad(path, "Custom properties belong to the web dataset.");
    return Bad(path, "A custom property's key is 1 to " + std::to_string(kMaxPropertyKeyBytes) +
                         " bytes without control characters.");
  }
  for (const Dataset other : {Dataset::kWeb, Dataset::kCrawlers, Dataset::kAiVisibility}) {
    if (FindDimension(name, other)) {
      return Bad(path, "`" + name + "` belongs to the " + std::string(DatasetName(other)) +
                           " dataset, not " + std::string(DatasetName(dataset)) + ".");
    }
  }
  return Bad(path, "Unknown dimension `" + name + "` (docs/query.md lists them).");
}

// The one reader of a request: where it is in the tree, and what the tree has used so far.
class Reader {
 public:
  explicit Reader(Dataset dataset) : dataset_(dataset) {}

  Result<Filter> ReadFilter(const json::value& value, const std::string& path, std::size_t depth,
                            bool inside_has_done) {
    if (depth > kMaxFilterDepth) {
      return Bad(path, "Filters nest at most " + std::to_string(kMaxFilterDepth) + " deep.");
    }
    if (!value.is_array() || value.as_array().empty() || !value.as_array()[0].is_string()) {
      return Bad(path, "A filter is an array that starts with its operator: [\"is\", "
                       "\"visit:country\", [\"DE\"]], [\"and\", [...]], [\"not\", [...]].");
    }
    const json::array& parts = value.as_array();
    const std::string_view name = parts[0].as_string();
    const auto op = std::find_if(kFilterOps.begin(), kFilterOps.end(),
                                 [&](const auto& known) { return known.first == name; });
    if (op == kFilterOps.end()) {
      return Bad(At(path, 0), "Unknown filter operator `" + std::string(name) +
                                  "`: use is, is_not, contains, contains_not, matches, "
                                  "matches_not, and, or, not, has_done or has_not_done.");
    }
    Filter filter;
    filter.op = op->second;
    if (filter.condition()) {
      auto read = ReadCondition(parts, path, filter, inside_has_done);
      if (!read) return read.error();
      return filter;
    }
    if (filter.op == FilterOp::kAnd || filter.op == FilterOp::kOr) {
      if (parts.size() != 2 || !parts[1].is_array() || parts[1].as_array().empty()) {
        return Bad(path, "`" + std::string(name) + "` takes one array of filters: [\"" +
                             std::string(name) + "\", [filter, …]].");
      }
      const json::array& operands = parts[1].as_array();
      for (std::size_t i = 0; i < operands.size(); ++i) {
        auto child = ReadFilter(operands[i], At(At(path, 1), i), depth + 1, inside_has_done);
        if (!child) return child.error();
        filter.children.push_back(std::move(*child));
      }
      return filter;
    }
    const bool behavioural = filter.op == FilterOp::kHasDone || filter.op == FilterOp::kHasNotDone;
    if (parts.size() != 2) {
      return Bad(path, "`" + std::string(name) + "` takes one filter: [\"" + std::string(name) +
                           "\", filter].");
    }
    if (behavioural) {
      if (dataset_ != Dataset::kWeb) {
        return Bad(At(path, 0), "`" + std::string(name) + "` asks about visits: web dataset only.");
      }
      if (inside_has_done) {
        return Bad(At(path, 0), "`" + std::string(name) + "` cannot nest in another.");
      }
    }
    auto child = ReadFilter(parts[1], At(path, 1), depth + 1, inside_has_done || behavioural);
    if (!child) return child.error();
    filter.children.push_back(std::move(*child));
    return filter;
  }

 private:
  Result<void> ReadCondition(const json::array& parts, const std::string& path, Filter& filter,
                             bool inside_has_done) {
    if (++conditions_ > kMaxFilterConditions) {
      return Bad(path, "A query holds at most " + std::to_string(kMaxFilterConditions) +
                           " filter conditions.");
    }
    if (parts.size() < 3 || parts.size() > 4 || !parts[1].is_string() || !parts[2].is_array()) {
      return Bad(path, "A condition is [operator, dimension, [values…]] with an optional "
                       "{\"case_sensitive\": false}.");
    }
    filter.dimension = std::string(parts[1].as_string());
    const DimensionInfo* dimension = FindDimension(filter.dimension, dataset_);
    if (!dimension) return UnknownDimension(filter.dimension, dataset_, At(path, 1));
    if (dimension->time) {
      return Bad(At(path, 1), "Time is chosen by `date_range`, not filtered.");
    }
    if (inside_has_done && dimension->scope == Scope::kVisit) {
      return Bad(At(path, 1), "has_done/has_not_done filter on what an event has "
                              "(event:name, event:page, event:props:…), not on `" +
                                  filter.dimension + "`.");
    }
    if (parts.size() == 4) {
      auto modifiers = ReadModifiers(parts[3], At(path, 3), filter);
      if (!modifiers) return modifiers;
    }
    const json::array& clauses = parts[2].as_array();
    if (clauses.empty() || clauses.size() > kMaxClauses) {
      return Bad(At(path, 2), "A condition takes 1 to " + std::to_string(kMaxClauses) + " values.");
    }
    for (std::size_t i = 0; i < clauses.size(); ++i) {
      auto clause = ReadClause(clauses[i], At(At(path, 2), i), filter);
      if (!clause) return clause;
    }
    return {};
  }

  Result<void> ReadModifiers(const json::value& value, const std::string& path, Filter& filter) {
    if (!value.is_object()) return Bad(path, "Modifiers are an object: {\"case_sensitive\": false}.");
    for (const auto& [key, option] : value.as_object()) {
      if (key != "case_sensitive" || !option.is_bool()) {
        return Bad(path + "." + std::string(key),
                   "The one modifier is `case_sensitive`, true or false.");
      }
      filter.case_sensitive = option.as_bool();
    }
    return {};
  }

  Result<void> ReadClause(const json::value& value, const std::string& path, Filter& filter) {
    std::string clause;
    if (value.is_string()) {
      clause = std::string(value.as_string());
    } else if (value.is_number()) {  // Plausible's city ids are numbers
      clause = core::ToJson(value);
    } else {
      return Bad(path, "A filter value is a string.");
    }
    if (clause.size() > kMaxClauseBytes) {
      return Bad(path, "A filter value has at most " + std::to_string(kMaxClauseBytes) + " bytes.");
    }
    if (filter.op == FilterOp::kMatches || filter.op == FilterOp::kMatchesNot) {
      RE2::Options options;
      options.set_log_errors(false);
      options.set_case_sensitive(filter.case_sensitive);
      options.set_max_mem(kMaxPatternMemory);
      if (++patterns_ > kMaxPatterns) {
        return Bad(path, "A query holds at most " + std::to_string(kMaxPatterns) +
                             " regular expressions.");
      }
      auto pattern = std::make_shared<const RE2>(clause, options);
      if (!pattern->ok()) {
        return Bad(path, "The regular expression does not compile (RE2 syntax): " +
                             pattern->error() + ".");
      }
      // Each pattern is tried on every value the query reads: their size bounds the work.
      program_ += pattern->ProgramSize();
      if (program_ > kMaxPatternProgram) {
        return Bad(path, "The query's regular expressions are too large together (at most " +
                             std::to_string(kMaxPatternProgram) + " RE2 instructions).");
      }
      filter.patterns.push_back(std::move(pattern));
    }
    filter.clauses.push_back(std::move(clause));
    return {};
  }

  const Dataset dataset_;
  std::size_t conditions_ = 0;
  std::size_t patterns_ = 0;
  int program_ = 0;
};

// Every member of `object` is one of `known`; VAL_003 naming the first that is not.
Result<void> OnlyKnown(const json::object& object, std::span<const std::string_view> known,
                       const std::string& prefix) {
  for (const auto& [key, value] : object) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      return Bad(prefix + std::string(key), "Unknown member `" + std::string(key) + "`.");
    }
  }
  return {};
}

Result<std::vector<std::string>> ReadNames(const json::value* value, const std::string& field,
                                           std::size_t most) {
  std::vector<std::string> names;
  if (!value) return names;
  if (!value->is_array()) return Bad(field, "`" + field + "` is an array of names.");
  const json::array& items = value->as_array();
  if (items.size() > most) {
    return Bad(field, "At most " + std::to_string(most) + " " + field + ".");
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!items[i].is_string()) return Bad(At(field, i), "A name is a string.");
    std::string name(items[i].as_string());
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      return Bad(At(field, i), "`" + name + "` is named twice.");
    }
    names.push_back(std::move(name));
  }
  return names;
}

Result<DateRange> ReadDateRange(const json::value* value) {
  DateRange range;
  if (!value) {
    range.shortcut = "30d";  // the reports' default period
    return range;
  }
  if (value->is_string()) {
    range.shortcut = std::string(value->as_string());
    if (std::find(kShortcuts.begin(), kShortcuts.end(), range.shortcut) == kShortcuts.end()) {
      return Bad("date_range", "Unknown date range `" + range.shortcut +
                                   "`: day, 24h, 7d, 28d, 30d, 91d, month, 6mo, 12mo, year, all, "
                                   "or [from, to].");
    }
    return range;
  }
  if (!value->is_array() || value->as_array().size() != 2 || !value->as_array()[0].is_string() ||
      !value->as_array()[1].is_string()) {
    return Bad("date_range", "`date_range` is a shortcut or [from, to] (ISO dates or date-times).");
  }
  range.from = std::string(value->as_array()[0].as_string());
  range.to = std::string(value->as_array()[1].as_string());
  const bool from_time = range.from.find('T') != std::string::npos;
  const bool to_time = range.to.find('T') != std::string::npos;
  if (from_time != to_time) {
    return Bad("date_range", "Both ends of `date_range` are dates, or both are date-times.");
  }
  range.date_times = from_time;
  return range;  // the calendar checks each end when the query runs
}

Result<std::optional<Comparison>> ReadComparison(const json::value& value) {
  if (value.is_null()) return std::optional<Comparison>();
  if (!value.is_object() || !value.as_object().contains("mode") ||
      !value.as_object().at("mode").is_string()) {
    return Bad("include.comparisons",
               "`comparisons` is {\"mode\": \"previous_period\"} or another mode.");
  }
  static constexpr std::array<std::string_view, 3> kKnown = {"mode", "date_range",
                                                             "match_day_of_week"};
  if (auto known = OnlyKnown(value.as_object(), kKnown, "include.comparisons."); !known) {
    return known.error();
  }
  Comparison comparison;
  comparison.preset = std::string(value.as_object().at("mode").as_string());
  if (std::find(kComparisonModes.begin(), kComparisonModes.end(), comparison.preset) ==
      kComparisonModes.end()) {
    return Bad("include.comparisons.mode",
               "Unknown comparison mode `" + comparison.preset +
                   "`: previous_period, previous_week, previous_month, previous_quarter, "
                   "previous_year (year_over_year) or custom.");
  }
  if (comparison.preset == "year_over_year") comparison.preset = "previous_year";
  const json::value* range = value.as_object().if_contains("date_range");
  if (comparison.preset == "custom") {
    if (!range || !range->is_array() || range->as_array().size() != 2 ||
        !range->as_array()[0].is_string() || !range->as_array()[1].is_string()) {
      return Bad("include.comparisons.date_range",
                 "A custom comparison takes `date_range`: [from, to] as ISO dates.");
    }
    comparison.from = std::string(range->as_array()[0].as_string());
    comparison.to = std::string(range->as_array()[1].as_string());
  } else if (range) {
    return Bad("include.comparisons.date_range", "Only a custom comparison takes `date_range`.");
  }
  if (const json::value* match = value.as_object().if_contains("match_day_of_week");
      match && !(match->is_bool() && !match->as_bool())) {
    return Bad("include.comparisons.match_day_of_week",
               "Matching the day of the week is not offered: the presets shift whole weeks "
               "and months (docs/query.md).");
  }
  return std::optional<Comparison>(std::move(comparison));
}

Result<void> ReadInclude(const json::value* value, QueryRequest& request) {
  if (!value) return {};
  if (!value->is_object()) return Bad("include", "`include` is an object.");
  static constexpr std::array<std::string_view, 4> kKnown = {"time_labels", "total_rows",
                                                             "comparisons", "imports"};
  if (auto known = OnlyKnown(value->as_object(), kKnown, "include."); !known) return known;
  for (const auto& [key, option] : value->as_object()) {
    if (key == "comparisons") {
      auto comparison = ReadComparison(option);
      if (!comparison) return comparison.error();
      request.comparison = std::move(*comparison);
      continue;
    }
    if (!option.is_bool()) return Bad("include." + std::string(key), "true or false.");
    if (key == "time_labels") request.time_labels = option.as_bool();
    if (key == "total_rows") request.total_rows = option.as_bool();
    if (key == "imports" && option.as_bool()) {
      return Bad("include.imports", "Nothing imported is kept yet, so there is nothing to include.");
    }
  }
  return {};
}

Result<void> ReadPagination(const json::value* value, QueryRequest& request) {
  if (!value) return {};
  if (!value->is_object()) return Bad("pagination", "`pagination` is {\"limit\", \"offset\"}.");
  static constexpr std::array<std::string_view, 2> kKnown = {"limit", "offset"};
  if (auto known = OnlyKnown(value->as_object(), kKnown, "pagination."); !known) return known;
  if (const json::value* limit = value->as_object().if_contains("limit")) {
    if (!limit->is_int64() || limit->as_int64() < 1 || limit->as_int64() > kMaxLimit) {
      return Bad("pagination.limit", "`limit` is 1 to " + std::to_string(kMaxLimit) + ".");
    }
    request.limit = limit->as_int64();
  }
  if (const json::value* offset = value->as_object().if_contains("offset")) {
    if (!offset->is_int64() || offset->as_int64() < 0) {
      return Bad("pagination.offset", "`offset` is 0 or more.");
    }
    request.offset = offset->as_int64();
  }
  return {};
}

Result<void> ReadOrder(const json::value* value, QueryRequest& request) {
  if (!value) return {};
  if (!value->is_array() || value->as_array().size() > kMaxOrderBy) {
    return Bad("order_by", "`order_by` is up to " + std::to_string(kMaxOrderBy) +
                               " pairs [name, \"asc\"|\"desc\"].");
  }
  const json::array& pairs = value->as_array();
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const json::value& pair = pairs[i];
    if (!pair.is_array() || pair.as_array().size() != 2 || !pair.as_array()[0].is_string() ||
        !pair.as_array()[1].is_string()) {
      return Bad(At("order_by", i), "An order is [name, \"asc\"|\"desc\"].");
    }
    Order order{std::string(pair.as_array()[0].as_string()), true};
    const std::string_view direction = pair.as_array()[1].as_string();
    if (direction != "asc" && direction != "desc") {
      return Bad(At(At("order_by", i), 1), "The direction is \"asc\" or \"desc\".");
    }
    order.descending = direction == "desc";
    const auto named = [&](const std::vector<std::string>& names) {
      return std::find(names.begin(), names.end(), order.name) != names.end();
    };
    if (!named(request.metrics) && !named(request.dimensions)) {
      return Bad(At(At("order_by", i), 0),
                 "`" + order.name + "` is not one of the query's metrics or dimensions.");
    }
    request.order_by.push_back(std::move(order));
  }
  return {};
}

// What the names mean together: each in the dataset, one time dimension at most, Plausible's
// rules on visit metrics and on `percentage`.
Result<void> CheckCombination(const QueryRequest& request) {
  bool visit_metric = false;
  for (std::size_t i = 0; i < request.metrics.size(); ++i) {
    const MetricInfo* metric = FindMetric(request.metrics[i], request.dataset);
    if (!metric) {
      for (const Dataset other : {Dataset::kWeb, Dataset::kCrawlers, Dataset::kAiVisibility}) {
        if (FindMetric(request.metrics[i], other)) {
          return Bad(At("metrics", i), "`" + request.metrics[i] + "` belongs to the " +
                                           std::string(DatasetName(other)) + " dataset.");
        }
      }
      return Bad(At("metrics", i), "Unknown metric `" + request.metrics[i] +
                                       "` (docs/query.md lists them).");
    }
    visit_metric = visit_metric || metric->scope == Scope::kVisit;
  }
  std::size_t times = 0, others = 0;
  for (std::size_t i = 0; i < request.dimensions.size(); ++i) {
    const std::string& name = request.dimensions[i];
    const DimensionInfo* dimension = FindDimension(name, request.dataset);
    if (!dimension) return UnknownDimension(name, request.dataset, At("dimensions", i));
    dimension->time ? ++times : ++others;
    if (times > 1) return Bad(At("dimensions", i), "At most one time dimension.");
    const bool page = name == "event:page" || name == "event:hostname";
    if (visit_metric && dimension->scope == Scope::kEvent && !page) {
      return Bad(At("dimensions", i), "Visit metrics (bounce_rate, views_per_visit, "
                                      "visit_duration) cannot be split by `" + name + "`.");
    }
  }
  const bool percentage = std::find(request.metrics.begin(), request.metrics.end(),
                                    "percentage") != request.metrics.end();
  if (percentage && others == 0) {
    return Bad("metrics", "`percentage` is a row's share: it needs a dimension other than time.");
  }
  return {};
}

bool HasTimeDimension(const QueryRequest& request) {
  return std::any_of(request.dimensions.begin(), request.dimensions.end(),
                     [](const std::string& name) { return name.starts_with("time"); });
}

}  // namespace

std::string_view FilterOpName(FilterOp op) {
  for (const auto& [name, known] : kFilterOps) {
    if (known == op) return name;
  }
  return "and";
}

Result<QueryRequest> ParseQueryRequest(const json::value& body) {
  if (!body.is_object()) return Bad("", "The query is a JSON object.");
  const json::object& object = body.as_object();
  static constexpr std::array<std::string_view, 10> kKnown = {
      "site_id", "dataset", "metrics", "date_range", "dimensions",
      "filters", "order_by", "include", "pagination", "date"};
  if (auto known = OnlyKnown(object, kKnown, ""); !known) return known.error();
  QueryRequest request;
  if (const json::value* site = object.if_contains("site_id")) {
    if (!site->is_string()) return Bad("site_id", "`site_id` is a string.");
    request.site_id = std::string(site->as_string());
  }
  if (const json::value* dataset = object.if_contains("dataset")) {
    const auto parsed = dataset->is_string() ? ParseDataset(dataset->as_string()) : std::nullopt;
    if (!parsed) return Bad("dataset", "`dataset` is web, crawlers or ai_visibility.");
    request.dataset = *parsed;
  }
  if (object.contains("date")) {
    return Bad("date", "`date` (Stats API v1) is not taken: give `date_range` as [from, to].");
  }
  auto metrics = ReadNames(object.if_contains("metrics"), "metrics", kMaxMetrics);
  if (!metrics) return metrics.error();
  if (metrics->empty()) return Bad("metrics", "Name at least one metric.");
  request.metrics = std::move(*metrics);
  auto dimensions = ReadNames(object.if_contains("dimensions"), "dimensions", kMaxDimensions);
  if (!dimensions) return dimensions.error();
  request.dimensions = std::move(*dimensions);
  auto range = ReadDateRange(object.if_contains("date_range"));
  if (!range) return range.error();
  request.date_range = std::move(*range);
  if (auto checked = CheckCombination(request); !checked) return checked.error();
  if (const json::value* filters = object.if_contains("filters")) {
    if (!filters->is_array()) return Bad("filters", "`filters` is an array of filters.");
    Reader reader(request.dataset);
    const json::array& items = filters->as_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      auto filter = reader.ReadFilter(items[i], At("filters", i), 1, false);
      if (!filter) return filter.error();
      request.filters.push_back(std::move(*filter));
    }
  }
  if (auto include = ReadInclude(object.if_contains("include"), request); !include) {
    return include.error();
  }
  if (request.time_labels && !HasTimeDimension(request)) {
    return Bad("include.time_labels", "Time labels need a time dimension.");
  }
  if (auto order = ReadOrder(object.if_contains("order_by"), request); !order) {
    return order.error();
  }
  if (auto pagination = ReadPagination(object.if_contains("pagination"), request); !pagination) {
    return pagination.error();
  }
  return request;
}

}  // namespace sightline::query
