// Who is calling: the authenticated credential and what it may do right now.
#pragma once

#include "identity/permissions.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::storage {
struct OrganizationRecord;
struct ProjectRecord;
}

namespace sightline::identity {

// Bit flags, so an operation can list the kinds it accepts.
enum class CredentialKind : std::uint8_t {
  kNone = 0,
  kSdkKey = 1 << 0,
  kPrivateApiKey = 1 << 1,
  kUserSession = 1 << 2,
  kMcpToken = 1 << 3,
  // X-2FA-Setup-Token: issued at sign-in when an organization requires two-factor
  // authentication the user lacks; accepted only by the 2FA setup and enable operations.
  kTwoFactorSetup = 1 << 4,
  // An access token of a command-line login (cli_at_…): like an MCP grant, the user's consent
  // to one project with a subset of their permissions, for the REST API.
  kCliToken = 1 << 5,
};
constexpr CredentialKind operator|(CredentialKind a, CredentialKind b) {
  return static_cast<CredentialKind>(static_cast<std::uint8_t>(a) | static_cast<std::uint8_t>(b));
}
constexpr bool Accepts(CredentialKind accepted, CredentialKind kind) {
  return (static_cast<std::uint8_t>(accepted) & static_cast<std::uint8_t>(kind)) != 0;
}
std::string_view CredentialKindName(CredentialKind kind);

struct Principal {
  CredentialKind kind = CredentialKind::kNone;
  std::string credential_id;           // key id; safe to log
  std::optional<std::string> user_id;  // the user acting (a key's creator)
  // What the caller is bound to (a key, an MCP grant, the assistant answering in a
  // conversation): the dispatcher writes these into the arguments of every operation taking
  // them. Empty for a signed-in user, who names the organization and project per request.
  std::string organization_id;
  std::string organization_slug;
  std::optional<std::string> project_id;
  // The bound organization and project as read with the credential in this request (keys), so
  // that ingestion and the dispatcher do not read them again; null when not read.
  std::shared_ptr<const storage::OrganizationRecord> organization;
  std::shared_ptr<const storage::ProjectRecord> project;
  PermissionSet permissions;           // effective, computed for this request
  bool read_only = false;              // an MCP grant consented to read-only tools
  // An MCP grant: what a new consent could give it (the live role's grantable permissions), so
  // that a missing permission is a step-up only when consenting again can help.
  PermissionSet consentable;

  bool bound() const { return !organization_slug.empty(); }
};

// The one name of the credential behind a principal: its rate-limit window (spec, Limits: per
// user, private API key or MCP connection, whichever way it comes in) and what an MCP session
// is bound to. "key:<id>" for a private API key on REST and MCP alike, "grant:<id>" for an MCP
// connection or a command-line login, "user:<id>" for a signed-in user (their two-factor setup token included),
// "sdk:<id>" for an SDK key, "anonymous" without a credential.
std::string CredentialName(const Principal& principal);

}  // namespace sightline::identity
