// The demo project's AI visibility: its brand and three competitors, prompts in four topics,
// and two engines whose answers come from a script instead of a model (named "(scripted)",
// inactive, so nothing ever sends them a question). Eight weekly runs are made by the product's
// own run path (visibility::CreateRun), and each answer is claimed and finished as the runner
// finishes a model's: mentions and citations extracted by visibility::ExtractMentions and
// ExtractCitations, and rolled up in the project's zone. The script names the demo's own brand
// more often week by week, as a site that works on its visibility would see.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "storage/account_records.h"
#include "storage/store.h"

namespace sightline::demo {

struct AnswerCounts {
  std::int64_t runs = 0, answers = 0;
};

core::Result<AnswerCounts> GenerateAnswers(storage::Store& store,
                                           const storage::ProjectRecord& project,
                                           const std::string& user_id, std::int64_t now);

}  // namespace sightline::demo
