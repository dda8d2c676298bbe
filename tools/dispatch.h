// The dispatcher: the one way into an operation, shared by REST, MCP and the agent.
// validate arguments (VAL_003) → resolve and check the organization and project the arguments
// name (404, never revealing what exists) → compute the caller's effective permissions there,
// live → check the operation's permission (PERM_001) → run.
//
// Effective permissions: a user session holds its role's permissions in the organization the
// arguments name (404 when not a member) plus `account`; a private API key its creator's live
// role limited as the key rules say, in its own organization and project only; everyone holds
// `public`.
// Thread-safe.
#pragma once

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"
#include "storage/store.h"
#include "tools/registry.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <memory>
#include <string_view>

namespace sightline::tools {

class Dispatcher {
 public:
  Dispatcher(storage::Store& store, const core::Clock& clock, const Services& services)
      : store_(store), clock_(clock), services_(services) {}

  // Checks and runs the operation; `done` gets its result, now or (for asynchronous
  // operations) later, from another thread.
  void CallAsync(const RegisteredOperation& operation, const identity::Principal& principal,
                 const boost::json::object& args, const RequestMeta& request,
                 ResultCallback done);
  // For operations with open_stream: the same checks, then the stream.
  core::Result<std::shared_ptr<core::ResponseStream>> OpenStream(
      const RegisteredOperation& operation, const identity::Principal& principal,
      const boost::json::object& args, const RequestMeta& request);
  // The checks alone, running nothing: whether the caller may still make this call (a stream's
  // periodic re-check).
  core::Result<void> Authorize(const RegisteredOperation& operation,
                               const identity::Principal& principal,
                               const boost::json::object& args, const RequestMeta& request);
  // The caller's effective permissions in the project (404s as the dispatcher's checks).
  core::Result<identity::PermissionSet> PermissionsIn(const identity::Principal& principal,
                                                      const std::string& organization_slug,
                                                      const std::string& project_id);
  // The same, waiting for the result.
  core::Result<boost::json::value> Call(const RegisteredOperation& operation,
                                        const identity::Principal& principal,
                                        const boost::json::object& args,
                                        const RequestMeta& request);

 private:
  struct Checked;
  // Validates the arguments, resolves the scope and checks the permission: the context to run
  // the operation in, or the error to answer with.
  core::Result<std::unique_ptr<Checked>> Check(const RegisteredOperation& operation,
                                               const identity::Principal& principal,
                                               const boost::json::object& args,
                                               const RequestMeta& request);

  storage::Store& store_;
  const core::Clock& clock_;
  const Services& services_;
};

}  // namespace sightline::tools
