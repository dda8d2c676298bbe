#include "agent/visibility_engine.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

namespace sightline::agent {
namespace {

namespace json = boost::json;

constexpr std::string_view kJudgeInstructions =
    "You rate how an AI assistant's answer presents brands. For each brand listed, say whether "
    "the answer recommends it (true/false) and its sentiment towards it from 0 (very negative) "
    "through 50 (neutral) to 100 (very positive). Reply with JSON only, in this shape: "
    "{\"brands\": [{\"name\": \"…\", \"recommended\": true, \"sentiment\": 70}]}";

json::object ParamsOf(const storage::AiEngineRecord& engine) {
  boost::system::error_code ec;
  json::value params = json::parse(engine.params, ec);
  return !ec && params.is_object() ? params.as_object() : json::object();
}

// The answer's first JSON object (a judge may wrap it in prose or a code fence).
std::optional<json::object> FirstObject(const std::string& text) {
  const std::size_t open = text.find('{');
  const std::size_t close = text.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  boost::system::error_code ec;
  json::value value = json::parse(text.substr(open, close - open + 1), ec);
  if (ec || !value.is_object()) return std::nullopt;
  return value.as_object();
}

void AddUsage(Usage& total, const Usage& more) {
  if (more.input_tokens) total.input_tokens = total.input_tokens.value_or(0) + *more.input_tokens;
  if (more.output_tokens) {
    total.output_tokens = total.output_tokens.value_or(0) + *more.output_tokens;
  }
}

}  // namespace

std::unique_ptr<LlmProvider> EngineProvider(const storage::AiEngineRecord& engine,
                                            const std::string& api_key,
                                            const core::OutboundLimits& limits,
                                            core::HttpClient& client) {
  ProviderSettings settings;
  settings.provider = engine.provider == "perplexity" ? "openai" : engine.provider;
  settings.base_url = engine.base_url;
  if (engine.provider == "perplexity" && settings.base_url.empty()) {
    settings.base_url = kPerplexityBaseUrl;
  }
  settings.model = engine.model;
  settings.api_key = api_key;
  settings.limits = limits;
  settings.max_retries = 0;  // the runner retries later instead of holding a thread
  return MakeProvider(settings, client);
}

ChatRequest QuestionFor(const storage::AiEngineRecord& engine,
                        const storage::AiPromptRecord& prompt) {
  ChatRequest request;
  request.max_tokens = 1500;
  // Asked as a person there would ask it: the GEO tools localize the same way.
  if (!prompt.country.empty() || !prompt.language.empty()) {
    request.system = "The user is";
    if (!prompt.country.empty()) request.system += " in " + prompt.country;
    if (!prompt.language.empty()) request.system += " and writes in " + prompt.language;
    request.system += ". Answer accordingly.";
  }
  request.messages.push_back({ChatMessage::Role::kUser, prompt.text, {}, "", "", false});
  if (engine.web_search && engine.provider == "openai") {
    request.extra["web_search_options"] = json::object();
  }
  if (engine.web_search && engine.provider == "anthropic") {
    request.extra["tools"] = json::array{
        json::object{{"type", "web_search_20250305"}, {"name", "web_search"}, {"max_uses", 5}}};
  }
  json::object params = ParamsOf(engine);
  if (const json::value* max = params.if_contains("max_tokens"); max && max->is_int64()) {
    request.max_tokens = static_cast<int>(std::clamp<std::int64_t>(max->as_int64(), 16, 32000));
    params.erase("max_tokens");
  }
  for (const auto& field : params) request.extra[field.key()] = field.value();
  return request;
}

std::string JudgeName(const storage::AiEngineRecord& engine) {
  return engine.provider + "/" + engine.model;
}

core::Result<void> Judge(LlmProvider& judge, const std::string& answer,
                         const std::vector<storage::AiBrandRecord>& brands,
                         std::vector<storage::AiMentionRecord>& mentions, Usage& usage) {
  if (mentions.empty()) return {};
  std::string names;
  for (const storage::AiMentionRecord& mention : mentions) {
    for (const storage::AiBrandRecord& brand : brands) {
      if (brand.id == mention.brand_id) names += "- " + brand.name + "\n";
    }
  }
  ChatRequest request;
  request.system = std::string(kJudgeInstructions);
  request.max_tokens = 600;
  request.messages.push_back({ChatMessage::Role::kUser,
                              "Brands:\n" + names + "\nAnswer:\n" + answer, {}, "", "", false});
  auto reply = judge.Complete(request, {}, {});
  if (!reply) return reply.error();
  AddUsage(usage, reply->usage);
  auto verdict = FirstObject(reply->text);
  const json::value* rated = verdict ? verdict->if_contains("brands") : nullptr;
  if (!rated || !rated->is_array()) {
    return ProviderError("The judge's answer is not the JSON asked for.");
  }
  for (const json::value& item : rated->as_array()) {
    if (!item.is_object()) continue;
    const json::object& fields = item.as_object();
    const json::value* name = fields.if_contains("name");
    if (!name || !name->is_string()) continue;
    for (storage::AiMentionRecord& mention : mentions) {
      const auto brand = std::find_if(brands.begin(), brands.end(),
                                      [&](const auto& b) { return b.id == mention.brand_id; });
      if (brand == brands.end() || brand->name != name->as_string()) continue;
      if (const json::value* r = fields.if_contains("recommended"); r && r->is_bool()) {
        mention.recommended = r->as_bool();
      }
      if (const json::value* s = fields.if_contains("sentiment"); s && s->is_number()) {
        mention.sentiment = std::clamp(s->to_number<double>(), 0.0, 100.0);
      }
    }
  }
  return {};
}

}  // namespace sightline::agent
