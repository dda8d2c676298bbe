// One request of ServiceAuditBot: a GET or HEAD of one URL, signed with Web Bot Auth, carrying the
// bot's User-Agent and no cookies or credentials, bounded in time and size, never following
// redirects (the crawler records each hop). Thread-safe: the fetcher holds no per-request state.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/http_client.h"
#include "core/http_types.h"

namespace sightline::site_audit {

class RequestSigner;

struct FetchLimits {
  std::chrono::milliseconds timeout{15000};  // the whole exchange
  std::size_t max_bytes = 5 * 1024 * 1024;   // bodies beyond are cut (truncated = true)
  bool public_only = true;                   // SSRF: only global addresses (tests lift it)
};

struct FetchRequest {
  std::string url;  // normalized, absolute
  core::HttpMethod method = core::HttpMethod::kGet;
  std::string if_none_match, if_modified_since;  // conditional re-crawl
  std::size_t max_bytes = 0;                     // 0: the fetcher's limit
  // Called with the answer's head; false stops reading the body (a page that is not HTML).
  std::function<bool(const core::OutboundResponse& head)> want_body;
};

struct FetchResult {
  int status = 0;  // 0 when no answer came (see error)
  core::HttpHeaders headers;
  std::string body;
  bool truncated = false;    // more than max_bytes, or the body was not wanted
  std::int64_t ttfb_ms = 0;  // until the first body bytes (or the whole exchange)
  std::int64_t total_ms = 0;
  std::string error;  // transport failure: DNS, connect, TLS, timeout, refused address
};

class PageFetcher {
 public:
  // `signer` may be null only in tests that check unsigned behaviour.
  PageFetcher(core::HttpClient& http, const RequestSigner* signer, std::string user_agent,
              FetchLimits limits);

  FetchResult Fetch(const FetchRequest& request, const std::function<bool()>& cancelled) const;
  const std::string& user_agent() const { return user_agent_; }

 private:
  core::HttpClient& http_;
  const RequestSigner* signer_;
  std::string user_agent_;
  FetchLimits limits_;
};

// "Mozilla/5.0 (compatible; ServiceAuditBot/1.0; +<public URL>/bot)".
std::string ServiceAuditBotUserAgent(std::string_view public_url);
inline constexpr std::string_view kAuditBotToken = "ServiceAuditBot";

}  // namespace sightline::site_audit
