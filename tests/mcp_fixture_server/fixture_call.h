// Running a conformance fixture tool (conformance_fixtures.h) as MCP expects of a tool that
// talks back while it runs: the tools/call is answered as Server-Sent Events carrying its log
// and progress notifications and its requests to the client, then the result; the client's
// answers to those requests arrive as separate POSTs and are routed here by request id. Kept
// in this node's memory: the fixture server is one node, for tests. Thread-safe.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "core/http_types.h"
#include "mcp/extension.h"
#include "tests/mcp_fixture_server/conformance_fixtures.h"
#include "tests/mcp_fixture_server/input_required_fixtures.h"

namespace sightline::mcp {

// Requests this server sent to clients, awaiting their answers.
class PendingRequests {
 public:
  struct Waiter;
  // Registers `key` (session and request id); Wait returns Resolve's answer.
  std::shared_ptr<Waiter> Expect(const std::string& key);
  std::optional<boost::json::value> Wait(const std::string& key,
                                         const std::shared_ptr<Waiter>& waiter,
                                         std::chrono::milliseconds timeout);
  // A client's answer; ignored when nothing waits for `key`.
  void Resolve(const std::string& key, boost::json::value answer);

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Waiter>> waiting_;
};

// The key of a server→client request: session hash and JSON-encoded id.
std::string PendingKey(std::string_view session_hash, const boost::json::value& id);

using FixtureCall = ExtensionCall;

// Starts the fixture on its own thread and returns the event-stream response it writes to.
core::HttpResponse StartFixtureCall(const ConformanceFixtures& fixtures, FixtureCall call,
                                    std::shared_ptr<PendingRequests> pending);

// The conformance fixtures as an extension of the MCP server: those of both eras, and the
// 2026-07-28 ones that ask for the client's input.
class ConformanceExtension final : public McpExtension {
 public:
  ConformanceExtension() : pending_(std::make_shared<PendingRequests>()) {}
  boost::json::object Capabilities(Era era) const override {
    return fixtures_.Capabilities(era);
  }
  boost::json::array Tools() const override;
  bool HasTool(std::string_view name) const override;
  core::HttpResponse CallTool(ExtensionCall call) const override;
  std::optional<boost::json::object> Handle(std::string_view method,
                                            const boost::json::value& id,
                                            const boost::json::object& params,
                                            const ExtensionRequest& request) const override;
  void Answer(std::string_view session_hash, const boost::json::value& id,
              boost::json::value response) const override {
    pending_->Resolve(PendingKey(session_hash, id), std::move(response));
  }

 private:
  ConformanceFixtures fixtures_;
  InputRequiredFixtures input_required_;
  std::shared_ptr<PendingRequests> pending_;
};

}  // namespace sightline::mcp
