// The provider-neutral conversation model the assistant loop speaks; each provider client
// renders it in its own wire format (OpenAI Chat Completions, Anthropic Messages) and reads
// the reply back into it. Plain values.
#pragma once

#include <boost/json/object.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sightline::agent {

struct ToolCall {
  std::string id;         // the provider's ("call_…", "toolu_…")
  std::string name;       // the tool's (an operation name)
  std::string arguments;  // JSON text, as the model wrote it (it may be invalid)
};

struct ChatMessage {
  enum class Role { kUser, kAssistant, kTool };
  Role role = Role::kUser;
  std::string text;                  // user and assistant text; a tool's result
  std::vector<ToolCall> tool_calls;  // assistant only
  std::string tool_call_id;          // tool only: the call it answers
  std::string tool_name;             // tool only
  bool is_error = false;             // tool only: the call failed
};

struct ToolDefinition {
  std::string name;
  std::string description;
  boost::json::object input_schema;  // JSON Schema of the arguments
};

struct ChatRequest {
  std::string system;
  std::vector<ChatMessage> messages;
  std::vector<ToolDefinition> tools;
  int max_tokens = 2048;
  bool stream = false;
  // Fields merged into the request body last, over the rendered ones (an AI-visibility
  // engine's parameters: temperature, web search options, a server-side tool…).
  boost::json::object extra;
};

struct Usage {
  std::optional<std::int64_t> input_tokens;
  std::optional<std::int64_t> output_tokens;
};

enum class FinishReason { kStop, kToolCalls, kLength, kOther };

// A source the provider says the reply used (web-search-enabled APIs).
struct SourceCitation {
  std::string url;
  std::string title;
};

// One reply of the model: text, tool calls, or both.
struct ChatReply {
  std::string text;
  std::vector<ToolCall> tool_calls;
  Usage usage;
  FinishReason finish = FinishReason::kStop;
  // OpenAI's url_citation annotations, Perplexity's citations and search_results, Anthropic's
  // web search citations; in the order given.
  std::vector<SourceCitation> citations;
  std::string raw;  // the provider's whole answer as received (not streamed replies)
};

// While a streamed reply arrives: each piece of text as it comes.
using TextDeltaCallback = std::function<void(std::string_view text)>;

}  // namespace sightline::agent
