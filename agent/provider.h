// Language model providers behind one interface: the OpenAI-compatible Chat Completions API
// (OpenAI, vLLM, llama.cpp's server, Ollama, LiteLLM…) and the Anthropic Messages API, both
// with tool calling, streamed or not. A provider is configured once at start-up and is
// thread-safe: each call is independent.
#pragma once

#include <boost/json/object.hpp>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "agent/chat.h"
#include "agent/sse_decoder.h"
#include "core/http_client.h"
#include "core/result.h"

namespace sightline::agent {

struct ProviderSettings {
  std::string provider;  // "openai" or "anthropic"
  std::string base_url;  // empty: the vendor's own API
  std::string model;
  std::string api_key;  // empty: none sent (local servers)
  core::OutboundLimits limits;
  int max_retries = 2;  // after a 429, 5xx or 529 answer, or a failed connection
};

class LlmProvider {
 public:
  virtual ~LlmProvider() = default;
  virtual std::string_view name() const = 0;  // "openai", "anthropic"
  virtual const std::string& model() const = 0;
  // One turn of the model. With `request.stream`, text arrives through `on_text` as it is
  // generated. Errors are AGENT_003 with `details.providerStatus` when the provider answered.
  virtual core::Result<ChatReply> Complete(const ChatRequest& request,
                                           const TextDeltaCallback& on_text,
                                           const std::function<bool()>& cancelled) = 0;
};

// What reads a streamed reply, one SSE event at a time (one per call).
class StreamAccumulator {
 public:
  virtual ~StreamAccumulator() = default;
  virtual core::Result<void> OnEvent(const SseEvent& event) = 0;
  virtual core::Result<ChatReply> Finish() = 0;
};

// The HTTP plumbing both wire formats share: retries with back-off (Retry-After honoured), a
// streamed or whole answer, the provider's error message.
class HttpProvider : public LlmProvider {
 public:
  HttpProvider(ProviderSettings settings, core::HttpClient& client)
      : settings_(std::move(settings)), client_(client) {}
  const std::string& model() const override { return settings_.model; }
  core::Result<ChatReply> Complete(const ChatRequest& request, const TextDeltaCallback& on_text,
                                   const std::function<bool()>& cancelled) override;

 protected:
  virtual std::string Url() const = 0;
  virtual void AddHeaders(core::HttpHeaders& headers) const = 0;
  virtual boost::json::object Render(const ChatRequest& request) const = 0;
  virtual core::Result<ChatReply> ParseReply(const boost::json::value& body) const = 0;
  virtual std::unique_ptr<StreamAccumulator> NewAccumulator(
      const TextDeltaCallback& on_text) const = 0;

  ProviderSettings settings_;

 private:
  core::HttpClient& client_;
};

// Null for an unknown provider name.
std::unique_ptr<LlmProvider> MakeProvider(const ProviderSettings& settings,
                                          core::HttpClient& client);

// AGENT_003 with the provider's status and message (never the request: it holds the key).
core::Error ProviderError(std::string message, int status = 0);

}  // namespace sightline::agent
