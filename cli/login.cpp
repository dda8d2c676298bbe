#include "cli/login.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <ostream>

#include <boost/json.hpp>

#include "cli/api_session.h"
#include "core/version.h"
#include "core/json_util.h"

namespace sightline::cli {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::Result;

std::string HostName() {
  char name[256] = {};
  return ::gethostname(name, sizeof(name) - 1) == 0 ? std::string(name) : std::string();
}

std::string OperatingSystem() {
  struct utsname system {};
  if (::uname(&system) != 0) return "";
  return std::string(system.sysname) + "/" + system.machine;
}

Result<json::object> ObjectOf(const ApiAnswer& answer) {
  boost::system::error_code ec;
  json::value parsed = json::parse(answer.body, ec);
  if (ec || !parsed.is_object()) {
    return Error(ErrorCode::kUnavailable, "The server's answer is not JSON (HTTP " +
                                              std::to_string(answer.status) + ").");
  }
  return std::move(parsed.as_object());
}

std::string ErrorCodeOf(const json::object& answer) {
  const json::value* error = answer.if_contains("error");
  if (!error || !error->is_object()) return "";
  const json::value* code = error->as_object().if_contains("code");
  return code && code->is_string() ? std::string(code->as_string()) : "";
}

Result<json::object> Post(core::HttpClient& http, const std::string& url, json::object body) {
  core::HttpHeaders headers;
  headers.Set("Content-Type", "application/json");
  auto answer = Exchange(http, core::HttpMethod::kPost, url, std::move(headers),
                         core::ToJson(body));
  if (!answer) return answer.error();
  auto object = ObjectOf(*answer);
  if (!object) return object.error();
  if (answer->status >= 300 && ErrorCodeOf(*object).empty()) {
    return Error(ErrorCode::kUnavailable, DescribeFailure(*answer));
  }
  return object;
}

Profile ProfileOf(const LoginOptions& options, const core::Clock& clock,
                  const json::object& tokens) {
  Profile profile;
  profile.name = options.profile;
  profile.server = options.server;
  profile.access_token = std::string(tokens.at("accessToken").as_string());
  profile.refresh_token = std::string(tokens.at("refreshToken").as_string());
  profile.expires_at =
      clock.NowMillis() + tokens.at("expiresIn").to_number<std::int64_t>() * 1000;
  profile.organization = std::string(tokens.at("organization").at("slug").as_string());
  profile.project_id = std::string(tokens.at("projectId").as_string());
  for (const json::value& name : tokens.at("permissions").as_array()) {
    profile.permissions.emplace_back(name.as_string());
  }
  return profile;
}

}  // namespace

Result<Profile> Login(core::HttpClient& http, const core::Clock& clock, CredentialStore& store,
                      const LoginOptions& options, LoginIo io) {
  const std::string api = ApiBase(options.server);
  json::array permissions;
  for (const std::string& name : options.permissions) permissions.emplace_back(name);
  json::object request{{"clientName", "sightline " + std::string(core::kServerVersion)},
                       {"hostname", HostName()},
                       {"os", OperatingSystem()}};
  if (!permissions.empty()) request["permissions"] = std::move(permissions);
  if (options.project_id) request["projectId"] = *options.project_id;
  auto started = Post(http, api + "/auth/cli/sessions", std::move(request));
  if (!started) return started.error();
  if (const std::string code = ErrorCodeOf(*started); !code.empty()) {
    return Error(ErrorCode::kUnavailable, "The server refused to start a login (" + code + ").");
  }
  const std::string id(started->at("id").as_string());
  const std::string device_code(started->at("deviceCode").as_string());
  const std::string url(started->at("verificationUriComplete").as_string());
  const std::string user_code(started->at("userCode").as_string());
  io.err << "! First copy your one-time code: " << user_code << "\n"
         << "Open this URL in your browser to approve the login: " << url << "\n"
         << std::flush;
  if (options.open_browser && io.open_url) io.open_url(url);
  std::int64_t interval = started->at("interval").to_number<std::int64_t>();
  for (;;) {
    io.sleep(interval);
    auto polled = Post(http, api + "/auth/cli/sessions/" + id + "/token",
                       json::object{{"deviceCode", device_code}});
    if (!polled) return polled.error();
    const std::string code = ErrorCodeOf(*polled);
    if (code == "OAUTH_012") continue;
    if (code == "OAUTH_013") {
      interval = polled->at("error").at("details").at("interval").to_number<std::int64_t>();
      continue;
    }
    if (code == "OAUTH_014") {
      return Error(ErrorCode::kOAuthAccessDenied, "The login was denied in the browser.");
    }
    if (code == "OAUTH_015") {
      return Error(ErrorCode::kOAuthExpiredToken,
                   "The code expired before the login was approved; run `sightline login` "
                   "again.");
    }
    if (!code.empty()) return Error(ErrorCode::kOAuthInvalidGrant, "The login failed (" + code + ").");
    Profile profile = ProfileOf(options, clock, *polled);
    auto saved = store.Save(profile);
    if (!saved) return saved.error();
    return profile;
  }
}

}  // namespace sightline::cli
