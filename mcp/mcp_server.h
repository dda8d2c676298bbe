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
#include "mcp/extension.h"
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
  // Principal::read_only when the grant or the connection asked for read-only tools.
  const identity::Principal& principal;
  const tools::RequestMeta& meta;
};

// A refusal at the HTTP level (wrong media types, unknown session, …) comes back as an Error for
// the caller to render as an ErrorResponse; every JSON-RPC answer, errors included, as a response.
using McpDone = std::function<void(core::Result<core::HttpResponse>)>;

class McpServer {
 public:
  // `extension` adds what it offers to the server's (the conformance suite's fixtures, in
  // tests); null for none.
  McpServer(const ToolCatalog& catalog, tools::Dispatcher& dispatcher, storage::Store& store,
            const core::Clock& clock, ServerIdentity identity,
            const McpExtension* extension = nullptr);
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
  core::HttpResponse CallExtension(const Session& session, const boost::json::value& id,
                                   std::string_view name, const boost::json::object& params);

  const ToolCatalog& catalog_;
  const McpExtension* extension_;
  std::vector<boost::json::object> extension_tools_;
  tools::Dispatcher& dispatcher_;
  storage::Store& store_;
  const core::Clock& clock_;
  ServerIdentity identity_;
  std::unique_ptr<InFlight> in_flight_;
};

}  // namespace sightline::mcp
