#include "query/web_evaluation.h"

#include "query/matching.h"
#include "reports/visit_rules.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>


namespace sightline::query {
namespace {

using core::Error;
using core::Result;

using reports::kPageviewEvent;

// What a dimension name reads.
enum class Field {
  kPage, kEventName, kEventChannel, kProperty,  // per event
  kEntryPage, kExitPage, kSource, kChannel, kReferrer, kUtmSource, kUtmMedium, kUtmCampaign,
  kUtmContent, kUtmTerm, kCountry, kRegion, kCity, kDevice, kBrowser, kOs,  // per visit
  kTime,
};

struct FieldRef {
  Field field = Field::kPage;
  std::string property;  // kProperty: the key
  bool per_event() const { return field <= Field::kProperty; }
};

const std::map<std::string_view, Field>& FieldsByName() {
  static const std::map<std::string_view, Field> fields = {
      {"event:page", Field::kPage}, {"event:name", Field::kEventName},
      {"event:channel", Field::kEventChannel}, {"visit:entry_page", Field::kEntryPage},
      {"visit:exit_page", Field::kExitPage}, {"visit:source", Field::kSource},
      {"visit:channel", Field::kChannel}, {"visit:referrer", Field::kReferrer},
      {"visit:utm_source", Field::kUtmSource}, {"visit:utm_medium", Field::kUtmMedium},
      {"visit:utm_campaign", Field::kUtmCampaign}, {"visit:utm_content", Field::kUtmContent},
      {"visit:utm_term", Field::kUtmTerm}, {"visit:country", Field::kCountry},
      {"visit:region", Field::kRegion}, {"visit:city", Field::kCity},
      {"visit:device", Field::kDevice}, {"visit:browser", Field::kBrowser},
      {"visit:os", Field::kOs}};
  return fields;
}

Result<FieldRef> Resolve(std::string_view name) {
  if (auto key = PropertyKeyOf(name)) return FieldRef{Field::kProperty, std::string(*key)};
  if (name.starts_with("time")) return FieldRef{Field::kTime, {}};
  const auto it = FieldsByName().find(name);
  if (it == FieldsByName().end()) {
    return Error::Internal("query: no field reads `" + std::string(name) + "`");
  }
  return FieldRef{it->second, {}};
}

// A visit's figures, with the reports' definitions (reports/visit_rules.h): a bounce is a visit
// with at most one pageview and no engaging event; the duration runs from its first event to
// its last; a pageview followed by another is timed until that one.
struct Summary {
  std::int64_t pageviews = 0;
  bool bounce = false;
  std::int64_t duration_ms = 0;
  std::string entry_page, exit_page;
  std::vector<std::int64_t> view_ms;  // per event: its time on page, or -1 when not timed
};

Summary Summarize(const Visit& visit) {
  Summary summary;
  summary.view_ms.assign(visit.events.size(), -1);
  bool engaged = false;
  std::optional<std::size_t> previous_view;
  for (std::size_t i = 0; i < visit.events.size(); ++i) {
    const VisitEvent& event = visit.events[i];
    engaged = engaged || !reports::IsPassiveEvent(event.name);
    if (event.name != kPageviewEvent) continue;
    ++summary.pageviews;
    if (!previous_view) summary.entry_page = event.page;
    if (previous_view) {
      summary.view_ms[*previous_view] = event.at_ms - visit.events[*previous_view].at_ms;
    }
    previous_view = i;
  }
  if (previous_view) summary.exit_page = visit.events[*previous_view].page;
  if (visit.in_visit) {
    summary.bounce = reports::IsBounce(summary.pageviews, engaged);
    summary.duration_ms = visit.events.back().at_ms - visit.events.front().at_ms;
  } else {
    summary.entry_page.clear();
    summary.exit_page.clear();
  }
  return summary;
}

const std::string& VisitValue(const Visit& v, const Summary& s, Field field) {
  switch (field) {
    case Field::kEntryPage: return s.entry_page;
    case Field::kExitPage: return s.exit_page;
    case Field::kSource: return v.source;
    case Field::kChannel: return v.channel;
    case Field::kReferrer: return v.referrer;
    case Field::kUtmSource: return v.utm_source;
    case Field::kUtmMedium: return v.utm_medium;
    case Field::kUtmCampaign: return v.utm_campaign;
    case Field::kUtmContent: return v.utm_content;
    case Field::kUtmTerm: return v.utm_term;
    case Field::kCountry: return v.country;
    case Field::kRegion: return v.region;
    case Field::kCity: return v.city;
    case Field::kDevice: return v.device;
    case Field::kBrowser: return v.browser;
    default: return v.os;
  }
}

// The event's value of a per-event field; none when the event has no such value (a page of an
// event that is not a pageview, a property it does not carry).
std::optional<std::string_view> EventValue(const VisitEvent& e, const FieldRef& ref) {
  switch (ref.field) {
    case Field::kPage:
      if (e.name != kPageviewEvent) return std::nullopt;
      return std::string_view(e.page);
    case Field::kEventName: return std::string_view(e.name);
    case Field::kEventChannel: return std::string_view(e.channel);
    default:
      for (const auto& [key, value] : e.properties) {
        if (key == ref.property) return std::string_view(value);
      }
      return std::nullopt;
  }
}

// A filter with each dimension resolved once, and the same shape as the request's.
struct Compiled {
  const Filter* filter = nullptr;
  FieldRef field;
  std::vector<Compiled> children;
};

Result<Compiled> Compile(const Filter& filter) {
  Compiled compiled{&filter, {}, {}};
  if (filter.condition()) {
    auto field = Resolve(filter.dimension);
    if (!field) return field.error();
    compiled.field = std::move(*field);
  }
  for (const Filter& child : filter.children) {
    auto inner = Compile(child);
    if (!inner) return inner.error();
    compiled.children.push_back(std::move(*inner));
  }
  return compiled;
}

// Whether one event satisfies a filter (inside has_done: event dimensions only).
bool HoldsForEvent(const Compiled& c, const VisitEvent& e) {
  const Filter& f = *c.filter;
  if (f.condition()) {
    // An event without the value (a page of an event that is no pageview, a property it does
    // not carry) satisfies neither a condition nor its negation.
    const auto value = EventValue(e, c.field);
    if (!value) return false;
    const bool positive = ValueMatches(f, *value);
    return IsNegative(f.op) ? !positive : positive;
  }
  switch (f.op) {
    case FilterOp::kAnd:
      return std::all_of(c.children.begin(), c.children.end(),
                         [&](const Compiled& child) { return HoldsForEvent(child, e); });
    case FilterOp::kOr:
      return std::any_of(c.children.begin(), c.children.end(),
                         [&](const Compiled& child) { return HoldsForEvent(child, e); });
    default:  // kNot
      return !HoldsForEvent(c.children.front(), e);
  }
}

bool Holds(const Compiled& c, const Visit& v, const Summary& s) {
  const Filter& f = *c.filter;
  if (f.condition()) {
    bool positive = false;
    if (c.field.per_event()) {
      positive = std::any_of(v.events.begin(), v.events.end(), [&](const VisitEvent& e) {
        const auto value = EventValue(e, c.field);
        return value && ValueMatches(f, *value);
      });
    } else {
      positive = ValueMatches(f, VisitValue(v, s, c.field.field));
    }
    return IsNegative(f.op) ? !positive : positive;
  }
  switch (f.op) {
    case FilterOp::kAnd:
      return std::all_of(c.children.begin(), c.children.end(),
                         [&](const Compiled& child) { return Holds(child, v, s); });
    case FilterOp::kOr:
      return std::any_of(c.children.begin(), c.children.end(),
                         [&](const Compiled& child) { return Holds(child, v, s); });
    case FilterOp::kNot:
      return !Holds(c.children.front(), v, s);
    default: {  // has_done / has_not_done
      const bool done = std::any_of(v.events.begin(), v.events.end(), [&](const VisitEvent& e) {
        return HoldsForEvent(c.children.front(), e);
      });
      return f.op == FilterOp::kHasDone ? done : !done;
    }
  }
}

// The sums of one row.
struct Sums {
  std::vector<std::string> dimensions;
  std::optional<std::size_t> bucket;
  std::unordered_set<std::string> visitors;
  std::int64_t visits = 0, pageviews = 0, events = 0, bounces = 0, duration_ms = 0;
  std::int64_t timed_views = 0, view_ms = 0;
};

MetricValue Metric(std::string_view name, const Sums& sums, std::size_t all_visitors) {
  const auto visitors = static_cast<std::int64_t>(sums.visitors.size());
  if (name == "visitors") return Integer(visitors);
  if (name == "visits") return Integer(sums.visits);
  if (name == "pageviews") return Integer(sums.pageviews);
  if (name == "events") return Integer(sums.events);
  if (name == "views_per_visit") return Ratio(static_cast<double>(sums.pageviews), sums.visits);
  if (name == "bounce_rate") return Ratio(static_cast<double>(sums.bounces), sums.visits, 100);
  if (name == "visit_duration") return Ratio(sums.duration_ms / 1000.0, sums.visits);
  if (name == "time_on_page") return Ratio(sums.view_ms / 1000.0, sums.timed_views);
  // percentage: the row's share of the kept visits' visitors.
  return Ratio(static_cast<double>(visitors), static_cast<std::int64_t>(all_visitors), 100);
}

class Evaluation {
 public:
  Evaluation(const QueryRequest& request, const TimeBuckets& buckets)
      : request_(request), buckets_(buckets) {}

  Result<void> Prepare() {
    for (const std::string& name : request_.dimensions) {
      auto field = Resolve(name);
      if (!field) return field.error();
      per_event_ = per_event_ || field->per_event();
      fields_.push_back(std::move(*field));
    }
    for (const Filter& filter : request_.filters) {
      auto compiled = Compile(filter);
      if (!compiled) return compiled.error();
      filters_.push_back(std::move(*compiled));
    }
    return {};
  }

  void Add(const Visit& visit) {
    if (visit.events.empty()) return;
    const Summary summary = Summarize(visit);
    for (const Compiled& filter : filters_) {
      if (!Holds(filter, visit, summary)) return;
    }
    // A visit without a visitor id counts no visitor, as in the rollups.
    if (!visit.visitor.empty()) all_visitors_.insert(visit.visitor);
    std::optional<std::size_t> bucket;
    if (has_time()) {
      bucket = BucketOf(buckets_, visit.events.front().at_ms);
      if (!bucket) return;
    }
    if (!per_event_) {
      Sums& sums = Row(Key(visit, summary, nullptr, bucket), bucket);
      AddVisit(sums, visit, summary);
      for (std::size_t i = 0; i < visit.events.size(); ++i) AddEvent(sums, visit, summary, i);
      return;
    }
    std::set<Sums*> counted;  // a visit counts once in each of its rows
    for (std::size_t i = 0; i < visit.events.size(); ++i) {
      auto key = Key(visit, summary, &visit.events[i], bucket);
      if (!key) continue;
      Sums& sums = Row(std::move(key), bucket);
      if (counted.insert(&sums).second) AddVisit(sums, visit, summary);
      AddEvent(sums, visit, summary, i);
    }
  }

  QueryAnswer Finish() {
    // Without dimensions there is always the one row of totals, zero when nothing was kept.
    if (fields_.empty() && rows_.empty()) Row(std::vector<std::string>(), std::nullopt);
    std::vector<RankedRow> rows;
    rows.reserve(rows_.size());
    for (auto& [key, sums] : rows_) {
      RankedRow ranked{{std::move(sums.dimensions), {}}, sums.bucket};
      for (const std::string& metric : request_.metrics) {
        ranked.row.metrics.push_back(Metric(metric, sums, all_visitors_.size()));
      }
      rows.push_back(std::move(ranked));
    }
    return Rank(request_, std::move(rows));
  }

 private:
  bool has_time() const {
    return std::any_of(fields_.begin(), fields_.end(),
                       [](const FieldRef& f) { return f.field == Field::kTime; });
  }

  // The row's dimension values for a visit, or for one of its events when a dimension is per
  // event; none when the event has no value for one of them.
  std::optional<std::vector<std::string>> Key(const Visit& v, const Summary& s,
                                              const VisitEvent* event,
                                              std::optional<std::size_t> bucket) const {
    std::vector<std::string> values;
    for (const FieldRef& field : fields_) {
      if (field.field == Field::kTime) {
        values.push_back(*bucket < buckets_.labels.size() ? buckets_.labels[*bucket]
                                                         : std::to_string(*bucket));
      } else if (field.per_event()) {
        const auto value = EventValue(*event, field);
        if (!value) return std::nullopt;
        values.emplace_back(*value);
      } else {
        values.push_back(VisitValue(v, s, field.field));
      }
    }
    return values;
  }

  Sums& Row(std::optional<std::vector<std::string>> key, std::optional<std::size_t> bucket) {
    auto [it, added] = rows_.try_emplace(*key);
    if (added) {
      it->second.dimensions = std::move(*key);
      it->second.bucket = bucket;
    }
    return it->second;
  }

  static void AddVisit(Sums& sums, const Visit& v, const Summary& s) {
    if (!v.visitor.empty()) sums.visitors.insert(v.visitor);
    if (!v.in_visit) return;
    sums.visits += 1;
    sums.bounces += s.bounce ? 1 : 0;
    sums.duration_ms += s.duration_ms;
  }

  static void AddEvent(Sums& sums, const Visit& v, const Summary& s, std::size_t i) {
    sums.events += 1;
    if (v.events[i].name != kPageviewEvent) return;
    sums.pageviews += 1;
    if (s.view_ms[i] >= 0) {
      sums.timed_views += 1;
      sums.view_ms += s.view_ms[i];
    }
  }

  const QueryRequest& request_;
  const TimeBuckets& buckets_;
  std::vector<FieldRef> fields_;
  bool per_event_ = false;
  std::vector<Compiled> filters_;
  std::map<std::vector<std::string>, Sums> rows_;
  std::unordered_set<std::string> all_visitors_;
};

}  // namespace

Result<QueryAnswer> AnswerWeb(const QueryRequest& request, const VisitSource& visits,
                            const TimeBuckets& buckets) {
  if (request.dataset != Dataset::kWeb) {
    return Error::Internal("query: AnswerWeb asked for another dataset");
  }
  Evaluation evaluation(request, buckets);
  if (auto prepared = evaluation.Prepare(); !prepared) return prepared.error();
  if (auto read = visits([&](const Visit& visit) { evaluation.Add(visit); }); !read) {
    return read.error();
  }
  return evaluation.Finish();
}

}  // namespace sightline::query
