// What every command of the CLI that calls the API opens: the HTTP client and the session —
// SIGHTLINE_API_KEY with SIGHTLINE_SERVER when set (CI), else the chosen profile's login —
// and the organization and project the session is bound to, which commands fill in when their
// flags leave them out.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <boost/json/object.hpp>

#include "net/http_client.h"
#include "cli/api_session.h"
#include "cli/credentials.h"
#include "core/clock.h"

namespace sightline::cli {

struct CliClient {
  std::unique_ptr<net::BeastHttpClient> http;
  core::SystemClock clock;
  std::optional<cli::CredentialStore> store;
  std::optional<cli::ApiSession> session;
  boost::json::object defaults;  // orgSlug and projectId of the login (or SIGHTLINE_ORG/_PROJECT)
};

// The client for `profile` ("" for the default one). Exit code 3 with a message when there is
// no login and no key, 2 when there is nowhere to look for one.
struct OpenedClient {
  std::unique_ptr<CliClient> client;
  int exit_code = 0;
};
OpenedClient OpenCliClient(const std::string& profile);

std::unique_ptr<net::BeastHttpClient> NewCliHttpClient();

// The environment variable's value, or `fallback` when it is unset or empty.
std::string EnvOr(const char* name, std::string fallback = "");

}  // namespace sightline::cli
