#include "features/ai_visibility/views.h"

#include <boost/json/parse.hpp>

#include "core/clock.h"
#include "jobs/job_status.h"
#include "tools/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;

json::array Strings(const std::vector<std::string>& items) {
  json::array out;
  for (const std::string& item : items) out.emplace_back(item);
  return out;
}

double Dollars(std::int64_t micros) { return static_cast<double>(micros) / 1e6; }

}  // namespace

json::object AiBrandView(const storage::AiBrandRecord& b) {
  return {{"id", b.id},
          {"name", b.name},
          {"aliases", Strings(b.aliases)},
          {"domains", Strings(b.domains)},
          {"own", b.is_own},
          {"createdAt", core::FormatRfc3339(b.created_at)},
          {"updatedAt", core::FormatRfc3339(b.updated_at)}};
}

json::object AiPromptView(const storage::AiPromptRecord& p) {
  return {{"id", p.id},
          {"text", p.text},
          {"topic", p.topic},
          {"tags", Strings(p.tags)},
          {"language", p.language},
          {"country", p.country},
          {"active", p.active},
          {"createdAt", core::FormatRfc3339(p.created_at)},
          {"updatedAt", core::FormatRfc3339(p.updated_at)}};
}

json::object AiEngineView(const storage::AiEngineRecord& e) {
  boost::system::error_code ec;
  json::value params = json::parse(e.params, ec);
  return {{"id", e.id},
          {"name", e.name},
          {"provider", e.provider},
          {"model", e.model},
          {"baseUrl", e.base_url},
          {"webSearch", e.web_search},
          {"params", !ec && params.is_object() ? params : json::object()},
          {"hasApiKey", e.api_key.has_value()},
          {"apiKeyHint", e.api_key_hint},
          {"inputPrice", e.input_price},
          {"outputPrice", e.output_price},
          {"active", e.active},
          {"createdAt", core::FormatRfc3339(e.created_at)},
          {"updatedAt", core::FormatRfc3339(e.updated_at)}};
}

json::object AiSettingsView(const storage::AiSettingsRecord& s) {
  json::object out{{"schedule", s.schedule},
                   {"repetitions", s.repetitions},
                   {"maxRunsPerDay", s.max_runs_per_day},
                   {"maxTokensPerDay", s.max_tokens_per_day}};
  out["judgeEngineId"] = s.judge_engine_id ? json::value(*s.judge_engine_id) : json::value(nullptr);
  return out;
}

json::object AiRunView(const storage::AiRunRecord& run, const storage::AiRunProgress& p) {
  return {{"id", run.id},
          {"trigger", run.trigger},
          {"slot", run.slot ? json::value(*run.slot) : json::value(nullptr)},
          {"status", run.status},
          {"createdAt", core::FormatRfc3339(run.created_at)},
          {"finishedAt", NullableTime(run.finished_at)},
          {"progress", json::object{{"total", p.total},
                                    {"pending", p.pending},
                                    {"running", p.running},
                                    {"done", p.done},
                                    {"failed", p.failed},
                                    {"skipped", p.skipped},
                                    {"inputTokens", p.input_tokens},
                                    {"outputTokens", p.output_tokens},
                                    {"costUsd", Dollars(p.cost_micros)}}}};
}

json::object AiAnswerView(const storage::AiAnswerRecord& a) {
  json::object out{{"id", a.id},
                   {"runId", a.run_id},
                   {"promptId", a.prompt_id},
                   {"engineId", a.engine_id},
                   {"repetition", a.repetition},
                   {"status", a.status},
                   {"attempts", a.attempts},
                   {"answeredAt",
                    jobs::HasStatus(jobs::JobKind::kAiAnswer, a.status, jobs::JobStatus::kCompleted)
                        ? NullableTime(a.answered_at)
                        : nullptr},
                   {"answer", a.answer},
                   {"model", a.model},
                   {"inputTokens", a.input_tokens},
                   {"outputTokens", a.output_tokens},
                   {"costUsd", Dollars(a.cost_micros)}};
  out["error"] = a.error_code.empty()
                     ? json::value(nullptr)
                     : json::value(json::object{{"code", a.error_code}, {"message", a.error_message}});
  out["judgeModel"] = a.judge_model.empty() ? json::value(nullptr) : json::value(a.judge_model);
  return out;
}

json::object AiMentionView(const storage::AiMentionRecord& m) {
  json::object out{{"brandId", m.brand_id},
                   {"rank", m.rank},
                   {"offset", m.first_offset},
                   {"occurrences", m.occurrences},
                   {"snippet", m.snippet}};
  out["recommended"] = m.recommended ? json::value(*m.recommended) : json::value(nullptr);
  out["sentiment"] = m.sentiment ? json::value(*m.sentiment) : json::value(nullptr);
  return out;
}

json::object AiCitationView(const storage::AiCitationRecord& c) {
  json::object out{{"position", c.position}, {"url", c.url},       {"domain", c.domain},
                   {"path", c.path},         {"title", c.title},   {"origin", c.origin},
                   {"owned", c.owned}};
  out["brandId"] = c.brand_id ? json::value(*c.brand_id) : json::value(nullptr);
  return out;
}

}  // namespace sightline::tools
