#include "tools/access.h"

#include "tools/model_schema.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using identity::CredentialKind;

// An MCP grant or a command-line login acts for its user within the consented project, so it
// reaches what a signed-in user or a key may reach there; sessions, keys and setup tokens reach
// what names them.
constexpr CredentialKind kReachedByGrants =
    CredentialKind::kUserSession | CredentialKind::kPrivateApiKey | CredentialKind::kMcpToken;

Error WrongKind(std::string message) {
  return Error(ErrorCode::kAuthWrongCredentialKind, std::move(message));
}

Error Refused(std::string message) {
  json::object details;
  details["reason"] = message;
  return Error(ErrorCode::kPermDenied, std::move(message), std::move(details));
}

// Why `kind` is not accepted by `spec`: AUTH_* when that kind of credential is never taken
// there (retrying with another kind helps), PERM_001 when it is a refusal by design.
Error NotAccepted(const OperationSpec& spec, CredentialKind kind) {
  switch (kind) {
    case CredentialKind::kNone:
      return Error(ErrorCode::kAuthRequired, "Authentication required.");
    case CredentialKind::kSdkKey:
      return WrongKind(
          "This route needs a private API key (sk_service_…) or a user session, not an SDK key.");
    case CredentialKind::kTwoFactorSetup:
      return WrongKind("A two-factor setup token only works for the two-factor setup operations.");
    case CredentialKind::kPrivateApiKey:
      // The SDK routes are the one place private keys are not taken at all (the spec's table).
      if (identity::Accepts(spec.credentials, CredentialKind::kSdkKey)) break;
      return Refused("This operation is for signed-in users; private API keys cannot use it.");
    case CredentialKind::kMcpToken:
    case CredentialKind::kCliToken:
      return Refused("This connection may not call " + std::string(spec.name) + ".");
    case CredentialKind::kUserSession:
      break;
  }
  return WrongKind("This operation does not accept this kind of credential.");
}

bool KindAccepted(const OperationSpec& spec, CredentialKind kind) {
  if (spec.credentials == CredentialKind::kNone) return true;  // public: anyone may call
  if (kind == CredentialKind::kMcpToken || kind == CredentialKind::kCliToken)
    return identity::Accepts(spec.credentials, kReachedByGrants);
  return identity::Accepts(spec.credentials, kind);
}

bool Declares(const json::object& input_schema, std::string_view argument) {
  const json::value* properties = input_schema.if_contains("properties");
  return properties && properties->is_object() && properties->as_object().contains(argument);
}

void Bind(json::object& args, std::string_view name, const std::string& bound, Caller caller) {
  if (caller == Caller::kModel || !args.contains(name)) args[name] = bound;
}

}  // namespace

core::Result<void> CheckCredentialKind(const OperationSpec& spec, CredentialKind kind) {
  if (!KindAccepted(spec, kind)) return NotAccepted(spec, kind);
  return {};
}

core::Result<void> CheckCredential(const OperationSpec& spec, const identity::Principal& principal,
                                   Caller caller) {
  auto accepted = CheckCredentialKind(spec, principal.kind);
  if (!accepted) return accepted;
  const bool model = caller == Caller::kModel || principal.kind == CredentialKind::kMcpToken;
  if (model && !spec.mcp_exclusion_reason.empty()) {
    return Refused(std::string(spec.name) +
                   " is not offered to language models: " + std::string(spec.mcp_exclusion_reason));
  }
  if (principal.read_only && spec.effect != Effect::kReadOnly) {
    return Refused("This connection is read-only.");
  }
  return {};
}

identity::PermissionSet EffectivePermissions(const identity::Principal& principal,
                                             const std::optional<std::string>& role) {
  identity::PermissionSet permissions = principal.permissions;
  if (principal.kind == CredentialKind::kUserSession && role) {
    if (auto parsed = identity::ParseRole(*role)) {
      permissions = permissions.Union(identity::RolePermissions(*parsed));
    }
  }
  permissions.Add(identity::Permission::kPublic);
  return permissions;
}

core::Result<void> CheckPermission(const OperationSpec& spec,
                                   const identity::PermissionSet& effective) {
  if (spec.permission == identity::Permission::kPublic || effective.Has(spec.permission)) {
    return {};
  }
  const std::string name(identity::PermissionName(spec.permission));
  json::object details;
  details["reason"] = "missing permission " + name;
  return Error(ErrorCode::kPermDenied, "This credential lacks the '" + name + "' permission.",
               std::move(details));
}

bool MayCall(const OperationSpec& spec, const identity::Principal& principal,
             const identity::PermissionSet& effective, Caller caller) {
  return CheckCredential(spec, principal, caller) && CheckPermission(spec, effective);
}

std::optional<json::object> BindArguments(const json::object& input_schema,
                                          const identity::Principal& principal,
                                          const json::object& args, Caller caller) {
  const bool takes_organization = Declares(input_schema, kBoundOrganizationArgument);
  const bool takes_project = principal.project_id && Declares(input_schema, kBoundProjectArgument);
  if (!principal.bound() || (!takes_organization && !takes_project)) return std::nullopt;
  // A direct caller that named both (REST, in the path) keeps its own arguments: no copy.
  const bool missing = (takes_organization && !args.contains(kBoundOrganizationArgument)) ||
                       (takes_project && !args.contains(kBoundProjectArgument));
  if (caller == Caller::kDirect && !missing) return std::nullopt;
  json::object bound = args;
  if (caller == Caller::kModel) {
    bound.erase(kBoundOrganizationArgument);
    bound.erase(kBoundProjectArgument);
  }
  if (takes_organization) {
    Bind(bound, kBoundOrganizationArgument, principal.organization_slug, caller);
  }
  if (takes_project) Bind(bound, kBoundProjectArgument, *principal.project_id, caller);
  return bound;
}

}  // namespace sightline::tools
