// OperationSpec: the one definition of a product operation. From the explicit list in
// features/all_operations.cpp come the REST routes, the OpenAPI document, the MCP tools, the
// assistant's tools and the CLI's commands. Operations never see HTTP: `run` gets an OperationContext and validated
// arguments (path, query and body parameters merged into one object).
#pragma once

#include "core/clock.h"
#include "core/http_types.h"
#include "core/result.h"
#include "identity/permissions.h"
#include "identity/principal.h"
#include "identity/sessions.h"
#include "storage/store.h"
#include "tools/services.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>

namespace sightline::storage {
struct OrganizationRecord;
struct ProjectRecord;
}  // namespace sightline::storage

namespace sightline::tools {

// What calling the operation does; becomes MCP's readOnly/idempotent/destructive hints.
enum class Effect { kReadOnly, kIdempotentWrite, kWrite, kDestructive };
std::string_view EffectName(Effect effect);

// An operation scheduled for removal (API versioning rule 4): at least 90 days between the
// announcement and the sunset.
struct Deprecation {
  std::int64_t announced_unix;  // → `Deprecation: @<unix>` (RFC 9745)
  std::int64_t sunset_unix;     // → `Sunset: <HTTP-date>` (RFC 8594)
  std::string_view notes_url;   // → `Link: <url>; rel="deprecation"; type="text/html"`
};

// Who drives a call: a person or program naming what it wants (REST: the dashboard, the CLI,
// scripts), or a language model (over MCP, or in the assistant). A model never reaches an
// operation kept from models (`mcp_exclusion_reason`), and never names the organization or
// project: its credential's binding is written over whatever it sent.
enum class Caller { kDirect, kModel };

// Who is asking, beyond the credential: for sign-in records and per-IP limits.
struct RequestMeta {
  std::string_view request_id;
  std::string_view client_ip;
  std::optional<std::string> user_agent;
  const core::HttpHeaders* headers = nullptr;  // the request's headers, valid during the call
  Caller caller = Caller::kDirect;
};

struct OperationContext {
  storage::Store& store;
  const core::Clock& clock;
  const Services& services;
  const identity::Principal& principal;
  const RequestMeta& request;
  // Resolved by the dispatcher from the {orgSlug} and {projectId} path parameters, after
  // checking the caller may see them; null when the path has no such parameter.
  const storage::OrganizationRecord* organization = nullptr;
  const storage::ProjectRecord* project = nullptr;
  // The caller's role in `organization` (a key's creator's role for API keys), when known.
  std::optional<std::string> role;
  // What the caller may do here, computed live for this call.
  identity::PermissionSet permissions;
};

using RunFunction = core::Result<boost::json::value> (*)(OperationContext& context,
                                                          const boost::json::object& args);
// Delivers an operation's result; called exactly once, from any thread.
using ResultCallback = std::function<void(core::Result<boost::json::value>)>;
// An operation whose answer is a stream (Server-Sent Events); errors are for the checks made
// before the stream opens.
using StreamFunction = core::Result<std::shared_ptr<core::ResponseStream>> (*)(
    OperationContext& context, const boost::json::object& args);
// An operation that answers later (ingestion answers once its rows are committed). The context
// and arguments are only valid during the call: copy what is needed before returning.
using AsyncRunFunction = void (*)(OperationContext& context, const boost::json::object& args,
                                  ResultCallback done);

// An operation that starts background work and answers at once (202) with the job: an object
// whose `id` names it and whose `status` is queued, running, completed, failed or cancelled.
// Callers poll `status_operation` with the id as `id_argument`; over MCP the operation may run
// as a task (io.modelcontextprotocol/tasks), which polls the same way.
struct LongRunning {
  std::string_view status_operation;  // e.g. "get_site_crawl"
  std::string_view id_argument;       // e.g. "crawlId"
  std::string_view cancel_operation;  // e.g. "cancel_site_crawl"; empty when it cannot be cancelled
};

struct OperationSpec {
  std::string_view name;  // OpenAPI operationId == MCP tool name; ^[a-z0-9_]{1,48}$
  std::string_view summary;
  std::string_view description;
  std::string_view tag;  // OpenAPI tag, e.g. "Projects"
  core::HttpMethod method;
  std::string_view path;  // "/{orgSlug}/projects/{projectId}"
  // Its input and output schemas are data: `operations.<name>` of its feature's schemas.json
  // (see tools/schema_catalog.h). The input is a `type: object` whose properties are the path
  // parameters, then query parameters (GET, DELETE) or body fields.
  identity::Permission permission;
  Effect effect;
  identity::CredentialKind credentials;
  int success_status = 200;
  // Ingestion operations are exempt from the per-credential rate limit (spec: Limits).
  bool rate_limited = true;
  // Called by browsers from any site (the SDK): permissive CORS, preflight included.
  bool browser_cors = false;
  // The body is a platform's own format (log drains): handed over unparsed, in any media type
  // and inflated when gzip-encoded, as the string argument `body`.
  bool raw_body = false;
  // Null when exposed as an MCP tool; otherwise why it is not (listed in docs/mcp.md).
  std::string_view mcp_exclusion_reason = {};
  const Deprecation* deprecation = nullptr;
  // Error statuses documented beyond the usual ones (400, 401, 403, 404, 413, 415, 500),
  // space-separated: "409 503".
  std::string_view error_statuses = {};
  // Set when the operation starts background work (see LongRunning).
  const LongRunning* long_running = nullptr;
  // Exactly one of the three; or both `run_async` and `open_stream`, and the client's Accept
  // header chooses (`text/event-stream` streams).
  RunFunction run = nullptr;
  AsyncRunFunction run_async = nullptr;
  StreamFunction open_stream = nullptr;
};

}  // namespace sightline::tools
