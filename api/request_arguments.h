// What the REST adapter reads from a request before an operation runs: the presented
// credential, and the operation's arguments merged from the path, the query string and the JSON
// body. Pure functions; thread-safe.
#pragma once

#include "api/router.h"
#include "core/http_types.h"
#include "core/result.h"
#include "identity/principal.h"
#include "tools/gate.h"
#include "tools/registry.h"

#include <boost/json/object.hpp>

#include <string>

namespace sightline::api {

// The secret presented for `accepted` kinds: `x-sdk-key` for SDK routes, otherwise
// `Authorization: Bearer` or `X-API-Key`. AUTH_003 when none, AUTH_001 for a malformed
// Authorization header.
core::Result<std::string> PresentedSecret(const core::HttpRequest& request,
                                          identity::CredentialKind accepted);

// What the request presents to the gate: the secret as PresentedSecret reads it (none: anonymous),
// the two-factor setup token, and where it comes from (`client_ip` as trusted proxies tell it).
// AUTH_001 for a malformed Authorization header.
core::Result<tools::Presented> ReadPresented(const core::HttpRequest& request,
                                             identity::CredentialKind accepted,
                                             std::string client_ip);

// The arguments object: JSON body fields (POST, PUT, PATCH; VAL_006 for a non-JSON body, VAL_002
// for invalid JSON), or the query parameters the schema declares (GET, DELETE), then the path
// parameters, converted to their schema types (VAL_003).
core::Result<boost::json::object> BuildArguments(const tools::RegisteredOperation& op,
                                                 const RouteMatch& match,
                                                 const core::HttpRequest& request);

}  // namespace sightline::api
