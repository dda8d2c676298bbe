// MCP's JSON-RPC framing: a POST body parsed as JSON (as McpServer::HandlePost does), then read
// as one request, notification or response; and the protocol version a client asks for.
#include "mcp/protocol.h"

#include <boost/json/parse.hpp>

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  (void)sightline::mcp::NegotiateVersion(body);
  (void)sightline::mcp::LogLevelRank(body);
  boost::system::error_code error;
  boost::json::value message = boost::json::parse(body, error);
  if (error) return 0;
  (void)sightline::mcp::ParseMessage(std::move(message));
  return 0;
}
