// What an MCP server may offer beyond the registry's tools: more capabilities, tools that run
// their own way (talking back to the client while they run), and more methods. The server's
// main path knows only this interface; the conformance suite's fixtures are the one
// implementation today, and they live with the tests (tests/mcp_fixture_server): the server
// that offers them is a test-only executable. Implementations are thread-safe.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "core/http_types.h"
#include "mcp/era.h"

namespace sightline::mcp {

// One request to an extension: its era, and what that era lends it.
struct ExtensionRequest {
  Era era = Era::kLegacy;
  std::string log_level;     // legacy: the session's logging/setLevel; modern: _meta's or none
  std::string session_hash;  // legacy: keys the client's answers to the tool's requests
  std::string credential;    // who asks (identity::CredentialName): binds state handed out
  boost::json::object client_capabilities;  // modern: declared in _meta
  boost::json::object server_info;          // modern: what results name in `_meta`
};

// One tools/call of an extension's tool.
struct ExtensionCall {
  std::string tool;
  boost::json::object arguments;
  boost::json::value request_id;
  boost::json::value progress_token;  // null when the call carried none
  boost::json::object params;         // all of them (modern: inputResponses, requestState)
  ExtensionRequest request;
};

class McpExtension {
 public:
  virtual ~McpExtension() = default;
  // Added to the server's capabilities (initialize result, server/discover).
  virtual boost::json::object Capabilities(Era era) const = 0;
  // Listed after the registry's tools, to every caller.
  virtual boost::json::array Tools() const = 0;
  virtual bool HasTool(std::string_view name) const = 0;
  // Runs one of Tools(): the HTTP answer to the tools/call (JSON or an event stream).
  virtual core::HttpResponse CallTool(ExtensionCall call) const = 0;
  // The JSON-RPC answer to a method the server does not know, or nullopt when the extension
  // does not know it either.
  // Modern results come back marked complete (mcp/era.h), cacheable where the method is.
  virtual std::optional<boost::json::object> Handle(std::string_view method,
                                                    const boost::json::value& id,
                                                    const boost::json::object& params,
                                                    const ExtensionRequest& request) const = 0;
  // A client's answer to a request one of the extension's tools sent it.
  virtual void Answer(std::string_view session_hash, const boost::json::value& id,
                      boost::json::value response) const = 0;
};

}  // namespace sightline::mcp
