#include "cli/api_session.h"
#include "core/json_util.h"

#include <boost/json.hpp>

namespace sightline::cli {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::Result;

constexpr std::int64_t kRefreshAheadMillis = 60'000;

}  // namespace

int ExitCodeOf(int status) {
  if (status >= 200 && status < 300) return 0;
  switch (status) {
    case 400: case 405: case 413: case 415: case 422: return 2;
    case 401: case 403: return 3;
    case 404: return 4;
    case 429: return 5;
    default: return 1;
  }
}

std::string DescribeFailure(const ApiAnswer& answer) {
  boost::system::error_code ec;
  const json::value parsed = json::parse(answer.body, ec);
  const json::value* error = !ec && parsed.is_object() ? parsed.as_object().if_contains("error")
                                                       : nullptr;
  if (error == nullptr || !error->is_object()) {
    return "HTTP " + std::to_string(answer.status);
  }
  const json::object& e = error->as_object();
  std::string out;
  if (const json::value* code = e.if_contains("code"); code && code->is_string()) {
    out = std::string(code->as_string()) + ": ";
  }
  if (const json::value* message = e.if_contains("message"); message && message->is_string()) {
    out += message->as_string();
  }
  if (answer.status == 429) {
    const json::value* details = e.if_contains("details");
    const json::value* seconds =
        details && details->is_object() ? details->as_object().if_contains("retryAfterSeconds")
                                        : nullptr;
    if (const auto retry = answer.headers.Get("Retry-After")) {
      out += " (retry in " + std::string(*retry) + " s)";
    } else if (seconds && seconds->is_number()) {
      out += " (retry in " + core::ToJson(*seconds) + " s)";
    }
  }
  return out;
}

Result<ApiAnswer> Exchange(core::HttpClient& http, core::HttpMethod method,
                           const std::string& url, core::HttpHeaders headers, std::string body) {
  ApiAnswer answer;
  const core::OutboundRequest request{url, std::move(headers), std::move(body), method};
  auto done = http.Send(request, core::OutboundLimits{},
                        [&](const core::OutboundResponse&, std::string_view bytes) {
                          answer.body.append(bytes);
                        },
                        [] { return false; });
  if (!done) return done.error();
  answer.status = done->status;
  answer.headers = done->headers;
  return answer;
}

std::string ApiBase(std::string server) {
  while (!server.empty() && server.back() == '/') server.pop_back();
  return server + "/api";
}

ApiSession::ApiSession(core::HttpClient& http, std::string server, std::string api_key)
    : http_(http), server_(std::move(server)), api_key_(std::move(api_key)) {}

ApiSession::ApiSession(core::HttpClient& http, const core::Clock& clock, Profile profile,
                       CredentialStore& store)
    : http_(http), server_(profile.server), clock_(&clock), profile_(std::move(profile)),
      store_(&store) {}

Result<std::string> ApiSession::Token() {
  if (!profile_) return api_key_;
  if (clock_->NowMillis() + kRefreshAheadMillis < profile_->expires_at) {
    return profile_->access_token;
  }
  core::HttpHeaders headers;
  headers.Set("Content-Type", "application/x-www-form-urlencoded");
  auto refreshed = Exchange(http_, core::HttpMethod::kPost, ApiBase(server_) + "/oauth/token",
                            std::move(headers),
                            "grant_type=refresh_token&client_id=sightline-cli&refresh_token=" +
                                core::PercentEncode(profile_->refresh_token));
  if (!refreshed) return refreshed.error();
  if (refreshed->status != 200) {
    return Error(ErrorCode::kAuthExpiredCredential,
                 "The login of profile '" + profile_->name + "' ended (" +
                     DescribeFailure(*refreshed) + "): run `sightline login` again.");
  }
  boost::system::error_code ec;
  const json::value tokens = json::parse(refreshed->body, ec);
  if (ec || !tokens.is_object()) return Error::Internal("the token endpoint's answer is not JSON");
  const json::object& t = tokens.as_object();
  profile_->access_token = std::string(t.at("access_token").as_string());
  profile_->refresh_token = std::string(t.at("refresh_token").as_string());
  profile_->expires_at = clock_->NowMillis() + t.at("expires_in").to_number<std::int64_t>() * 1000;
  auto saved = store_->Save(*profile_);
  if (!saved) return saved.error();
  return profile_->access_token;
}

Result<ApiAnswer> ApiSession::Stream(core::HttpMethod method, const std::string& path,
                                     const std::function<void(std::string_view)>& on_data) {
  auto token = Token();
  if (!token) return token.error();
  core::HttpHeaders headers;
  headers.Set("Authorization", "Bearer " + *token);
  headers.Set("Accept", "text/event-stream");
  // A subscription lasts as long as the user wants it: only a silent server ends it.
  core::OutboundLimits limits;
  limits.idle_timeout = std::chrono::hours(1);
  limits.total_timeout = std::chrono::hours(24 * 365);
  ApiAnswer answer;
  std::string pending;
  const core::OutboundRequest request{ApiBase(server_) + path, std::move(headers), "", method};
  auto done = http_.Send(request, limits,
                         [&](const core::OutboundResponse& head, std::string_view bytes) {
                           if (head.status >= 300) return answer.body.append(bytes), void();
                           pending.append(bytes);
                           for (std::size_t end; (end = pending.find('\n')) != std::string::npos;) {
                             const std::string line = pending.substr(0, end);
                             pending.erase(0, end + 1);
                             if (line.starts_with("data: ")) on_data(std::string_view(line).substr(6));
                           }
                         },
                         [] { return false; });
  if (!done) return done.error();
  answer.status = done->status;
  answer.headers = done->headers;
  return answer;
}

Result<ApiAnswer> ApiSession::Call(core::HttpMethod method, const std::string& path,
                                   const std::string& body) {
  auto token = Token();
  if (!token) return token.error();
  core::HttpHeaders headers;
  headers.Set("Authorization", "Bearer " + *token);
  headers.Set("Accept", "application/json");
  if (!body.empty()) headers.Set("Content-Type", "application/json");
  return Exchange(http_, method, ApiBase(server_) + path, std::move(headers), body);
}

}  // namespace sightline::cli
