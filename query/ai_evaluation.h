// The AI-visibility dataset's answers, from the answers the engines gave one at a time, with
// the definitions of the AI-visibility reports (docs/ai-visibility.md): a row's brand is its
// `ai:brand` value, or else the project's own brands; `mentions` are answers naming it,
// `citations` answers citing its pages, `share_of_voice` its mentions among every tracked
// brand's, `average_position` its mean rank among the brands an answer names. The two rates
// carry their 95% Wilson interval.
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

struct TrackedBrand {
  std::string id;
  std::string name;
  bool own = false;
};

// One answer as the query reads it.
struct AnswerFacts {
  std::int64_t at = 0;  // when it was answered
  std::string engine, prompt, topic;  // the engine's name, the prompt's text, its topic
  std::vector<std::pair<std::string, std::int64_t>> mentions;  // brand id, rank (1 = first)
  struct Citation {
    std::string domain;
    bool owned = false;                   // a page of an own brand
    std::optional<std::string> brand_id;  // the tracked brand whose domain it is
  };
  std::vector<Citation> citations;
};

using AnswerSource =
    std::function<core::Result<void>(const std::function<void(const AnswerFacts&)>& each)>;

// The request must be of the AI-visibility dataset and checked by ParseQueryRequest.
core::Result<QueryAnswer> AnswerAiVisibility(const QueryRequest& request,
                                             const std::vector<TrackedBrand>& brands,
                                             const AnswerSource& answers,
                                             const TimeBuckets& buckets = {});

}  // namespace sightline::query
