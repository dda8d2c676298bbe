#include "agent/anthropic_provider.h"

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

FinishReason FinishOf(std::string_view reason) {
  if (reason == "end_turn" || reason == "stop_sequence") return FinishReason::kStop;
  if (reason == "tool_use") return FinishReason::kToolCalls;
  if (reason == "max_tokens") return FinishReason::kLength;
  return FinishReason::kOther;
}

void ReadUsage(const json::object* usage, Usage& out) {
  if (!usage) return;
  if (auto in = IntegerField(*usage, "input_tokens")) out.input_tokens = in;
  if (auto produced = IntegerField(*usage, "output_tokens")) out.output_tokens = produced;
}

// The model's arguments as a JSON object (Anthropic takes `input` as an object): what the
// model wrote when it parses as one, otherwise empty.
json::object InputOf(const std::string& arguments) {
  boost::system::error_code ec;
  json::value parsed = json::parse(arguments, ec);
  if (ec || !parsed.is_object()) return {};
  return std::move(parsed.as_object());
}

// Consecutive user-side messages (tool results, then the user's text) become one user message:
// the API alternates roles, tool_result blocks first.
json::array RenderMessages(const std::vector<ChatMessage>& messages) {
  json::array out;
  json::array user_blocks;
  auto flush_user = [&] {
    if (user_blocks.empty()) return;
    out.push_back(json::object{{"role", "user"}, {"content", std::move(user_blocks)}});
    user_blocks = json::array();
  };
  for (const ChatMessage& message : messages) {
    switch (message.role) {
      case ChatMessage::Role::kUser:
        user_blocks.push_back(json::object{{"type", "text"}, {"text", message.text}});
        break;
      case ChatMessage::Role::kTool: {
        json::object block{{"type", "tool_result"},
                           {"tool_use_id", message.tool_call_id},
                           {"content", message.text}};
        if (message.is_error) block["is_error"] = true;
        user_blocks.push_back(std::move(block));
        break;
      }
      case ChatMessage::Role::kAssistant: {
        flush_user();
        json::array blocks;
        if (!message.text.empty()) {
          blocks.push_back(json::object{{"type", "text"}, {"text", message.text}});
        }
        for (const ToolCall& call : message.tool_calls) {
          blocks.push_back(json::object{{"type", "tool_use"},
                                        {"id", call.id},
                                        {"name", call.name},
                                        {"input", InputOf(call.arguments)}});
        }
        if (!blocks.empty()) {
          out.push_back(json::object{{"role", "assistant"}, {"content", std::move(blocks)}});
        }
        break;
      }
    }
  }
  flush_user();
  return out;
}

// Named events: content blocks open (text, or tool_use with its id and name), grow by deltas
// (text_delta, input_json_delta pieces of the input's JSON) and close; message_delta carries
// the stop reason and the output token count.
class AnthropicAccumulator final : public StreamAccumulator {
 public:
  explicit AnthropicAccumulator(TextDeltaCallback on_text) : on_text_(std::move(on_text)) {}

  Result<void> OnEvent(const SseEvent& event) override {
    if (event.name == "ping") return {};
    boost::system::error_code ec;
    const json::value parsed = json::parse(event.data, ec);
    if (ec || !parsed.is_object()) return ProviderError("The provider streamed malformed JSON.");
    const json::object& data = parsed.as_object();
    const std::string type = event.name != "message" ? event.name : StringField(data, "type");
    if (type == "error") {
      const json::object* error = ObjectField(data, "error");
      return ProviderError("The language model provider failed mid-answer: " +
                           (error ? StringField(*error, "message") : std::string()));
    }
    if (type == "message_start") {
      if (const json::object* message = ObjectField(data, "message")) {
        ReadUsage(ObjectField(*message, "usage"), reply_.usage);
      }
    } else if (type == "content_block_start") {
      const json::object* block = ObjectField(data, "content_block");
      if (block && StringField(*block, "type") == "tool_use") {
        calls_[IntegerField(data, "index").value_or(0)] = {StringField(*block, "id"),
                                                    StringField(*block, "name"), ""};
      }
    } else if (type == "content_block_delta") {
      const json::object* delta = ObjectField(data, "delta");
      if (!delta) return {};
      const std::string kind = StringField(*delta, "type");
      if (kind == "text_delta") {
        const std::string text = StringField(*delta, "text");
        reply_.text += text;
        if (on_text_ && !text.empty()) on_text_(text);
      } else if (kind == "input_json_delta") {
        auto call = calls_.find(IntegerField(data, "index").value_or(0));
        if (call != calls_.end()) call->second.arguments += StringField(*delta, "partial_json");
      }
    } else if (type == "message_delta") {
      if (const json::object* delta = ObjectField(data, "delta")) {
        if (auto reason = StringField(*delta, "stop_reason"); !reason.empty()) {
          reply_.finish = FinishOf(reason);
        }
      }
      ReadUsage(ObjectField(data, "usage"), reply_.usage);
    }
    return {};
  }

  Result<ChatReply> Finish() override {
    for (auto& [index, call] : calls_) {
      if (call.arguments.empty()) call.arguments = "{}";  // a tool without input
      reply_.tool_calls.push_back(std::move(call));
    }
    return std::move(reply_);
  }

 private:
  TextDeltaCallback on_text_;
  ChatReply reply_;
  std::map<std::int64_t, ToolCall> calls_;
};

}  // namespace

std::string AnthropicProvider::Url() const {
  std::string base = settings_.base_url.empty() ? std::string(kDefaultBaseUrl) : settings_.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  // Accept a base given with the version, as OpenAI-style configuration often is.
  if (base.ends_with("/v1")) base.resize(base.size() - 3);
  return base + "/v1/messages";
}

void AnthropicProvider::AddHeaders(core::HttpHeaders& headers) const {
  if (!settings_.api_key.empty()) headers.Set("x-api-key", settings_.api_key);
  headers.Set("anthropic-version", std::string(kApiVersion));
}

json::object AnthropicProvider::Render(const ChatRequest& request) const {
  json::object body{{"model", settings_.model},
                    {"max_tokens", request.max_tokens},
                    {"messages", RenderMessages(request.messages)},
                    {"stream", request.stream}};
  if (!request.system.empty()) body["system"] = request.system;
  if (!request.tools.empty()) {
    json::array tools;
    for (const ToolDefinition& tool : request.tools) {
      tools.push_back(json::object{{"name", tool.name},
                                   {"description", tool.description},
                                   {"input_schema", tool.input_schema}});
    }
    body["tools"] = std::move(tools);
    body["tool_choice"] = json::object{{"type", "auto"}};
  }
  return body;
}

namespace {

// A text block's web search citations (`web_search_result_location`: url, title).
void ReadCitations(const json::object& block, std::vector<SourceCitation>& citations) {
  const json::value* cited = block.if_contains("citations");
  if (!cited || !cited->is_array()) return;
  for (const json::value& citation : cited->as_array()) {
    if (!citation.is_object()) continue;
    const std::string url = StringField(citation.as_object(), "url");
    if (!url.empty()) citations.push_back({url, StringField(citation.as_object(), "title")});
  }
}

}  // namespace

Result<ChatReply> AnthropicProvider::ParseReply(const json::value& body) const {
  const json::object* object = body.if_object();
  const json::value* content = object ? object->if_contains("content") : nullptr;
  if (!content || !content->is_array()) {
    return ProviderError("The language model provider's answer has no content.");
  }
  ChatReply reply;
  reply.finish = FinishOf(StringField(*object, "stop_reason"));
  ReadUsage(ObjectField(*object, "usage"), reply.usage);
  for (const json::value& block : content->as_array()) {
    if (!block.is_object()) continue;
    const json::object& b = block.as_object();
    const std::string type = StringField(b, "type");
    if (type == "text") {
      reply.text += StringField(b, "text");
      ReadCitations(b, reply.citations);
    } else if (type == "tool_use") {
      const json::value* input = b.if_contains("input");
      reply.tool_calls.push_back({StringField(b, "id"), StringField(b, "name"),
                                  input ? core::ToJson(*input) : std::string("{}")});
    }
  }
  return reply;
}

std::unique_ptr<StreamAccumulator> AnthropicProvider::NewAccumulator(
    const TextDeltaCallback& on_text) const {
  return std::make_unique<AnthropicAccumulator>(on_text);
}

}  // namespace sightline::agent
