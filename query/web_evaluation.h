// The web dataset's answers, from visits: which visits a filter tree keeps, what each kept
// visit contributes to each row of the dimensions asked, and every metric from those sums.
// Pure: the visits come from a source (the store today, column blocks later), one at a time,
// so memory grows with the rows of the answer, not with the visits read.
//
// What a filter means (docs/query.md, "Filters"): a condition on a visit dimension holds when
// the visit's value (its first event's) matches; on an event dimension (page, event name,
// channel, custom property) when any of its events matches; `is_not`, `contains_not` and
// `matches_not` are `not` of their positive forms; `has_done` holds when one event satisfies
// the whole inner filter. Every figure is counted over the kept visits with the definitions of
// the reports (docs/reports.md): a visit's figures belong to the period it started in.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "query/answer.h"
#include "query/query_request.h"

namespace sightline::query {

// One event of a visit, as the query reads it.
struct VisitEvent {
  std::int64_t at_ms = 0;
  std::string name;     // `screen_view` is a pageview
  std::string channel;  // the tracked event's channel
  std::string page;     // its path
  std::vector<std::pair<std::string, std::string>> properties;  // custom properties, as text
};

// One visit, or one event outside every visit (`in_visit` false: it counts as an event, a
// pageview if it is one, and a visitor, never as a visit). Its acquisition, place and device
// are its first event's.
struct Visit {
  bool in_visit = true;
  std::string visitor;
  std::string source, channel, referrer;
  std::string utm_source, utm_medium, utm_campaign, utm_content, utm_term;
  std::string country, region, city, device, browser, os;
  std::vector<VisitEvent> events;  // in time order, at least one
};

// Calls `each` with every visit that started in the window, in any order.
using VisitSource = std::function<core::Result<void>(const std::function<void(const Visit&)>& each)>;

// `buckets` are the request's time buckets when it has a time dimension: a row's time value is
// the label of the bucket its visit started in; visits starting in no bucket are left out.
// The request must be of the web dataset and checked by ParseQueryRequest.
core::Result<QueryAnswer> AnswerWeb(const QueryRequest& request, const VisitSource& visits,
                                  const TimeBuckets& buckets = {});

}  // namespace sightline::query
