// The MCP server behind `{base}/mcp` (Streamable HTTP, revisions 2025-11-25 back to 2025-03-26):
// sessions, JSON-RPC methods (initialize, ping, tools/list, tools/call, logging/setLevel) and
// the answers as JSON or, when the client asked for progress, as Server-Sent Events.
//
// It never authenticates: the caller (api/) has checked the credential and the Origin, and
// passes the principal in. Sessions live in the store, so any node can serve any request of a
// session; a session belongs to the credential that opened it and is found by no other.
// Thread-safe.
#pragma once

#include "core/clock.h"
#include "core/http_types.h"
#include "core/result.h"
#include "identity/principal.h"
#include "mcp/conformance_fixtures.h"
#include "mcp/fixture_call.h"
#include "mcp/tool_catalog.h"
#include "storage/store.h"
#include "tools/dispatch.h"

#include <functional>
#include <memory>
#include <string>

namespace sightline::mcp {

struct ServerIdentity {
  std::string name = "sightline";
  std::string title = "Sightline";
  std::string version;
  std::string instructions;  // sent in the InitializeResult
};

struct McpCall {
  core::HttpMethod method;
  const core::HttpHeaders& headers;
  std::string_view body;
  const identity::Principal& principal;
  bool read_only = false;  // the connection asked for read-only tools
  const tools::RequestMeta& meta;
};

// A refusal at the HTTP level (wrong media types, unknown session, …) comes back as an Error for
// the caller to render as an ErrorResponse; every JSON-RPC answer, errors included, as a response.
using McpDone = std::function<void(core::Result<core::HttpResponse>)>;

class McpServer {
 public:
  // `fixtures`, for tests only, adds the conformance suite's fixture tools, resources, prompts
  // and completions to what the server offers.
  McpServer(const ToolCatalog& catalog, tools::Dispatcher& dispatcher, storage::Store& store,
            const core::Clock& clock, ServerIdentity identity,
            const ConformanceFixtures* fixtures = nullptr);
  ~McpServer();

  void HandleAsync(const McpCall& call, McpDone done);

 private:
  class InFlight;
  struct Session;
  void HandlePost(const McpCall& call, McpDone done);
  core::Result<core::HttpResponse> HandleDelete(const McpCall& call);
  core::Result<Session> FindSession(const McpCall& call);
  core::Result<core::HttpResponse> Initialize(const McpCall& call, const boost::json::value& id,
                                              const boost::json::object& params);
  boost::json::object ListTools(const McpCall& call, const boost::json::value& id,
                               const boost::json::object& params) const;
  void CallTool(const McpCall& call, const Session& session, const boost::json::value& id,
                const boost::json::object& params, McpDone done);
  core::HttpResponse CallFixture(const Session& session, const boost::json::value& id,
                                 std::string_view name, const boost::json::object& params);

  const ToolCatalog& catalog_;
  const ConformanceFixtures* fixtures_;
  std::vector<boost::json::object> fixture_tools_;
  std::shared_ptr<PendingRequests> pending_;
  tools::Dispatcher& dispatcher_;
  storage::Store& store_;
  const core::Clock& clock_;
  ServerIdentity identity_;
  std::unique_ptr<InFlight> in_flight_;
};

// The session-owning name of a credential: "key:<id>" for a private API key.
std::string CredentialOf(const identity::Principal& principal);

}  // namespace sightline::mcp
