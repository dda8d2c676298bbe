// The crawler dataset's answers, from stored crawler requests one at a time: which requests
// the filters keep (every dimension is the request's own), the rows of the dimensions asked,
// and `requests`, `pages` (distinct paths) and `percentage` (of the kept requests).
#pragma once

#include <functional>

#include "core/result.h"
#include "query/answer.h"
#include "query/query_request.h"
#include "storage/event_records.h"

namespace sightline::query {

// Calls `each` with every request of the window.
using RequestSource =
    std::function<core::Result<void>(const std::function<void(const storage::BotRequestRecord&)>& each)>;

// The request must be of the crawler dataset and checked by ParseQueryRequest. `buckets` as
// for AnswerWeb, by the request's time.
core::Result<QueryAnswer> AnswerCrawlers(const QueryRequest& request, const RequestSource& requests,
                                         const TimeBuckets& buckets = {});

}  // namespace sightline::query
