// The conformance suite's 2026-07-28 fixtures (test-only, `sightline_mcp_fixtures`): tools
// and a prompt that need the client's input answer with an `input_required` result (SEP-2322)
// naming what they need, and finish when the client calls again with `inputResponses`; a tool
// that needs a capability the request did not declare is refused with -32021. The
// `requestState` they hand out is HMAC-signed with the caller, an expiry and the request it
// belongs to, since the client sends it back and may have changed it. Thread-safe (immutable).
#pragma once

#include "mcp/extension.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::mcp {

// A JSON-RPC answer with the HTTP status it travels with.
struct FixtureAnswer {
  int status = 200;
  boost::json::object message;
};

class InputRequiredFixtures {
 public:
  InputRequiredFixtures();
  boost::json::array Tools() const;
  bool HasTool(std::string_view name) const;
  // A tools/call of one of Tools().
  FixtureAnswer CallTool(const ExtensionCall& call, std::int64_t now_ms) const;
  boost::json::object Prompt() const;  // the prompts/list entry
  bool IsPrompt(std::string_view name) const;
  // A prompts/get of Prompt().
  FixtureAnswer GetPrompt(const boost::json::value& id, const boost::json::object& params,
                          const ExtensionRequest& request, std::int64_t now_ms) const;

 private:
  std::string key_;  // signs requestState; new at every start (the fixture server is one node)
};

}  // namespace sightline::mcp
