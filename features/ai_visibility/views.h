// The JSON views of AI visibility's records, shared by its operation groups.
#pragma once

#include <boost/json/object.hpp>

#include "storage/ai_visibility_records.h"

namespace sightline::tools {

boost::json::object AiBrandView(const storage::AiBrandRecord& brand);
boost::json::object AiPromptView(const storage::AiPromptRecord& prompt);
// Never the key: whether there is one, and its last four characters.
boost::json::object AiEngineView(const storage::AiEngineRecord& engine);
boost::json::object AiSettingsView(const storage::AiSettingsRecord& settings);
boost::json::object AiRunView(const storage::AiRunRecord& run,
                              const storage::AiRunProgress& progress);
// Without the raw response (get_ai_answer adds it).
boost::json::object AiAnswerView(const storage::AiAnswerRecord& answer);
boost::json::object AiMentionView(const storage::AiMentionRecord& mention);
boost::json::object AiCitationView(const storage::AiCitationRecord& citation);

}  // namespace sightline::tools
