// Who is calling: the authenticated credential and what it may do right now.
#pragma once

#include "identity/permissions.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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
  std::string organization_id;         // the organization the credential is bound to
  std::optional<std::string> project_id;  // the project a key is bound to
  PermissionSet permissions;           // effective, computed for this request
  bool read_only = false;              // an MCP grant consented to read-only tools
  // An MCP grant: what a new consent could give it (the live role's grantable permissions), so
  // that a missing permission is a step-up only when consenting again can help.
  PermissionSet consentable;
};

}  // namespace sightline::identity
