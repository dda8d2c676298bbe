// The OpenAI-compatible Chat Completions API (POST {base}/chat/completions) with function
// tools, streamed (SSE chunks, tool calls assembled by index, usage in the last chunk) or not.
// The base URL includes the version, as OpenAI's own clients expect: https://api.openai.com/v1,
// http://localhost:11434/v1 (Ollama), http://localhost:8080/v1 (llama.cpp's server).
#pragma once

#include "agent/provider.h"

namespace sightline::agent {

class OpenAiProvider final : public HttpProvider {
 public:
  static constexpr std::string_view kDefaultBaseUrl = "https://api.openai.com/v1";
  using HttpProvider::HttpProvider;
  std::string_view name() const override { return "openai"; }

  // Exposed for the wire-format tests.
  boost::json::object Render(const ChatRequest& request) const override;
  core::Result<ChatReply> ParseReply(const boost::json::value& body) const override;
  std::unique_ptr<StreamAccumulator> NewAccumulator(
      const TextDeltaCallback& on_text) const override;

 protected:
  std::string Url() const override;
  void AddHeaders(core::HttpHeaders& headers) const override;
};

}  // namespace sightline::agent
