// The REST and MCP API of one running server as the end-to-end tests use it: JSON requests with
// a bearer credential, signing in, members joining an organization, two-factor authentication.
// Every request opens its own connection (ServerProcess::Request), so one client may be used
// from several threads. Helpers that expect success check it with gtest's EXPECT_*.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "harness.h"

namespace sightline::e2e {

// The password of every account a test adds with ApiClient::AddMember.
inline constexpr char kMemberPassword[] = "another horse";

inline constexpr char kMcpInitialize[] =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
    R"("capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}})";

// The headers of a JSON-RPC POST to /mcp with `credential`, within `session` when not empty.
Headers McpHeaders(const std::string& credential, const std::string& session = "");

// MCP 2026-07-28, stateless: the version every modern request names.
inline constexpr char kModern[] = "2026-07-28";
// A modern request's body: `params` gains the envelope's _meta (plus `meta_extra`).
std::string ModernBody(const std::string& method, boost::json::object params = {},
                       boost::json::object meta_extra = {}, int id = 1);
// A modern request's headers, naming its method (and tool, `name`).
Headers ModernHeaders(const std::string& credential, const std::string& method,
                      const std::string& name = "");

// The access token of a sign-in answer, expecting 200; empty when it has none (a second factor,
// or its setup, is due).
std::string AccessToken(const Response& signed_in);

struct Member {
  std::string access_token, user_id;
};

// Two-factor authentication just enabled: its secret, its backup codes, and the Unix time of
// the code that enabled it (that code's step is used up).
struct EnabledTwoFactor {
  std::string secret;
  std::vector<std::string> backup_codes;
  std::int64_t enabled_at = 0;
  // A code whose step has not been used yet: the next one (the server accepts ±1 step).
  std::string NextCode() const;
};

class ApiClient {
 public:
  // `server` must outlive the client.
  explicit ApiClient(ServerProcess& server) : server_(&server) {}

  // `credential` (a session, key or access token) is sent as a bearer token and `body` as JSON,
  // each when not empty.
  Response Call(const std::string& method, const std::string& target,
                const std::string& credential = "", const std::string& body = "",
                Headers headers = {}) const;
  // POST /auth/login, as the server answered (with a second factor when `code` is not empty).
  Response Login(const std::string& email, const std::string& password,
                 const std::string& code = "") const;
  // Signs in with the password alone, expecting a session; its access token.
  std::string SignIn(const std::string& email, const std::string& password = kOwnerPassword) const;
  // `inviter` invites `email` into `org_slug` as `role`, and the invitation is accepted as a new
  // account with kMemberPassword (first name "Ada").
  Member AddMember(const std::string& org_slug, const std::string& inviter,
                   const std::string& email, const std::string& role) const;
  // Sets up and enables two-factor authentication for the user of `session`, with otplib's code.
  EnabledTwoFactor EnableTwoFactor(const std::string& session) const;

 private:
  ServerProcess* server_;
};

}  // namespace sightline::e2e
