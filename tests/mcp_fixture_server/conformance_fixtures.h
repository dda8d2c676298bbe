// The MCP conformance suite's fixtures: the tools, resources, prompts and completions that the
// suite's scenarios call by name (`test_simple_text`, `test://static-text`,
// `test_simple_prompt`, …), so that the protocol machinery — streamed notifications, requests to
// the client (sampling, elicitation), resources, prompts, completion — is exercised by the
// official suite. They touch no product data. Served only by the test-only server of this folder
// (`sightline_mcp_fixtures`, main.cpp), which also lets /mcp be called without a credential;
// never compiled into `sightline`. Thread-safe (stateless).
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <optional>
#include <string_view>

#include "mcp/era.h"

namespace sightline::mcp {

// What a fixture tool may do while it runs: send notifications and requests to the client on
// the call's event stream.
class FixtureChannel {
 public:
  virtual ~FixtureChannel() = default;
  // `notifications/message` at `level`, if the session's logging level lets it through.
  virtual void Log(std::string_view level, std::string_view text) = 0;
  // `notifications/progress`, when the call carried a progress token.
  virtual void Progress(double progress, double total) = 0;
  // A request to the client; its answer (the `result`, or {"error": …}) or nullopt when none
  // came within `timeout`.
  virtual std::optional<boost::json::value> Request(std::string_view method,
                                                    boost::json::object params,
                                                    std::chrono::milliseconds timeout) = 0;
};

class ConformanceFixtures {
 public:
  // Capabilities added to the server's: resources (with subscribe in the legacy era, which has
  // it), prompts, completions.
  boost::json::object Capabilities(Era era) const;
  boost::json::array Tools() const;
  bool HasTool(std::string_view name) const;
  // Runs a fixture tool to its CallToolResult; may block (delays, requests to the client).
  boost::json::object CallTool(std::string_view name, const boost::json::object& arguments,
                               FixtureChannel& channel) const;
  // resources/*, prompts/*, completion/complete: the JSON-RPC answer to the request `id`, or
  // nullopt when `method` is none of these.
  std::optional<boost::json::object> Handle(std::string_view method, const boost::json::value& id,
                                            const boost::json::object& params, Era era) const;
};

}  // namespace sightline::mcp
