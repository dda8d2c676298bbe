#include "agent/openai_provider.h"

#include <boost/json/parse.hpp>
#include <map>

#include "core/json_util.h"

namespace sightline::agent {
namespace {

namespace json = boost::json;
using core::IntegerField;
using core::ObjectField;
using core::Result;
using core::StringField;

// The arguments as JSON text; some compatible servers send an object rather than a string.
std::string ArgumentsOf(const json::object& function) {
  const json::value* value = function.if_contains("arguments");
  if (!value) return {};
  if (value->is_string()) return std::string(value->as_string());
  return core::ToJson(*value);
}

FinishReason FinishOf(std::string_view reason) {
  if (reason == "stop") return FinishReason::kStop;
  if (reason == "tool_calls" || reason == "function_call") return FinishReason::kToolCalls;
  if (reason == "length") return FinishReason::kLength;
  return FinishReason::kOther;
}

void ReadUsage(const json::object& chunk, Usage& usage) {
  const json::value* found = chunk.if_contains("usage");
  if (!found || !found->is_object()) return;
  if (auto in = IntegerField(found->as_object(), "prompt_tokens")) usage.input_tokens = in;
  if (auto out = IntegerField(found->as_object(), "completion_tokens")) usage.output_tokens = out;
}

json::object RenderMessage(const ChatMessage& message) {
  switch (message.role) {
    case ChatMessage::Role::kUser:
      return {{"role", "user"}, {"content", message.text}};
    case ChatMessage::Role::kTool:
      return {{"role", "tool"}, {"tool_call_id", message.tool_call_id}, {"content", message.text}};
    case ChatMessage::Role::kAssistant: {
      json::object out{{"role", "assistant"}};
      out["content"] = message.text.empty() ? json::value(nullptr) : json::value(message.text);
      if (!message.tool_calls.empty()) {
        json::array calls;
        for (const ToolCall& call : message.tool_calls) {
          calls.push_back(json::object{
              {"id", call.id},
              {"type", "function"},
              {"function", json::object{{"name", call.name}, {"arguments", call.arguments}}}});
        }
        out["tool_calls"] = std::move(calls);
      }
      return out;
    }
  }
  return {};
}

// Chunks carry text pieces and tool-call fragments keyed by `index`: the id and name come once,
// the arguments in pieces, concatenated until the stream ends.
class OpenAiAccumulator final : public StreamAccumulator {
 public:
  explicit OpenAiAccumulator(TextDeltaCallback on_text) : on_text_(std::move(on_text)) {}

  Result<void> OnEvent(const SseEvent& event) override {
    if (event.data == "[DONE]") return {};
    boost::system::error_code ec;
    const json::value chunk = json::parse(event.data, ec);
    if (ec || !chunk.is_object()) return ProviderError("The provider streamed malformed JSON.");
    const json::object& object = chunk.as_object();
    if (const json::value* error = object.if_contains("error")) {
      const std::string message =
          error->is_object() ? StringField(error->as_object(), "message") : std::string();
      return ProviderError("The language model provider failed mid-answer: " + message);
    }
    ReadUsage(object, reply_.usage);
    const json::value* choices = object.if_contains("choices");
    if (!choices || !choices->is_array() || choices->as_array().empty()) return {};
    const json::value& first = choices->as_array().front();
    if (!first.is_object()) return {};
    if (const json::value* reason = first.as_object().if_contains("finish_reason");
        reason && reason->is_string()) {
      reply_.finish = FinishOf(reason->as_string());
    }
    const json::value* delta = first.as_object().if_contains("delta");
    if (!delta || !delta->is_object()) return {};
    const std::string text = StringField(delta->as_object(), "content");
    if (!text.empty()) {
      reply_.text += text;
      if (on_text_) on_text_(text);
    }
    const json::value* calls = delta->as_object().if_contains("tool_calls");
    if (calls && calls->is_array()) {
      for (const json::value& fragment : calls->as_array()) {
        if (fragment.is_object()) AddFragment(fragment.as_object());
      }
    }
    return {};
  }

  Result<ChatReply> Finish() override {
    for (auto& [index, call] : calls_) reply_.tool_calls.push_back(std::move(call));
    if (!reply_.tool_calls.empty() && reply_.finish == FinishReason::kStop) {
      reply_.finish = FinishReason::kToolCalls;
    }
    return std::move(reply_);
  }

 private:
  void AddFragment(const json::object& fragment) {
    const std::int64_t index = IntegerField(fragment, "index").value_or(0);
    ToolCall& call = calls_[index];
    if (auto id = StringField(fragment, "id"); !id.empty()) call.id = id;
    const json::value* function = fragment.if_contains("function");
    if (!function || !function->is_object()) return;
    if (auto name = StringField(function->as_object(), "name"); !name.empty()) call.name = name;
    call.arguments += ArgumentsOf(function->as_object());
  }

  TextDeltaCallback on_text_;
  ChatReply reply_;
  std::map<std::int64_t, ToolCall> calls_;
};

}  // namespace

std::string OpenAiProvider::Url() const {
  std::string base = settings_.base_url.empty() ? std::string(kDefaultBaseUrl) : settings_.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/chat/completions";
}

void OpenAiProvider::AddHeaders(core::HttpHeaders& headers) const {
  if (!settings_.api_key.empty()) headers.Set("Authorization", "Bearer " + settings_.api_key);
}

json::object OpenAiProvider::Render(const ChatRequest& request) const {
  json::array messages;
  if (!request.system.empty()) {
    messages.push_back(json::object{{"role", "system"}, {"content", request.system}});
  }
  for (const ChatMessage& message : request.messages) messages.push_back(RenderMessage(message));
  json::object body{{"model", settings_.model},
                    {"messages", std::move(messages)},
                    {"max_tokens", request.max_tokens},
                    {"stream", request.stream}};
  if (request.stream) body["stream_options"] = json::object{{"include_usage", true}};
  if (!request.tools.empty()) {
    json::array tools;
    for (const ToolDefinition& tool : request.tools) {
      tools.push_back(json::object{{"type", "function"},
                                   {"function", json::object{{"name", tool.name},
                                                             {"description", tool.description},
                                                             {"parameters", tool.input_schema}}}});
    }
    body["tools"] = std::move(tools);
    body["tool_choice"] = "auto";
  }
  return body;
}

namespace {

// The sources of a web-search-enabled answer: OpenAI's url_citation annotations on the
// message, and Perplexity's top-level `citations` (URLs) and `search_results` ({title, url}).
void ReadCitations(const json::object& body, const json::object& message,
                   std::vector<SourceCitation>& citations) {
  if (const json::value* notes = message.if_contains("annotations"); notes && notes->is_array()) {
    for (const json::value& note : notes->as_array()) {
      if (!note.is_object() || StringField(note.as_object(), "type") != "url_citation") continue;
      const json::value* cited = note.as_object().if_contains("url_citation");
      const json::object& fields = cited && cited->is_object() ? cited->as_object() : note.as_object();
      citations.push_back({StringField(fields, "url"), StringField(fields, "title")});
    }
  }
  if (const json::value* urls = body.if_contains("citations"); urls && urls->is_array()) {
    for (const json::value& url : urls->as_array()) {
      if (url.is_string()) citations.push_back({std::string(url.as_string()), ""});
    }
  }
  if (const json::value* results = body.if_contains("search_results");
      results && results->is_array()) {
    for (const json::value& result : results->as_array()) {
      if (!result.is_object()) continue;
      citations.push_back(
          {StringField(result.as_object(), "url"), StringField(result.as_object(), "title")});
    }
  }
}

}  // namespace

Result<ChatReply> OpenAiProvider::ParseReply(const json::value& body) const {
  const json::object* object = body.if_object();
  const json::value* choices = object ? object->if_contains("choices") : nullptr;
  if (!choices || !choices->is_array() || choices->as_array().empty() ||
      !choices->as_array().front().is_object()) {
    return ProviderError("The language model provider's answer has no choices.");
  }
  const json::object& choice = choices->as_array().front().as_object();
  ChatReply reply;
  reply.finish = FinishOf(StringField(choice, "finish_reason"));
  ReadUsage(*object, reply.usage);
  const json::value* message = choice.if_contains("message");
  if (!message || !message->is_object()) return reply;
  reply.text = StringField(message->as_object(), "content");
  const json::value* calls = message->as_object().if_contains("tool_calls");
  if (calls && calls->is_array()) {
    for (const json::value& call : calls->as_array()) {
      if (!call.is_object()) continue;
      const json::value* function = call.as_object().if_contains("function");
      if (!function || !function->is_object()) continue;
      reply.tool_calls.push_back({StringField(call.as_object(), "id"),
                                  StringField(function->as_object(), "name"),
                                  ArgumentsOf(function->as_object())});
    }
  }
  if (!reply.tool_calls.empty()) reply.finish = FinishReason::kToolCalls;
  ReadCitations(*object, message->as_object(), reply.citations);
  return reply;
}

std::unique_ptr<StreamAccumulator> OpenAiProvider::NewAccumulator(
    const TextDeltaCallback& on_text) const {
  return std::make_unique<OpenAiAccumulator>(on_text);
}

}  // namespace sightline::agent
