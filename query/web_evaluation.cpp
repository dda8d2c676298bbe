#include "query/web_evaluation.h"

#include "query/matching.h"
#include "query/visitor_ids.h"
#include "query/visitor_set.h"
#include "reports/visit_rules.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace sightline::query {
namespace {

using core::Error;
using core::Result;

using reports::kPageviewEvent;

// What a dimension name reads.
enum class Field {
  kPage, kEventName, kEventChannel, kProperty,  // per event
  kEntryPage, kExitPage, kSource, kChannel, kReferrer, kReferrerUrl, kUtmSource, kUtmMedium,
  kUtmCampaign, kUtmContent, kUtmTerm, kCountry, kRegion, kCity, kDevice, kBrowser, kOs,  // per visit
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
      {"visit:referrer_url", Field::kReferrerUrl},
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
  std::string_view entry_page, exit_page;
  std::vector<std::int64_t> view_ms;  // per event: its time on page, or -1 when not timed
  // When the request reads them: the visit's ReferrerDomain, and its referrer URL when that
  // names a domain (else "").
  std::string referrer;
  std::string_view referrer_url;
};

// Fills `summary` (reused from visit to visit, so its vector keeps its memory).
void Summarize(const Visit& visit, Summary& summary) {
  summary.pageviews = 0;
  summary.bounce = false;
  summary.duration_ms = 0;
  summary.entry_page = summary.exit_page = {};
  summary.view_ms.assign(visit.events.size(), -1);
  bool engaged = false;
  std::optional<std::size_t> previous_view;
  for (std::size_t i = 0; i < visit.events.size(); ++i) {
    const VisitEvent& event = visit.events[i];
    engaged = engaged || !reports::IsPassiveEvent(event.name);
    if (event.name != kPageviewEvent) continue;
    ++summary.pageviews;
    if (!previous_view && visit.in_visit) summary.entry_page = event.page;
    if (previous_view) {
      summary.view_ms[*previous_view] = event.at_ms - visit.events[*previous_view].at_ms;
    }
    previous_view = i;
  }
  if (!visit.in_visit) return;  // no visit: no entry or exit page, no bounce, no duration
  if (previous_view) summary.exit_page = visit.events[*previous_view].page;
  summary.bounce = reports::IsBounce(summary.pageviews, engaged);
  summary.duration_ms = visit.events.back().at_ms - visit.events.front().at_ms;
}

// The same from a visit's figures (the rollups' rows keep those of a loose event as Summarize
// leaves them: no entry or exit page, no bounce, no duration).
void Summarize(const VisitFigures& figures, Summary& summary) {
  summary.pageviews = figures.pageviews;
  summary.bounce = figures.bounce;
  summary.duration_ms = figures.duration_ms;
  summary.entry_page = figures.entry_page;
  summary.exit_page = figures.exit_page;
}

std::string_view VisitFieldValue(const Visit& v, const Summary& s, Field field) {
  switch (field) {
    case Field::kEntryPage: return s.entry_page;
    case Field::kExitPage: return s.exit_page;
    case Field::kSource: return v.source;
    case Field::kChannel: return v.channel;
    case Field::kReferrer: return s.referrer;
    case Field::kReferrerUrl: return s.referrer_url;
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
      return e.page;
    case Field::kEventName: return e.name;
    case Field::kEventChannel: return e.channel;
    default:
      for (const auto& [key, value] : e.properties) {
        if (key == ref.property) return std::string_view(value);
      }
      return std::nullopt;
  }
}

// A page's value of a per-event field: its path for `event:page` (FiguresSuffice allows no
// other per-event field).
std::optional<std::string_view> EventValue(const VisitPage& page, const FieldRef& ref) {
  if (ref.field != Field::kPage) return std::nullopt;
  return page.path;
}

// Whether one of the visit's events (or pages) has a value of the field that matches.
bool AnyEventMatches(const Filter& f, const FieldRef& field, const Visit& v) {
  const auto matches = [&](const auto& event) {
    const auto value = EventValue(event, field);
    return value && ValueMatches(f, *value);
  };
  if (v.figures != nullptr) return std::ranges::any_of(v.figures->pages, matches);
  return std::ranges::any_of(v.events, matches);
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
      positive = AnyEventMatches(f, c.field, v);
    } else {
      positive = ValueMatches(f, VisitFieldValue(v, s, c.field.field));
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
  VisitorSet visitors;  // VisitorIds numbers
  std::uint64_t last_visit = 0;  // the serial of the last visit counted here (0: none)
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

// Appends a value to a row key, its length first, so that no two lists of values join alike.
void AppendKeyValue(std::string& key, std::string_view value) {
  const auto size = static_cast<std::uint32_t>(value.size());
  key.append(reinterpret_cast<const char*>(&size), sizeof size).append(value);
}

class Evaluation {
 public:
  Evaluation(const QueryRequest& request, const TimeBuckets& buckets,
             std::span<const std::string> own_domains)
      : request_(request), buckets_(buckets), own_domains_(own_domains),
        referrer_read_(Reads(ValuesRead(request), VisitValue::kReferrer)) {}

  Result<void> Prepare() {
    for (const std::string& name : request_.dimensions) {
      auto field = Resolve(name);
      if (!field) return field.error();
      per_event_ = per_event_ || field->per_event();
      time_ = time_ || field->field == Field::kTime;
      fields_.push_back(std::move(*field));
    }
    for (const Filter& filter : request_.filters) {
      auto compiled = Compile(filter);
      if (!compiled) return compiled.error();
      filters_.push_back(std::move(*compiled));
    }
    for (std::size_t i = 0; i < buckets_.windows.size(); ++i) {
      labels_.push_back(i < buckets_.labels.size() ? buckets_.labels[i] : std::to_string(i));
    }
    return {};
  }

  void Add(const Visit& visit) {
    if (visit.figures != nullptr) {
      Summarize(*visit.figures, summary_);
    } else if (!visit.events.empty()) {
      Summarize(visit, summary_);
    } else {
      return;
    }
    if (referrer_read_) ReadReferrer(visit);
    for (const Compiled& filter : filters_) {
      if (!Holds(filter, visit, summary_)) return;
    }
    // A visit without a visitor id counts no visitor, as in the rollups. Every kept visit's
    // visitor is numbered here, so the numbers seen are the kept visits' visitors.
    std::optional<std::uint32_t> visitor;
    if (visit.visitor_packed) {
      visitor = visitor_ids_.OfPackedUuid(visit.visitor);
    } else if (!visit.visitor.empty()) {
      visitor = visitor_ids_.Of(visit.visitor);
    }
    std::optional<std::size_t> bucket;
    if (time_) {
      const std::int64_t started =
          visit.figures != nullptr ? visit.figures->started_at : visit.events.front().at_ms;
      bucket = BucketOf(buckets_, started);
      if (!bucket) return;
    }
    ++visit_serial_;
    if (visit.figures != nullptr) {
      AddFigures(visit, *visit.figures, visitor, bucket);
      return;
    }
    if (!per_event_) {
      Key(visit, kNoEvent, bucket);
      Sums& sums = Row(bucket);
      AddVisit(sums, visit, visitor);
      for (std::size_t i = 0; i < visit.events.size(); ++i) AddEvent(sums, visit, i);
      return;
    }
    for (std::size_t i = 0; i < visit.events.size(); ++i) {
      if (!Key(visit, &visit.events[i], bucket)) continue;
      Sums& sums = Row(bucket);
      AddVisit(sums, visit, visitor);
      AddEvent(sums, visit, i);
    }
  }

  QueryAnswer Finish() {
    // Without dimensions there is always the one row of totals, zero when nothing was kept.
    if (fields_.empty() && rows_.empty()) {
      key_.clear();
      values_.clear();
      Row(std::nullopt);
    }
    std::vector<RankedRow> rows;
    rows.reserve(rows_.size());
    for (auto& [key, sums] : rows_) {
      RankedRow ranked{{std::move(sums.dimensions), {}}, sums.bucket};
      for (const std::string& metric : request_.metrics) {
        ranked.row.metrics.push_back(Metric(metric, sums, visitor_ids_.size()));
      }
      rows.push_back(std::move(ranked));
    }
    return Rank(request_, std::move(rows));
  }

 private:
  // The visit rows keep a visit's ReferrerDomain (reports/rollups.cpp); events, its referrer.
  void ReadReferrer(const Visit& visit) {
    if (visit.figures != nullptr) {
      summary_.referrer.assign(visit.referrer);
      summary_.referrer_url = {};
      return;
    }
    summary_.referrer = reports::ReferrerDomain(visit.referrer, visit.channel, own_domains_);
    summary_.referrer_url = summary_.referrer.empty() ? std::string_view() : visit.referrer;
  }

  // A visit's figures, in one row, or in a row per page when a dimension is per event (the
  // event path's rows: a page's events are its views, all pageviews).
  void AddFigures(const Visit& v, const VisitFigures& figures,
                  std::optional<std::uint32_t> visitor, std::optional<std::size_t> bucket) {
    if (!per_event_) {
      Key(v, kNoEvent, bucket);
      Sums& sums = Row(bucket);
      AddVisit(sums, v, visitor);
      sums.events += figures.events;
      sums.pageviews += figures.pageviews;
      for (const VisitPage& page : figures.pages) {
        sums.timed_views += page.timed_views;
        sums.view_ms += page.view_ms;
      }
      return;
    }
    for (const VisitPage& page : figures.pages) {
      if (!Key(v, &page, bucket)) continue;
      Sums& sums = Row(bucket);
      AddVisit(sums, v, visitor);
      sums.events += page.views;
      sums.pageviews += page.views;
      sums.timed_views += page.timed_views;
      sums.view_ms += page.view_ms;
    }
  }

  // Sets key_ and values_ to the row's dimension values for a visit, or for one of its events
  // (or pages) when a dimension is per event; false when the event has no value for one of
  // them. `kNoEvent` when no dimension is per event.
  static constexpr const VisitEvent* kNoEvent = nullptr;
  template <class Event>
  bool Key(const Visit& v, const Event* event, std::optional<std::size_t> bucket) {
    key_.clear();
    values_.clear();
    for (const FieldRef& field : fields_) {
      std::string_view value;
      if (field.field == Field::kTime) {
        value = labels_[*bucket];
      } else if (field.per_event()) {
        const auto event_value = EventValue(*event, field);
        if (!event_value) return false;
        value = *event_value;
      } else {
        value = VisitFieldValue(v, summary_, field.field);
      }
      AppendKeyValue(key_, value);
      values_.push_back(value);
    }
    return true;
  }

  // The row of key_, made with values_ when new.
  Sums& Row(std::optional<std::size_t> bucket) {
    auto it = rows_.find(key_);
    if (it == rows_.end()) {
      it = rows_.emplace(key_, Sums{}).first;
      it->second.dimensions.assign(values_.begin(), values_.end());
      it->second.bucket = bucket;
    }
    return it->second;
  }

  // A visit counts once in each of its rows, however many of its events the row has.
  void AddVisit(Sums& sums, const Visit& v, std::optional<std::uint32_t> visitor) const {
    if (sums.last_visit == visit_serial_) return;
    sums.last_visit = visit_serial_;
    if (visitor) sums.visitors.Insert(*visitor);
    if (!v.in_visit) return;
    sums.visits += 1;
    sums.bounces += summary_.bounce ? 1 : 0;
    sums.duration_ms += summary_.duration_ms;
  }

  void AddEvent(Sums& sums, const Visit& v, std::size_t i) const {
    sums.events += 1;
    if (v.events[i].name != kPageviewEvent) return;
    sums.pageviews += 1;
    if (summary_.view_ms[i] >= 0) {
      sums.timed_views += 1;
      sums.view_ms += summary_.view_ms[i];
    }
  }

  const QueryRequest& request_;
  const TimeBuckets& buckets_;
  const std::span<const std::string> own_domains_;
  const bool referrer_read_;
  std::vector<FieldRef> fields_;
  bool per_event_ = false;
  bool time_ = false;
  std::vector<Compiled> filters_;
  std::vector<std::string> labels_;  // a time row's value, by bucket
  std::unordered_map<std::string, Sums> rows_;  // by key (AppendKeyValue)
  VisitorIds visitor_ids_;
  // The visit being added: its summary, its serial, and its row's key and values.
  Summary summary_;
  std::uint64_t visit_serial_ = 0;
  std::string key_;
  std::vector<std::string_view> values_;
};

// The visit value a field reads; none for the values always read.
std::optional<VisitValue> ValueOf(Field field) {
  switch (field) {
    case Field::kPage:
    case Field::kEntryPage:
    case Field::kExitPage: return VisitValue::kPages;
    case Field::kProperty: return VisitValue::kProperties;
    case Field::kSource: return VisitValue::kSource;
    case Field::kChannel: return VisitValue::kChannel;
    case Field::kReferrer:
    case Field::kReferrerUrl: return VisitValue::kReferrer;
    case Field::kUtmSource: return VisitValue::kUtmSource;
    case Field::kUtmMedium: return VisitValue::kUtmMedium;
    case Field::kUtmCampaign: return VisitValue::kUtmCampaign;
    case Field::kUtmContent: return VisitValue::kUtmContent;
    case Field::kUtmTerm: return VisitValue::kUtmTerm;
    case Field::kCountry: return VisitValue::kCountry;
    case Field::kRegion: return VisitValue::kRegion;
    case Field::kCity: return VisitValue::kCity;
    case Field::kDevice: return VisitValue::kDevice;
    case Field::kBrowser: return VisitValue::kBrowser;
    case Field::kOs: return VisitValue::kOs;
    default: return std::nullopt;  // event names and channels, time
  }
}

void AddValueRead(std::string_view dimension, VisitValues& values) {
  const auto field = Resolve(dimension);
  if (!field) return;  // answered by AnswerWeb's own error
  const auto value = ValueOf(field->field);
  if (!value) return;
  values.set(static_cast<std::size_t>(*value));
  // A visit's referrer is read with its channel (ReferrerDomain).
  if (*value == VisitValue::kReferrer) values.set(static_cast<std::size_t>(VisitValue::kChannel));
}

void AddValuesRead(const Filter& filter, VisitValues& values) {
  if (filter.condition()) AddValueRead(filter.dimension, values);
  for (const Filter& child : filter.children) AddValuesRead(child, values);
}

void AddPropertyKeysRead(std::string_view dimension, std::vector<std::string>& keys) {
  const auto key = PropertyKeyOf(dimension);
  if (key && std::find(keys.begin(), keys.end(), *key) == keys.end()) keys.emplace_back(*key);
}

void AddPropertyKeysRead(const Filter& filter, std::vector<std::string>& keys) {
  if (filter.condition()) AddPropertyKeysRead(filter.dimension, keys);
  for (const Filter& child : filter.children) AddPropertyKeysRead(child, keys);
}

}  // namespace

std::vector<VisitCondition> VisitConditions(const QueryRequest& request) {
  std::vector<VisitCondition> conditions;
  for (const Filter& filter : request.filters) {
    if (!filter.condition()) continue;
    const auto field = Resolve(filter.dimension);
    // Entry and exit pages are a visit's too, but known only once its events are read.
    if (!field || field->per_event() || field->field == Field::kEntryPage ||
        field->field == Field::kExitPage) {
      continue;
    }
    const auto value = ValueOf(field->field);
    // A referrer condition is on the visit's ReferrerDomain, not the value a source reads.
    if (!value || *value == VisitValue::kReferrer) continue;
    conditions.push_back({*value, [filter](std::string_view text) {
                            const bool positive = ValueMatches(filter, text);
                            return IsNegative(filter.op) ? !positive : positive;
                          }});
  }
  return conditions;
}

namespace {

// Whether the filter or one inside it is a condition on `dimension`.
bool Names(const Filter& filter, std::string_view dimension) {
  if (filter.condition() && filter.dimension == dimension) return true;
  return std::ranges::any_of(filter.children,
                             [&](const Filter& child) { return Names(child, dimension); });
}

// Whether a visit's figures hold the field: its own values (but its referrer's URL: a visit row
// keeps the domain), the time, its pages.
bool FiguresHold(std::string_view dimension) {
  const auto field = Resolve(dimension);
  if (!field || field->field == Field::kReferrerUrl) return false;
  return !field->per_event() || field->field == Field::kPage;
}

bool FiguresHold(const Filter& filter) {
  // has_done asks for one event meeting the whole inner filter: a page list cannot say.
  if (filter.op == FilterOp::kHasDone || filter.op == FilterOp::kHasNotDone) return false;
  if (filter.condition() && !FiguresHold(filter.dimension)) return false;
  return std::ranges::all_of(filter.children,
                             [](const Filter& child) { return FiguresHold(child); });
}

}  // namespace

bool FiguresSuffice(const QueryRequest& request) {
  return std::ranges::all_of(request.dimensions,
                             [](const std::string& d) { return FiguresHold(d); }) &&
         std::ranges::all_of(request.filters, [](const Filter& f) { return FiguresHold(f); });
}

VisitReading ReadingOf(const QueryRequest& request) {
  VisitReading reading{ValuesRead(request), PropertyKeysRead(request), VisitConditions(request),
                       FiguresSuffice(request)};
  // From figures, a visit's timed views are those of its pages.
  if (reading.figures_suffice && std::ranges::find(request.metrics, "time_on_page") !=
                                     request.metrics.end()) {
    reading.values.set(static_cast<std::size_t>(VisitValue::kPages));
  }
  reading.counts_read = !std::ranges::all_of(request.metrics, [](const std::string& metric) {
    return metric == "visitors" || metric == "visits" || metric == "percentage";
  });
  const auto named = [&](std::string_view dimension) {
    return std::ranges::find(request.dimensions, dimension) != request.dimensions.end() ||
           std::ranges::any_of(request.filters,
                               [&](const Filter& f) { return Names(f, dimension); });
  };
  reading.entry_page_read = named("visit:entry_page");
  reading.exit_page_read = named("visit:exit_page");
  reading.page_list_read =
      named("event:page") || std::ranges::find(request.metrics, "time_on_page") !=
                                 request.metrics.end();
  return reading;
}

std::vector<std::string> PropertyKeysRead(const QueryRequest& request) {
  std::vector<std::string> keys;
  for (const std::string& dimension : request.dimensions) AddPropertyKeysRead(dimension, keys);
  for (const Filter& filter : request.filters) AddPropertyKeysRead(filter, keys);
  return keys;
}

VisitValues ValuesRead(const QueryRequest& request) {
  VisitValues values;
  for (const std::string& dimension : request.dimensions) AddValueRead(dimension, values);
  for (const Filter& filter : request.filters) AddValuesRead(filter, values);
  return values;
}

Result<QueryAnswer> AnswerWeb(const QueryRequest& request, const VisitSource& visits,
                            const TimeBuckets& buckets, std::span<const std::string> own_domains) {
  if (request.dataset != Dataset::kWeb) {
    return Error::Internal("query: AnswerWeb asked for another dataset");
  }
  Evaluation evaluation(request, buckets, own_domains);
  if (auto prepared = evaluation.Prepare(); !prepared) return prepared.error();
  if (auto read = visits([&](const Visit& visit) { evaluation.Add(visit); }); !read) {
    return read.error();
  }
  return evaluation.Finish();
}

}  // namespace sightline::query
