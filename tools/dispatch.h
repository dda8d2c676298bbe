// The dispatcher: the one way into an operation, shared by REST, MCP and the agent.
// validate arguments (VAL_003) → resolve and check the organization and project the arguments
// name (404, never revealing what exists) → check the permission (PERM_001) → run.
// Thread-safe.
#pragma once

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"
#include "storage/store.h"
#include "tools/registry.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string_view>

namespace sightline::tools {

class Dispatcher {
 public:
  Dispatcher(storage::Store& store, const core::Clock& clock) : store_(store), clock_(clock) {}

  core::Result<boost::json::value> Call(const RegisteredOperation& operation,
                                        const identity::Principal& principal,
                                        const boost::json::object& args,
                                        std::string_view request_id);

 private:
  storage::Store& store_;
  const core::Clock& clock_;
};

}  // namespace sightline::tools
