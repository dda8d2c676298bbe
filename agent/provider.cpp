#include "agent/provider.h"

#include <boost/json/parse.hpp>
#include <thread>

#include "agent/anthropic_provider.h"
#include "agent/openai_provider.h"
#include "core/http_types.h"
#include "core/json_util.h"

namespace sightline::agent {
namespace {

namespace json = boost::json;
using core::Result;

bool Retryable(int status) {
  return status == 429 || status == 500 || status == 502 || status == 503 || status == 504 ||
         status == 529;  // Anthropic's "overloaded"
}

// Waits `delay` unless cancelled first; whether it waited the whole time.
bool Sleep(std::chrono::milliseconds delay, const std::function<bool()>& cancelled) {
  const auto until = std::chrono::steady_clock::now() + delay;
  while (std::chrono::steady_clock::now() < until) {
    if (cancelled && cancelled()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

// A Retry-After given in seconds (the form the model APIs use).
std::optional<double> RetryAfterSeconds(const core::HttpHeaders& headers) {
  auto after = headers.Get("Retry-After");
  if (!after) return std::nullopt;
  char* end = nullptr;
  const std::string text(*after);
  const double seconds = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || seconds < 0) return std::nullopt;
  return seconds;
}

std::chrono::milliseconds RetryDelay(const core::HttpHeaders& headers, int attempt) {
  if (auto seconds = RetryAfterSeconds(headers)) {
    return std::chrono::milliseconds(static_cast<long>(std::min(*seconds, 20.0) * 1000));
  }
  return std::chrono::milliseconds(500 << attempt);
}

// "The provider answered 401: Incorrect API key provided" from either vendor's error body.
std::string ErrorMessage(int status, const std::string& body) {
  std::string message = "The language model provider answered " + std::to_string(status);
  boost::system::error_code ec;
  const json::value parsed = json::parse(body, ec);
  const json::value* error =
      !ec && parsed.is_object() ? parsed.as_object().if_contains("error") : nullptr;
  if (error && error->is_object()) {
    if (const json::value* text = error->as_object().if_contains("message");
        text && text->is_string()) {
      return message + ": " + std::string(text->as_string()).substr(0, 500);
    }
  } else if (error && error->is_string()) {
    return message + ": " + std::string(error->as_string()).substr(0, 500);
  }
  return message + ".";
}

}  // namespace

core::Error ProviderError(std::string message, int status) {
  core::Error error(core::ErrorCode::kAgentProviderFailed, std::move(message));
  if (status != 0) error.mutable_details()["providerStatus"] = status;
  return error;
}

Result<ChatReply> HttpProvider::Complete(const ChatRequest& request,
                                         const TextDeltaCallback& on_text,
                                         const std::function<bool()>& cancelled) {
  json::object rendered = Render(request);
  for (const auto& field : request.extra) rendered[field.key()] = field.value();
  core::OutboundRequest outbound{Url(), {}, core::ToJson(rendered)};
  outbound.headers.Set("Content-Type", "application/json");
  outbound.headers.Set("Accept", request.stream ? "text/event-stream" : "application/json");
  AddHeaders(outbound.headers);
  for (int attempt = 0;; ++attempt) {
    std::string body;  // the whole answer, unless it streams
    std::unique_ptr<StreamAccumulator> accumulator;
    std::optional<SseDecoder> decoder;
    Result<void> stream_failure;
    bool delivered = false;
    auto on_body = [&](const core::OutboundResponse& head, std::string_view bytes) {
      delivered = true;
      const bool streaming =
          head.status < 300 && request.stream &&
          core::MediaTypeOf(head.headers.Get("Content-Type").value_or("")) == "text/event-stream";
      if (!streaming) return body.append(bytes), void();
      if (!decoder) {
        accumulator = NewAccumulator(on_text);
        decoder.emplace([&](const SseEvent& event) {
          if (stream_failure) stream_failure = accumulator->OnEvent(event);
        });
      }
      decoder->Feed(bytes);
    };
    auto answered = client_.Send(outbound, settings_.limits, on_body, cancelled);
    if (cancelled && cancelled()) return ProviderError("Cancelled.");
    const bool can_retry = attempt < settings_.max_retries;
    if (!answered) {
      if (can_retry && !delivered && Sleep(RetryDelay({}, attempt), cancelled)) continue;
      return ProviderError("The language model provider could not be reached: " +
                           answered.error().message());
    }
    const int status = answered->status;
    if (status >= 300) {
      if (can_retry && Retryable(status) &&
          Sleep(RetryDelay(answered->headers, attempt), cancelled)) {
        continue;
      }
      core::Error error = ProviderError(ErrorMessage(status, body), status);
      if (auto after = RetryAfterSeconds(answered->headers)) {
        error.mutable_details()["retryAfterSeconds"] = *after;
      }
      return error;
    }
    if (accumulator) {
      if (!stream_failure) return stream_failure.error();
      return accumulator->Finish();
    }
    boost::system::error_code ec;
    const json::value parsed = json::parse(body, ec);
    if (ec) return ProviderError("The language model provider's answer is not JSON.", status);
    auto reply = ParseReply(parsed);
    if (reply) reply->raw = std::move(body);
    return reply;
  }
}

std::unique_ptr<LlmProvider> MakeProvider(const ProviderSettings& settings,
                                          core::HttpClient& client) {
  if (settings.provider == "openai") return std::make_unique<OpenAiProvider>(settings, client);
  if (settings.provider == "anthropic") {
    return std::make_unique<AnthropicProvider>(settings, client);
  }
  return nullptr;
}

}  // namespace sightline::agent
