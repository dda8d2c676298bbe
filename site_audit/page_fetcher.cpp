#include "site_audit/page_fetcher.h"

#include <ctime>

#include "site_audit/crawl_url.h"
#include "site_audit/request_signer.h"

namespace sightline::site_audit {
namespace {

std::int64_t MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start)
      .count();
}

core::OutboundRequest OutboundOf(const FetchRequest& request, const std::string& user_agent,
                                 const RequestSigner* signer) {
  core::OutboundRequest out;
  out.url = request.url;
  out.method = request.method;
  out.headers.Set("User-Agent", user_agent);
  out.headers.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
  // Bodies are parsed as sent: no compressed transfer coding to undo.
  out.headers.Set("Accept-Encoding", "identity");
  if (!request.if_none_match.empty()) out.headers.Set("If-None-Match", request.if_none_match);
  if (!request.if_modified_since.empty()) {
    out.headers.Set("If-Modified-Since", request.if_modified_since);
  }
  if (signer != nullptr) {
    const SignatureHeaders signature =
        signer->Sign(core::MethodName(request.method), UrlAuthority(request.url),
                     UrlTarget(request.url), std::time(nullptr));
    out.headers.Set("Signature-Agent", signature.signature_agent);
    out.headers.Set("Signature-Input", signature.signature_input);
    out.headers.Set("Signature", signature.signature);
  }
  return out;
}

}  // namespace

PageFetcher::PageFetcher(core::HttpClient& http, const RequestSigner* signer,
                         std::string user_agent, FetchLimits limits)
    : http_(http), signer_(signer), user_agent_(std::move(user_agent)), limits_(limits) {}

FetchResult PageFetcher::Fetch(const FetchRequest& request,
                               const std::function<bool()>& cancelled) const {
  const auto started = std::chrono::steady_clock::now();
  FetchResult result;
  bool head_seen = false, stop_reading = false;
  core::OutboundLimits limits;
  limits.connect_timeout = std::min(limits_.timeout, std::chrono::milliseconds(10000));
  limits.idle_timeout = limits_.timeout;
  limits.total_timeout = limits_.timeout;
  // The transport's own cap is a backstop: the callback cuts the body at `max_bytes` itself.
  const std::size_t max_bytes = request.max_bytes ? request.max_bytes : limits_.max_bytes;
  limits.max_body_bytes = max_bytes + (1 << 20);
  limits.public_only = limits_.public_only;
  auto on_body = [&](const core::OutboundResponse& head, std::string_view bytes) {
    if (!head_seen) {
      head_seen = true;
      result.ttfb_ms = MillisSince(started);
      result.status = head.status;
      result.headers = head.headers;
      if (request.want_body && !request.want_body(head)) stop_reading = result.truncated = true;
    }
    if (stop_reading) return;
    const std::size_t room = max_bytes - std::min(max_bytes, result.body.size());
    result.body.append(bytes.substr(0, room));
    if (bytes.size() > room) stop_reading = result.truncated = true;
  };
  auto stop = [&] { return stop_reading || (cancelled && cancelled()); };
  auto answer = http_.Send(OutboundOf(request, user_agent_, signer_), limits, on_body, stop);
  result.total_ms = MillisSince(started);
  if (answer) {
    result.status = answer->status;
    result.headers = answer->headers;
    if (!head_seen) result.ttfb_ms = result.total_ms;
  } else if (!(stop_reading && head_seen)) {  // else we hung up on purpose, with what we wanted
    result.status = 0;
    result.error = answer.error().message();
  }
  return result;
}

std::string ServiceAuditBotUserAgent(std::string_view public_url) {
  return "Mozilla/5.0 (compatible; ServiceAuditBot/1.0; +" + std::string(public_url) + "/bot)";
}

}  // namespace sightline::site_audit
