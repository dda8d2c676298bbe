// The gate: who is calling. Every way in (REST, MCP in both eras, the assistant) hands it what
// the caller presented and goes through it for every operation call, before the dispatcher
// decides what the caller may do there:
//   1. credential → Principal: every credential kind is told apart and authenticated here, and
//      only here (keys, sessions, two-factor setup tokens, command-line logins, MCP grants);
//   2. binding: what the caller acts for (an MCP connection as a language model, read-only when
//      it asked; an assistant's answer in its conversation's organization and project);
//   3. one rate-limit window per credential (spec, Limits: per user, private API key or MCP
//      connection), counted per operation call: a REST request, an MCP `tools/call`, an
//      assistant's tool call; anonymous callers by client IP;
//   4. long-lived streams: authenticated again while they stay open.
// The adapters translate their protocol to and from it and decide nothing.
// Thread-safe: everything it reaches is.
#pragma once

#include "core/http_types.h"
#include "core/result.h"
#include "identity/principal.h"
#include "identity/rate_limiter.h"
#include "tools/dispatch.h"
#include "tools/registry.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::identity {
class Authenticator;
class SessionService;
}  // namespace sightline::identity
namespace sightline::oauth {
class AuthorizationServer;
}

namespace sightline::tools {

// The ways in, each taking its own credential kinds: an MCP grant is bound to /api/mcp and
// never reaches REST; REST takes everything else, each operation only its own kinds.
enum class Surface { kRest, kMcp };

// What a caller presented, as its adapter read it from the protocol.
struct Presented {
  std::optional<std::string> secret;       // the API key or access token; none: anonymous
  bool in_authorization = false;           // `secret` came as `Authorization: Bearer`
  std::optional<std::string> setup_token;  // a two-factor setup token (spec, Authentication 5)
  std::string remote_address;              // the socket's peer (command-line logins record it)
  std::string client_ip;                   // the client behind trusted proxies (anonymous window)
  bool read_only = false;                  // an MCP connection asked for read-only tools
};

// The window a call was counted in, for the adapter's rate-limit headers.
struct Window {
  identity::RateDecision decision;
  bool per_client_ip = false;  // the anonymous window (its own policy), not a credential's
};

// Delivers a counted call's result with the window it was counted in (none: exempt).
using GateCallback =
    std::function<void(core::Result<boost::json::value>, const std::optional<Window>&)>;

class Gate {
 public:
  struct Parts {
    Dispatcher& dispatcher;
    identity::Authenticator& keys;
    identity::SessionService& sessions;
    oauth::AuthorizationServer* grants;  // MCP grants and command-line logins; may be null
    identity::RateLimiter& credential_windows;
    identity::RateLimiter& client_ip_windows;
  };
  // Everything in `parts` must outlive the gate and every stream it opens.
  explicit Gate(Parts parts) : parts_(parts) {}

  // Who is calling through `surface`. With `operation`, a kind it never takes is refused before
  // the credential is looked up (AUTH_005); a refusal by design (PERM_001) waits for the lookup,
  // so an unknown credential is 401 whatever it asks for. An operation taking no credential is
  // answered by an anonymous principal.
  core::Result<identity::Principal> Identify(Surface surface, const Presented& presented,
                                             const OperationSpec* operation = nullptr);

  // Counts one call of `operation` in the caller's window: the credential's, or the client IP's
  // for anonymous callers; nullopt for calls that are exempt (ingestion). A used-up window is
  // reported in the decision (`allowed` false): see Refusal.
  core::Result<std::optional<Window>> Count(const OperationSpec& operation,
                                            const identity::Principal& principal,
                                            std::string_view client_ip);
  // Counts one request of an anonymous protocol endpoint (OAuth's) in its client IP's window;
  // nullopt when allowed, otherwise the refusal or the store's failure.
  std::optional<core::Error> CountClientIp(std::string_view client_ip);
  const identity::RateLimitPolicy& PolicyOf(const Window& window) const;

  // Counts the call, then the dispatcher checks and runs it: for calls that are not requests of
  // their own (an MCP `tools/call`, an assistant's tool call). `done` gets the result, now or
  // later, from any thread.
  void Call(const RegisteredOperation& operation, const identity::Principal& principal,
            const boost::json::object& args, const RequestMeta& request, GateCallback done);
  // Call, waiting for the result.
  core::Result<boost::json::value> CallAndWait(const RegisteredOperation& operation,
                                               const identity::Principal& principal,
                                               const boost::json::object& args,
                                               const RequestMeta& request);

  // The dispatcher's stream, which ends once the caller may no longer read it: every few polls
  // the gate authenticates `presented` again and the dispatcher checks again (a revoked key,
  // an expired or signed-out session, a lost role). `renewed` false: a bounded answer that is
  // not rechecked.
  core::Result<std::shared_ptr<core::ResponseStream>> OpenStream(
      const RegisteredOperation& operation, Surface surface, const Presented& presented,
      const identity::Principal& principal, const boost::json::object& args,
      const RequestMeta& request, bool renewed);

  // An MCP grant lacking the operation's permission where consenting again could give it: the
  // step-up challenge (403 insufficient_scope naming the scope to ask for). Nullopt otherwise.
  static std::optional<core::Error> StepUp(const OperationSpec& operation,
                                           const identity::Principal& principal);

  // The principal of an assistant's answer: the caller, acting in the conversation's
  // organization and project, which the dispatcher then writes into every tool call.
  static identity::Principal ActingIn(const identity::Principal& caller,
                                      const storage::OrganizationRecord& organization,
                                      const storage::ProjectRecord& project);

  // Who drives calls coming through `surface`: MCP's are a language model's.
  static Caller CallerOf(Surface surface);

  Dispatcher& dispatcher() { return parts_.dispatcher; }

 private:
  core::Result<identity::Principal> IdentifyRest(const Presented& presented,
                                                 const OperationSpec* operation);
  core::Result<identity::Principal> IdentifyMcp(const Presented& presented);

  Parts parts_;
};

// AUTH_014 for a window that is used up, with `retryAfterSeconds`.
core::Error RateLimited(const identity::RateDecision& decision);

}  // namespace sightline::tools
