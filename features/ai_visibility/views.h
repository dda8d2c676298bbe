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

// The schemas of the views above (OpenAPI 3.0 schema objects).
#define SIGHTLINE_AI_BRAND_SCHEMA                                                            \
  R"({"type": "object", "required": ["id", "name", "aliases", "domains", "own", "createdAt", )" \
  R"("updatedAt"], "properties": {"id": {"type": "string"}, "name": {"type": "string"}, )"    \
  R"("aliases": {"type": "array", "items": {"type": "string"}}, "domains": {"type": )"        \
  R"("array", "items": {"type": "string"}}, "own": {"type": "boolean", "description": )"      \
  R"("The project's own brand (its domains' pages are owned)."}, "createdAt": {"type": )"      \
  R"("string", "format": "date-time"}, "updatedAt": {"type": "string", "format": )"           \
  R"("date-time"}}})"

#define SIGHTLINE_AI_PROMPT_SCHEMA                                                           \
  R"({"type": "object", "required": ["id", "text", "topic", "tags", "language", "country", )" \
  R"("active", "createdAt", "updatedAt"], "properties": {"id": {"type": "string"}, "text": )" \
  R"({"type": "string"}, "topic": {"type": "string"}, "tags": {"type": "array", "items": )"  \
  R"({"type": "string"}}, "language": {"type": "string"}, "country": {"type": "string"}, )"  \
  R"("active": {"type": "boolean"}, "createdAt": {"type": "string", "format": )"              \
  R"("date-time"}, "updatedAt": {"type": "string", "format": "date-time"}}})"

// An engine's params as given: members of the provider's request body, the common ones named.
#define SIGHTLINE_AI_ENGINE_PARAMS_SCHEMA                                                    \
  R"({"type": "object", "description": "Merged into each request body, as given.", )"        \
  R"("properties": {"temperature": {"type": "number"}, "top_p": {"type": "number"}, )"        \
  R"("max_tokens": {"type": "integer"}}, "additionalProperties": {"description": "Any )"      \
  R"(other member of the provider's request body."}})"
#define SIGHTLINE_AI_ENGINE_SCHEMA                                                           \
  R"({"type": "object", "required": ["id", "name", "provider", "model", "baseUrl", )"         \
  R"("webSearch", "params", "hasApiKey", "apiKeyHint", "inputPrice", "outputPrice", )"        \
  R"("active", "createdAt", "updatedAt"], "properties": {"id": {"type": "string"}, "name": )" \
  R"({"type": "string"}, "provider": {"type": "string", "enum": ["openai", "anthropic", )"   \
  R"("perplexity"]}, "model": {"type": "string"}, "baseUrl": {"type": "string", )"           \
  R"("description": "Empty: the vendor's own API."}, "webSearch": {"type": "boolean"}, )"     \
  R"("params": )" SIGHTLINE_AI_ENGINE_PARAMS_SCHEMA R"(, "hasApiKey": {"type": "boolean"}, )"  \
  R"("apiKeyHint": {"type": "string", "description": "The key's last four characters; )"  \
  R"(the key itself is never shown again."}, "inputPrice": {"type": "number", )"           \
  R"("description": "US dollars per million input tokens."}, "outputPrice": {"type": )"     \
  R"("number", "description": "US dollars per million output tokens."}, "active": )"      \
  R"({"type": "boolean"}, "createdAt": {"type": "string", "format": "date-time"}, )"         \
  R"("updatedAt": {"type": "string", "format": "date-time"}}})"

#define SIGHTLINE_AI_SETTINGS_SCHEMA                                                         \
  R"({"type": "object", "required": ["schedule", "repetitions", "maxRunsPerDay", )"           \
  R"("maxTokensPerDay", "judgeEngineId"], "properties": {"schedule": {"type": "string", )"   \
  R"("enum": ["off", "daily", "weekly"]}, "repetitions": {"type": "integer"}, )"              \
  R"("maxRunsPerDay": {"type": "integer"}, "maxTokensPerDay": {"type": "integer"}, )"         \
  R"("judgeEngineId": {"type": "string", "nullable": true}}})"

#define SIGHTLINE_AI_RUN_SCHEMA                                                              \
  R"({"type": "object", "required": ["id", "trigger", "slot", "status", "createdAt", )"       \
  R"("finishedAt", "progress"], "properties": {"id": {"type": "string"}, "trigger": {"type": )" \
  R"("string", "enum": ["manual", "schedule"]}, "slot": {"type": "string", "nullable": )"     \
  R"(true}, "status": {"type": "string", "enum": ["queued", "running", "completed", )"        \
  R"("failed", "cancelled", "budget_exhausted"]}, "createdAt": {"type": "string", )"          \
  R"("format": "date-time"}, "finishedAt": {"type": "string", "format": "date-time", )"        \
  R"("nullable": true}, "progress": {"type": "object", "required": ["total", "pending", )"    \
  R"("running", "done", "failed", "skipped", "inputTokens", "outputTokens", "costUsd"], )"     \
  R"("properties": {"total": {"type": "integer"}, "pending": {"type": "integer"}, )"         \
  R"("running": {"type": "integer"}, "done": {"type": "integer"}, "failed": {"type": )"      \
  R"("integer"}, "skipped": {"type": "integer"}, "inputTokens": {"type": "integer"}, )"       \
  R"("outputTokens": {"type": "integer"}, "costUsd": {"type": "number"}}}}})"

#define SIGHTLINE_AI_MENTION_SCHEMA                                                          \
  R"({"type": "object", "required": ["brandId", "rank", "offset", "occurrences", )"           \
  R"("snippet", "recommended", "sentiment"], "properties": {"brandId": {"type": "string"}, )" \
  R"("rank": {"type": "integer", "description": "1 = the first tracked brand named."}, )"    \
  R"("offset": {"type": "integer", "description": "Of the first mention, in UTF-16 code )"   \
  R"(units."}, "occurrences": {"type": "integer"}, "snippet": {"type": "string"}, )"          \
  R"("recommended": {"type": "boolean", "nullable": true, "description": "Null unless a )"   \
  R"(judge model rated it."}, "sentiment": {"type": "number", "nullable": true, )"            \
  R"("description": "0-100; null unless a judge model rated it."}}})"

#define SIGHTLINE_AI_CITATION_SCHEMA                                                         \
  R"({"type": "object", "required": ["position", "url", "domain", "path", "title", )"         \
  R"("origin", "owned", "brandId"], "properties": {"position": {"type": "integer"}, "url": )" \
  R"({"type": "string"}, "domain": {"type": "string"}, "path": {"type": "string"}, )"        \
  R"("title": {"type": "string"}, "origin": {"type": "string", "enum": ["provider", )"       \
  R"("text"]}, "owned": {"type": "boolean"}, "brandId": {"type": "string", "nullable": )"    \
  R"(true}}})"

#define SIGHTLINE_AI_ANSWER_SCHEMA                                                           \
  R"({"type": "object", "required": ["id", "runId", "promptId", "engineId", "repetition", )"  \
  R"("status", "attempts", "answeredAt", "answer", "model", "inputTokens", "outputTokens", )"  \
  R"("costUsd", "error", "judgeModel"], "properties": {"id": {"type": "string"}, "runId": )" \
  R"({"type": "string"}, "promptId": {"type": "string"}, "engineId": {"type": "string"}, )"   \
  R"("repetition": {"type": "integer"}, "status": {"type": "string", "enum": ["pending", )"  \
  R"("running", "done", "failed", "skipped"]}, "attempts": {"type": "integer"}, )"            \
  R"("answeredAt": {"type": "string", "format": "date-time", "nullable": true}, "answer": )" \
  R"({"type": "string"}, "model": {"type": "string"}, "inputTokens": {"type": "integer"}, )"  \
  R"("outputTokens": {"type": "integer"}, "costUsd": {"type": "number"}, "error": {"type": )" \
  R"("object", "nullable": true, "properties": {"code": {"type": "string"}, "message": )"    \
  R"({"type": "string"}}}, "judgeModel": {"type": "string", "nullable": true}, "mentions": )" \
  R"({"type": "array", "items": )" SIGHTLINE_AI_MENTION_SCHEMA R"(}, "citations": {"type": )"  \
  R"("array", "items": )" SIGHTLINE_AI_CITATION_SCHEMA R"(}, "rawResponse": {"type": )"       \
  R"("string", "description": "The provider's whole answer (get_ai_answer only)."}}})"

}  // namespace sightline::tools
