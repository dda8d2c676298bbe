// `sightline login`: the browser login (oauth/device_login.h on the server). Starts a login,
// shows the code and the URL (and opens the browser when there is one), polls at the interval
// the server sets until the user approves or denies it in the browser, then saves the profile.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/credentials.h"
#include "core/clock.h"
#include "core/http_client.h"
#include "core/result.h"

namespace sightline::cli {

struct LoginOptions {
  std::string server;
  std::string profile = "default";
  std::vector<std::string> permissions;  // asked for; none: what the user chooses
  std::optional<std::string> project_id;
  bool open_browser = true;
};

struct LoginIo {
  std::ostream& err;  // what the user reads while it waits
  std::function<void(std::int64_t seconds)> sleep;
  std::function<void(const std::string& url)> open_url;  // may be empty
};

// The profile saved, or why not: OAUTH_014 (denied), OAUTH_015 (expired) as the server says.
core::Result<Profile> Login(core::HttpClient& http, const core::Clock& clock,
                            CredentialStore& store, const LoginOptions& options, LoginIo io);

}  // namespace sightline::cli
