// The web dataset's answers, from visits: which visits a filter tree keeps, what each kept
// visit contributes to each row of the dimensions asked, and every metric from those sums.
// Pure: the visits come from a source (the store's inbox and column blocks), one at a time,
// so memory grows with the rows of the answer and its distinct visitors, not with the visits
// read. A source reads only the values the request needs (ValuesRead).
//
// What a filter means (docs/query.md, "Filters"): a condition on a visit dimension holds when
// the visit's value (its first event's) matches; on an event dimension (page, event name,
// channel, custom property) when any of its events matches; `is_not`, `contains_not` and
// `matches_not` are `not` of their positive forms; `has_done` holds when one event satisfies
// the whole inner filter. Every figure is counted over the kept visits with the definitions of
// the reports (docs/reports.md): a visit's figures belong to the period it started in.
#pragma once

#include <bitset>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "query/answer.h"
#include "query/custom_properties.h"
#include "query/query_request.h"

namespace sightline::query {

// One event of a visit, as the query reads it. The views are valid while the source's `each`
// call runs, no longer.
struct VisitEvent {
  std::int64_t at_ms = 0;
  std::string_view name;     // `screen_view` is a pageview
  std::string_view channel;  // the tracked event's channel
  std::string_view page;     // its path
  std::span<const Property> properties;  // its custom properties (those the request reads)
};

// A page of a visit known by its figures: its views, and how many of them were timed (followed
// by another pageview of the visit) and for how long in all.
struct VisitPage {
  std::string_view path;
  std::int64_t views = 0, timed_views = 0, view_ms = 0;
};

// A visit as the rollups keep it (a visit row, storage/visit_blocks.h): its figures, counted
// with the rules Summarize applies to its events (reports/rollups.cpp, VisitRowOf), and its
// pages. A source may hand visits this way, without their events, to a request whose answer
// needs nothing else (VisitReading::figures_suffice).
struct VisitFigures {
  std::int64_t started_at = 0;
  std::int64_t events = 0, pageviews = 0, duration_ms = 0;
  bool bounce = false;
  std::string_view entry_page, exit_page;
  std::span<const VisitPage> pages;  // in any order, each path once
};

// One visit, or one event outside every visit (`in_visit` false: it counts as an event, a
// pageview if it is one, and a visitor, never as a visit). Its acquisition, place and device
// are its first event's; its referrer is that event's URL, or with `figures` the visit row's
// ReferrerDomain (reports/visit_rules.h). A source may leave empty the values a request does not read
// (ValuesRead).
struct Visit {
  bool in_visit = true;
  std::string_view visitor;
  std::string_view source, channel, referrer;
  std::string_view utm_source, utm_medium, utm_campaign, utm_content, utm_term;
  std::string_view country, region, city, device, browser, os;
  std::vector<VisitEvent> events;  // in time order, at least one; none with `figures`
  const VisitFigures* figures = nullptr;  // set: the visit is known by these, not its events
  // `visitor` is a canonical UUID's 16 bytes, not its text (VisitorIds::OfPackedUuid).
  bool visitor_packed = false;
};

// The values of a visit a source may leave out, by what they are. The visitor, the in_visit
// flag and each event's time, name and channel are always read.
enum class VisitValue {
  kSource, kChannel, kReferrer, kUtmSource, kUtmMedium, kUtmCampaign, kUtmContent, kUtmTerm,
  kCountry, kRegion, kCity, kDevice, kBrowser, kOs,
  kPages,       // each event's page, and so the entry and exit pages
  kProperties,  // each event's custom properties
  kCount
};
using VisitValues = std::bitset<static_cast<std::size_t>(VisitValue::kCount)>;
inline bool Reads(const VisitValues& values, VisitValue value) {
  return values.test(static_cast<std::size_t>(value));
}
// Every value: for readers of whole visits.
inline VisitValues AllVisitValues() { return VisitValues().set(); }

// The values AnswerWeb reads to answer `request` (its dimensions and filters).
VisitValues ValuesRead(const QueryRequest& request);
// The custom property keys it reads (`event:props:<key>` of its dimensions and filters).
std::vector<std::string> PropertyKeysRead(const QueryRequest& request);

// A condition every visit AnswerWeb keeps meets, on one acquisition, place or device value (a
// top-level filter on such a dimension): a source may skip the visits that fail it unread.
struct VisitCondition {
  VisitValue value;
  std::function<bool(std::string_view)> holds;
};
std::vector<VisitCondition> VisitConditions(const QueryRequest& request);

// Whether AnswerWeb can answer `request` from visits' figures (VisitFigures): its dimensions
// and filters read a visit's own values, the time and pages only (no event name, channel or
// custom property, no has_done), whatever its metrics.
bool FiguresSuffice(const QueryRequest& request);

// What a source reads for a request, and what it may skip.
struct VisitReading {
  VisitValues values;  // the others are left empty
  // The custom property keys read, when values has kProperties; every key when none.
  std::optional<std::vector<std::string>> property_keys;
  std::vector<VisitCondition> conditions;
  // The source may hand visits with figures instead of events (FiguresSuffice).
  bool figures_suffice = false;
  // Figures: whether the metrics need a visit's counts (events, pageviews, bounce, duration,
  // timed views) beyond its visitor and whether it is a visit; without, they may be left 0.
  bool counts_read = true;
  // Figures, with kPages: which of a visit's pages are read (the others may be left empty).
  bool entry_page_read = true, exit_page_read = true, page_list_read = true;
};
// (With figures_suffice, time_on_page reads the pages: a visit's figures time them.)
VisitReading ReadingOf(const QueryRequest& request);

// Calls `each` with every visit that started in the window, in any order.
using VisitSource = std::function<core::Result<void>(const std::function<void(const Visit&)>& each)>;

// `buckets` are the request's time buckets when it has a time dimension: a row's time value is
// the label of the bucket its visit started in; visits starting in no bucket are left out.
// `own_domains`: the project's, for its visits' referrers (reports::ReferrerDomain).
// The request must be of the web dataset and checked by ParseQueryRequest.
core::Result<QueryAnswer> AnswerWeb(const QueryRequest& request, const VisitSource& visits,
                                  const TimeBuckets& buckets = {},
                                  std::span<const std::string> own_domains = {});

}  // namespace sightline::query
