// Command-line logins: the RFC 8628 device flow on Sightline's own endpoints
// (/auth/cli/sessions, docs/cli.md). A CLI starts a login and shows a short user code; the user
// confirms that code on the dashboard's /cli page, sees which client asks from where, and
// chooses organization, project and a subset of their permissions — the MCP consent model. The
// approval becomes an OAuth grant of the built-in public client `sightline-cli` for the REST
// API's resource; the CLI, polling with its device code, receives that grant's access and
// rotating refresh tokens once (cli_at_… / cli_rt_…; refreshed at the OAuth token endpoint).
// Every request then acts with consent ∩ the user's live role, like an MCP connection; revoking
// the grant ends the session at the next request. No HTTP here. Thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "core/clock.h"
#include "core/result.h"
#include "identity/rate_limiter.h"
#include "oauth/authorization_server.h"
#include "oauth/consent.h"
#include "storage/oauth_records.h"
#include "storage/store.h"

namespace sightline::oauth {

// The built-in client every command-line login's grant belongs to.
inline constexpr std::string_view kCliClientId = "sightline-cli";

// Where an address is, to show the user where a login started (the composition root hands in
// the IP geolocation database); nullopt when unknown.
struct LoginPlace {
  std::string country, region, city;
};
using PlaceOf = std::function<std::optional<LoginPlace>(std::string_view ip)>;

struct DeviceLoginSettings {
  std::string verification_uri;  // the dashboard's /cli page
  std::chrono::seconds ttl{600};
  std::chrono::seconds interval{5};
};

struct CliLoginRequest {
  std::string client_name, hostname, os;
  std::vector<std::string> permissions;  // none: everything the role allows
  std::optional<std::string> project_id;
  std::string ip;  // where the request came from
};

struct CliLoginStarted {
  std::string id, device_code, user_code;  // user code as shown: XXXX-XXXX
  std::string verification_uri, verification_uri_complete;
  std::int64_t expires_in = 0, interval = 0;
};

// What the user chose on the approval page; no permissions: everything the role allows, at
// every request.
struct CliApproval {
  std::string session_id, user_code;
  std::string organization_slug, project_id;
  std::optional<identity::PermissionSet> permissions;
};

class DeviceLogin {
 public:
  DeviceLogin(storage::Store& store, const core::Clock& clock, AuthorizationServer& server,
              PlaceOf place_of, DeviceLoginSettings settings);

  // A new pending login: VAL_003 for an unknown permission name.
  core::Result<CliLoginStarted> Start(const CliLoginRequest& request);
  // The CLI's poll: the token answer once approved (once only), else OAUTH_012 (pending),
  // OAUTH_013 (polled faster than the interval, which grows by 5 s), OAUTH_014 (denied),
  // OAUTH_015 (expired) or OAUTH_003 (unknown id or device code, or tokens already issued).
  core::Result<boost::json::object> Poll(const std::string& id, const std::string& device_code,
                                         const std::string& ip);
  // The pending login a user code names, for `user_id` to look at: CLI_001 when there is none
  // (mistyped, expired, decided); AUTH_014 after too many wrong codes from this user.
  core::Result<storage::CliSessionRecord> Lookup(const std::string& user_id,
                                                 const std::string& user_code);
  // The organizations and projects the user may approve a login for, with what their role
  // there allows.
  core::Result<std::vector<ConsentOrganization>> Choices(const std::string& user_id) const;
  // Approves inside `tx` (with the caller's audit record): the grant made. CLI_001 when the
  // login is not pending under that code; VAL_003 for an organization, project or permissions
  // outside the choices; PERM_001 for permissions beyond the role.
  core::Result<storage::OAuthGrantRecord> Approve(storage::Transaction& tx,
                                                  const std::string& user_id,
                                                  const CliApproval& approval);
  core::Result<storage::CliSessionRecord> Deny(storage::Transaction& tx,
                                               const std::string& user_id,
                                               const std::string& session_id,
                                               const std::string& user_code);
  // The code as the user would type it, or nullopt when it cannot be one (wrong length or
  // letters): upper case, dashes and spaces dropped.
  static std::optional<std::string> NormalizeUserCode(std::string_view code);

 private:
  core::Result<storage::CliSessionRecord> PendingIn(storage::Transaction& tx,
                                                    const std::string& session_id,
                                                    const std::string& user_code);
  core::Result<boost::json::object> Answer(storage::Transaction& tx,
                                           const storage::CliSessionRecord& session,
                                           const std::string& ip);

  storage::Store& store_;
  const core::Clock& clock_;
  AuthorizationServer& server_;
  const PlaceOf place_of_;
  const DeviceLoginSettings settings_;
  identity::RateLimiter guesses_;  // wrong user codes per user
};

}  // namespace sightline::oauth
