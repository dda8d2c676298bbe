// Who may call what: the one decision about access to an operation. The dispatcher asks it
// before every call; every listing of operations (MCP `tools/list`, the assistant's tool offer)
// asks the same functions, so what a caller is shown and what it may call never differ.
//
// The decision has three parts, in this order:
//   1. the credential kind: the operation accepts the kind presented (an MCP grant acts for its
//      user within its project: it reaches operations open to signed-in users or to keys), and
//      a language model (an MCP grant always; any credential over MCP or in the assistant)
//      reaches no operation kept from models;
//   2. a read-only connection calls read-only operations only;
//   3. the permission: the caller's effective permissions where the call acts (a session's
//      live role there; a key's creator's live role limited to the key; a grant's consent ∩
//      the user's live role) hold the operation's permission.
// Pure functions; thread-safe.
#pragma once

#include <boost/json/object.hpp>
#include <optional>

#include "core/result.h"
#include "identity/permissions.h"
#include "identity/principal.h"
#include "tools/operation.h"

namespace sightline::tools {

// Parts 1 and 2 for a credential kind alone: what the REST front door asks before it looks a
// credential up, so a credential presented where its kind is never accepted is refused at once.
// AUTH_003 for no credential, AUTH_005 for a kind the operation never takes, PERM_001 for a
// valid kind the operation refuses on purpose (a private API key on a signed-in-only operation).
core::Result<void> CheckCredentialKind(const OperationSpec& spec, identity::CredentialKind kind);

// Parts 1 and 2 for an authenticated principal calling as `caller`.
core::Result<void> CheckCredential(const OperationSpec& spec, const identity::Principal& principal,
                                   Caller caller);

// What the principal holds where a call acts: a signed-in user their live role there (`role`,
// their membership's, read by the dispatcher) with what the session itself carries; a key or
// an MCP grant what it carries (computed live when it was authenticated, wherever it may act);
// everyone `public`.
identity::PermissionSet EffectivePermissions(const identity::Principal& principal,
                                             const std::optional<std::string>& role);

// Part 3: PERM_001 naming the missing permission.
core::Result<void> CheckPermission(const OperationSpec& spec,
                                   const identity::PermissionSet& effective);

// The whole decision, for listings: `effective` as the dispatcher would compute it where the
// call would act.
bool MayCall(const OperationSpec& spec, const identity::Principal& principal,
             const identity::PermissionSet& effective, Caller caller);

// The arguments with the principal's binding written in, wherever the operation takes
// `orgSlug` or `projectId`: a direct caller names them itself (REST, in the path), so only what
// it left out is filled in, and naming another one is answered 404 by the dispatcher's scope
// check; a model's are replaced. Nullopt when they stay as they are (an unbound principal, a
// signed-in user, or an operation taking neither).
std::optional<boost::json::object> BindArguments(const boost::json::object& input_schema,
                                                 const identity::Principal& principal,
                                                 const boost::json::object& args, Caller caller);

}  // namespace sightline::tools
