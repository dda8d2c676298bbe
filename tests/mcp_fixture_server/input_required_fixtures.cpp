#include "tests/mcp_fixture_server/input_required_fixtures.h"

#include "core/crypto.h"
#include "core/json_util.h"
#include "mcp/protocol.h"

#include <boost/json/parse.hpp>

#include <array>
#include <vector>

namespace sightline::mcp {
namespace {

namespace json = boost::json;

constexpr std::int64_t kStateLifetimeMs = 10LL * 60 * 1000;

constexpr std::string_view kElicitation = "test_input_required_result_elicitation";
constexpr std::string_view kSampling = "test_input_required_result_sampling";
constexpr std::string_view kListRoots = "test_input_required_result_list_roots";
constexpr std::string_view kRequestState = "test_input_required_result_request_state";
constexpr std::string_view kMultipleInputs = "test_input_required_result_multiple_inputs";
constexpr std::string_view kMultiRound = "test_input_required_result_multi_round";
constexpr std::string_view kTamperedState = "test_input_required_result_tampered_state";
constexpr std::string_view kCapabilities = "test_input_required_result_capabilities";
constexpr std::string_view kMissingCapability = "test_missing_capability";
constexpr std::string_view kStreamingElicitation = "test_streaming_elicitation";
constexpr std::string_view kPromptName = "test_input_required_result_prompt";

constexpr std::array<std::string_view, 10> kTools = {
    kElicitation, kSampling,      kListRoots,    kRequestState,      kMultipleInputs,
    kMultiRound,  kTamperedState, kCapabilities, kMissingCapability, kStreamingElicitation};

json::object Elicit(std::string_view message, std::string_view property,
                    std::string_view type = "string") {
  return {{"method", "elicitation/create"},
          {"params",
           json::object{{"message", message},
                        {"requestedSchema",
                         json::object{{"type", "object"},
                                      {"properties",
                                       json::object{{property, json::object{{"type", type}}}}},
                                      {"required", json::array{property}}}}}}};
}

json::object Sample(std::string_view text, int max_tokens) {
  return {{"method", "sampling/createMessage"},
          {"params",
           json::object{{"messages", json::array{json::object{
                                         {"role", "user"},
                                         {"content", json::object{{"type", "text"},
                                                                  {"text", text}}}}}},
                        {"maxTokens", max_tokens}}}};
}

json::object ListRoots() { return {{"method", "roots/list"}, {"params", json::object()}}; }

json::object TextResult(std::string_view text, bool is_error = false) {
  return {{"content", json::array{json::object{{"type", "text"}, {"text", text}}}},
          {"isError", is_error}};
}

// What one round of a fixture asks the client for.
struct Needs {
  json::object requests;  // key → {method, params}
  bool stateful = false;  // hands out (and then requires) a signed requestState
};

// The answers a retry carried for `needs`: all of them, or what is still missing, or why the
// structure is wrong.
struct Answers {
  json::object given;
  json::object missing;
  std::optional<std::string> invalid;
};

Answers Collect(const json::object& params, const json::object& requests) {
  Answers answers;
  const json::value* responses = params.if_contains("inputResponses");
  if (!responses) {
    answers.missing = requests;
    return answers;
  }
  if (!responses->is_object()) {
    answers.invalid = "inputResponses must be an object keyed by the inputRequests' keys.";
    return answers;
  }
  for (const auto& [key, request] : requests) {
    const json::value* answer = responses->as_object().if_contains(key);
    if (!answer) {
      answers.missing[key] = request;
    } else if (!answer->is_object()) {
      answers.invalid = "inputResponses[\"" + std::string(key) + "\"] must be an object.";
      return answers;
    } else {
      answers.given[key] = *answer;
    }
  }
  return answers;  // keys nobody asked for are ignored
}

std::string TextOf(const json::object& answers, std::string_view key, std::string_view field) {
  const json::value* answer = answers.if_contains(key);
  if (!answer || !answer->is_object()) return {};
  const json::value* content = answer->as_object().if_contains("content");
  const json::value* value =
      content && content->is_object() ? content->as_object().if_contains(field) : nullptr;
  if (value && value->is_string()) return std::string(value->as_string());
  return value ? core::ToJson(*value) : std::string();
}

std::string RootsOf(const json::object& answers, std::string_view key) {
  const json::value* answer = answers.if_contains(key);
  const json::value* roots = answer && answer->is_object() ? answer->as_object().if_contains("roots")
                                                           : nullptr;
  std::string listed;
  if (!roots || !roots->is_array()) return listed;
  for (const json::value& root : roots->as_array()) {
    const json::value* uri = root.is_object() ? root.as_object().if_contains("uri") : nullptr;
    if (uri && uri->is_string()) {
      listed += (listed.empty() ? "" : ", ") + std::string(uri->as_string());
    }
  }
  return listed;
}

bool Declared(const json::object& capabilities, std::string_view name) {
  const json::value* capability = capabilities.if_contains(name);
  return capability && capability->is_object();
}

}  // namespace

InputRequiredFixtures::InputRequiredFixtures() : key_(core::RandomBytes(32)) {}

json::array InputRequiredFixtures::Tools() const {
  json::array tools;
  for (std::string_view name : kTools) {
    tools.push_back(json::object{
        {"name", name},
        {"description", "2026-07-28 conformance fixture: asks for the client's input."},
        {"inputSchema", json::object{{"type", "object"}, {"properties", json::object()}}}});
  }
  return tools;
}

bool InputRequiredFixtures::HasTool(std::string_view name) const {
  return std::find(kTools.begin(), kTools.end(), name) != kTools.end();
}

json::object InputRequiredFixtures::Prompt() const {
  return {{"name", kPromptName},
          {"description", "A prompt that asks the client for context first."},
          {"arguments", json::array()}};
}

bool InputRequiredFixtures::IsPrompt(std::string_view name) const { return name == kPromptName; }

namespace {

// Signs and checks the requestState of one caller's request: "payload.signature", both
// base64url; the payload names the caller, the request (tool and arguments), the round and
// an expiry.
class StateSeal {
 public:
  StateSeal(std::string_view key, const ExtensionCall& call, std::int64_t now)
      : key_(key),
        now_(now),
        binding_(core::Sha256Hex(call.request.credential + "\n" + call.tool + "\n" +
                                 core::ToJson(call.arguments))) {}
  std::string Seal(int round) const {
    const std::string payload = core::Base64UrlEncode(core::ToJson(
        json::object{{"r", round}, {"exp", now_ + kStateLifetimeMs}, {"b", binding_}}));
    return payload + "." + core::Base64UrlEncode(core::HmacSha256(key_, payload));
  }
  // The round a state was sealed for, or nullopt when it is not one of ours, for this request,
  // still valid.
  std::optional<int> Open(const json::value* state) const {
    if (!state || !state->is_string()) return std::nullopt;
    const std::string_view text = state->as_string();
    const std::size_t dot = text.find('.');
    if (dot == std::string_view::npos) return std::nullopt;
    const std::string_view payload = text.substr(0, dot);
    if (!core::ConstantTimeEquals(core::Base64UrlEncode(core::HmacSha256(key_, payload)),
                                  text.substr(dot + 1))) {
      return std::nullopt;
    }
    const auto decoded = core::Base64UrlDecode(payload);
    if (!decoded) return std::nullopt;
    const auto fields = core::ParseJsonObject(*decoded);
    if (!fields) return std::nullopt;
    const json::value* round = fields->if_contains("r");
    const json::value* expires = fields->if_contains("exp");
    const json::value* binding = fields->if_contains("b");
    if (!round || !round->is_int64() || !expires || !expires->is_int64() || !binding ||
        expires->as_int64() < now_ || *binding != json::value(binding_)) {
      return std::nullopt;
    }
    return static_cast<int>(round->as_int64());
  }

 private:
  std::string key_;
  std::int64_t now_;
  std::string binding_;  // digest of the caller, the tool and its arguments
};

Needs NeedsOf(std::string_view tool, int round, const json::object& capabilities) {
  if (tool == kElicitation) return {{{"user_name", Elicit("What is your name?", "name")}}};
  if (tool == kSampling) {
    return {{{"capital_question", Sample("What is the capital of France?", 100)}}};
  }
  if (tool == kListRoots) return {{{"client_roots", ListRoots()}}};
  if (tool == kRequestState || tool == kTamperedState) {
    return {{{"confirm", Elicit("Please confirm", "ok", "boolean")}}, true};
  }
  if (tool == kMultipleInputs) {
    return {{{"user_name", Elicit("What is your name?", "name")},
             {"greeting", Sample("Generate a greeting", 50)},
             {"client_roots", ListRoots()}},
            true};
  }
  if (tool == kMultiRound) {
    if (round == 1) return {{{"step1", Elicit("Step 1: What is your name?", "name")}}, true};
    return {{{"step2", Elicit("Step 2: What is your favorite color?", "color")}}, true};
  }
  if (tool == kStreamingElicitation) return {{{"user_input", Elicit("Please provide input", "value")}}};
  Needs needs;  // kCapabilities: only what the client can answer
  if (Declared(capabilities, "elicitation")) needs.requests["user_name"] = Elicit("What is your name?", "name");
  if (Declared(capabilities, "sampling")) needs.requests["greeting"] = Sample("Generate a greeting", 50);
  if (Declared(capabilities, "roots")) needs.requests["client_roots"] = ListRoots();
  return needs;
}

std::string Completion(std::string_view tool, const json::object& answers) {
  if (tool == kElicitation) return "Hello, " + TextOf(answers, "user_name", "name") + "!";
  if (tool == kSampling) return "Sampling response: " + TextOf(answers, "capital_question", "text");
  if (tool == kListRoots) return "Client roots: " + RootsOf(answers, "client_roots");
  if (tool == kRequestState || tool == kTamperedState) return "state-ok: confirmed";
  if (tool == kMultipleInputs) {
    return "Hello, " + TextOf(answers, "user_name", "name") + "! Roots: " +
           RootsOf(answers, "client_roots");
  }
  if (tool == kMultiRound) return "Favorite color: " + TextOf(answers, "step2", "color");
  return "Input received.";
}

}  // namespace

FixtureAnswer InputRequiredFixtures::CallTool(const ExtensionCall& call,
                                              std::int64_t now_ms) const {
  const ExtensionRequest& request = call.request;
  const json::value& id = call.request_id;
  auto finish = [&](json::object result) {
    MarkComplete(result, request.server_info);
    return FixtureAnswer{200, ResultMessage(id, std::move(result))};
  };
  if (request.era != Era::kModern) {
    return FixtureAnswer{200, ResultMessage(id, TextResult("This fixture speaks 2026-07-28 only.",
                                                           /*is_error=*/true))};
  }
  const std::string_view required =
      call.tool == kMissingCapability ? "sampling"
                                      : (call.tool == kStreamingElicitation ? "elicitation" : "");
  if (!required.empty() && !Declared(request.client_capabilities, required)) {
    return FixtureAnswer{
        400, ErrorMessage(id, rpc::kMissingCapability,
                      "This tool needs the client's " + std::string(required) + " capability.",
                      json::object{{"requiredCapabilities",
                                    json::object{{required, json::object()}}}})};
  }
  if (call.tool == kMissingCapability) return finish(TextResult("The client declared sampling."));

  const StateSeal seal(key_, call, now_ms);
  int round = 1;
  const json::value* state = call.params.if_contains("requestState");
  if (NeedsOf(call.tool, 1, request.client_capabilities).stateful && call.params.contains("inputResponses")) {
    const auto opened = seal.Open(state);
    if (!opened) {
      return FixtureAnswer{200, ErrorMessage(id, rpc::kInvalidParams,
                                         "requestState is missing, expired or was altered.")};
    }
    round = *opened;
  }
  const Needs needs = NeedsOf(call.tool, round, request.client_capabilities);
  const Answers answers = Collect(call.params, needs.requests);
  if (answers.invalid) return FixtureAnswer{200, ErrorMessage(id, rpc::kInvalidParams, *answers.invalid)};
  if (needs.requests.empty() && round == 1 && !call.params.contains("inputResponses")) {
    return finish(TextResult("No input needed: the client declared no capability to ask with."));
  }
  if (!answers.missing.empty()) {
    json::object result{{"resultType", "input_required"}, {"inputRequests", answers.missing}};
    if (needs.stateful) result["requestState"] = seal.Seal(round);
    result["_meta"] = json::object{{meta_key::kServerInfo, request.server_info}};
    return FixtureAnswer{200, ResultMessage(id, std::move(result))};
  }
  if (call.tool == kMultiRound && round == 1) {
    json::object result{{"resultType", "input_required"},
                        {"inputRequests", NeedsOf(call.tool, 2, {}).requests},
                        {"requestState", seal.Seal(2)},
                        {"_meta", json::object{{meta_key::kServerInfo, request.server_info}}}};
    return FixtureAnswer{200, ResultMessage(id, std::move(result))};
  }
  return finish(TextResult(Completion(call.tool, answers.given)));
}

FixtureAnswer InputRequiredFixtures::GetPrompt(const json::value& id, const json::object& params,
                                               const ExtensionRequest& request,
                                               std::int64_t /*now_ms*/) const {
  const json::object needs{
      {"user_context", Elicit("What context should the prompt use?", "context")}};
  const Answers answers = Collect(params, needs);
  if (answers.invalid) return FixtureAnswer{200, ErrorMessage(id, rpc::kInvalidParams, *answers.invalid)};
  if (!answers.missing.empty()) {
    json::object result{{"resultType", "input_required"},
                        {"inputRequests", answers.missing},
                        {"_meta", json::object{{meta_key::kServerInfo, request.server_info}}}};
    return FixtureAnswer{200, ResultMessage(id, std::move(result))};
  }
  json::object result{
      {"messages",
       json::array{json::object{
           {"role", "user"},
           {"content",
            json::object{{"type", "text"},
                         {"text", "Use this context: " +
                                      TextOf(answers.given, "user_context", "context")}}}}}}};
  MarkComplete(result, request.server_info);
  return FixtureAnswer{200, ResultMessage(id, std::move(result))};
}

}  // namespace sightline::mcp
