#include "tests/mcp_fixture_server/fixture_call.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <thread>

#include "core/clock.h"
#include "core/json_util.h"
#include "mcp/answers.h"
#include "mcp/protocol.h"

namespace sightline::mcp {
namespace {

namespace json = boost::json;

// What the fixture's thread has written and the stream has yet to send.
struct Outbox {
  std::mutex mutex;
  std::deque<std::string> events;
  bool finished = false;

  void Push(const json::object& message) {
    std::lock_guard lock(mutex);
    events.push_back(SseEvent(message));
  }
};

class OutboxStream final : public core::ResponseStream {
 public:
  explicit OutboxStream(std::shared_ptr<Outbox> outbox) : outbox_(std::move(outbox)) {}
  std::chrono::milliseconds poll_interval() const override { return std::chrono::milliseconds(5); }
  std::optional<std::string> Poll() override {
    std::lock_guard lock(outbox_->mutex);
    if (outbox_->events.empty()) {
      if (outbox_->finished) return std::nullopt;
      return std::string();
    }
    std::string out;
    while (!outbox_->events.empty()) {
      out += outbox_->events.front();
      outbox_->events.pop_front();
    }
    return out;
  }

 private:
  std::shared_ptr<Outbox> outbox_;
};

class StreamChannel final : public FixtureChannel {
 public:
  StreamChannel(std::shared_ptr<Outbox> outbox, const FixtureCall& call,
                std::shared_ptr<PendingRequests> pending)
      : outbox_(std::move(outbox)), call_(call), pending_(std::move(pending)) {}

  void Log(std::string_view level, std::string_view text) override {
    const auto rank = LogLevelRank(level);
    const auto threshold = LogLevelRank(call_.request.log_level);
    if (!threshold || (rank && *rank < *threshold)) return;  // no level asked for: no logs
    outbox_->Push(NotificationMessage(
        "notifications/message", {{"level", level}, {"logger", "conformance"}, {"data", text}}));
  }
  void Progress(double progress, double total) override {
    if (call_.progress_token.is_null()) return;
    outbox_->Push(NotificationMessage(
        "notifications/progress",
        {{"progressToken", call_.progress_token}, {"progress", progress}, {"total", total}}));
  }
  std::optional<json::value> Request(std::string_view method, json::object params,
                                     std::chrono::milliseconds timeout) override {
    static std::atomic<std::uint64_t> next{1};
    const json::value id(json::string("sightline-" + std::to_string(next++)));
    const std::string key = PendingKey(call_.request.session_hash, id);
    auto waiter = pending_->Expect(key);
    outbox_->Push(json::object{
        {"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
    return pending_->Wait(key, waiter, timeout);
  }

 private:
  std::shared_ptr<Outbox> outbox_;
  const FixtureCall& call_;
  std::shared_ptr<PendingRequests> pending_;
};

}  // namespace

struct PendingRequests::Waiter {
  std::condition_variable ready;
  std::optional<json::value> answer;
};

std::string PendingKey(std::string_view session_hash, const json::value& id) {
  return std::string(session_hash) + "|" + core::ToJson(id);
}

std::shared_ptr<PendingRequests::Waiter> PendingRequests::Expect(const std::string& key) {
  auto waiter = std::make_shared<Waiter>();
  std::lock_guard lock(mutex_);
  waiting_[key] = waiter;
  return waiter;
}

std::optional<json::value> PendingRequests::Wait(const std::string& key,
                                                 const std::shared_ptr<Waiter>& waiter,
                                                 std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  waiter->ready.wait_for(lock, timeout, [&] { return waiter->answer.has_value(); });
  waiting_.erase(key);
  return waiter->answer;
}

void PendingRequests::Resolve(const std::string& key, json::value answer) {
  std::lock_guard lock(mutex_);
  const auto found = waiting_.find(key);
  if (found == waiting_.end()) return;
  found->second->answer = std::move(answer);
  found->second->ready.notify_all();
}

core::HttpResponse StartFixtureCall(const ConformanceFixtures& fixtures, FixtureCall call,
                                    std::shared_ptr<PendingRequests> pending) {
  auto outbox = std::make_shared<Outbox>();
  // The fixtures are stateless; the thread keeps its own copy of everything it touches.
  std::thread([fixtures, call = std::move(call), outbox, pending = std::move(pending)] {
    StreamChannel channel(outbox, call, pending);
    json::object result = fixtures.CallTool(call.tool, call.arguments, channel);
    if (call.request.era == Era::kModern) MarkComplete(result, call.request.server_info);
    outbox->Push(ResultMessage(call.request_id, result));
    std::lock_guard lock(outbox->mutex);
    outbox->finished = true;
  }).detach();
  core::HttpResponse response;
  response.headers.Set("Content-Type", "text/event-stream");
  response.headers.Set("Cache-Control", "no-cache");
  response.headers.Set("X-Accel-Buffering", "no");
  response.stream = std::make_shared<OutboxStream>(std::move(outbox));
  return response;
}

json::array ConformanceExtension::Tools() const {
  json::array tools = fixtures_.Tools();
  for (json::value& tool : input_required_.Tools()) tools.push_back(std::move(tool));
  return tools;
}

bool ConformanceExtension::HasTool(std::string_view name) const {
  return fixtures_.HasTool(name) || input_required_.HasTool(name);
}

core::HttpResponse ConformanceExtension::CallTool(ExtensionCall call) const {
  if (input_required_.HasTool(call.tool)) {
    const FixtureAnswer answer = input_required_.CallTool(call, core::SystemClock().NowMillis());
    return JsonAnswer(answer.message, answer.status);
  }
  return StartFixtureCall(fixtures_, std::move(call), pending_);
}

std::optional<json::object> ConformanceExtension::Handle(std::string_view method,
                                                         const json::value& id,
                                                         const json::object& params,
                                                         const ExtensionRequest& request) const {
  const json::value* name = params.if_contains("name");
  if (method == "prompts/get" && name && name->is_string() &&
      input_required_.IsPrompt(name->as_string())) {
    return input_required_.GetPrompt(id, params, request, core::SystemClock().NowMillis()).message;
  }
  auto answer = fixtures_.Handle(method, id, params, request.era);
  if (method == "prompts/list" && answer && answer->contains("result")) {
    answer->at("result").as_object().at("prompts").as_array().push_back(input_required_.Prompt());
  }
  return answer;
}

}  // namespace sightline::mcp
