// The Anthropic Messages API (POST {base}/v1/messages) with tool use, streamed (named SSE
// events; tool input assembled from input_json_delta pieces) or not. The system prompt goes in
// `system`; tool results go back as tool_result blocks of the next user message.
#pragma once

#include "agent/provider.h"

namespace sightline::agent {

class AnthropicProvider final : public HttpProvider {
 public:
  static constexpr std::string_view kDefaultBaseUrl = "https://api.anthropic.com";
  static constexpr std::string_view kApiVersion = "2023-06-01";
  using HttpProvider::HttpProvider;
  std::string_view name() const override { return "anthropic"; }

  boost::json::object Render(const ChatRequest& request) const override;
  core::Result<ChatReply> ParseReply(const boost::json::value& body) const override;
  std::unique_ptr<StreamAccumulator> NewAccumulator(
      const TextDeltaCallback& on_text) const override;

 protected:
  std::string Url() const override;
  void AddHeaders(core::HttpHeaders& headers) const override;
};

}  // namespace sightline::agent
