#include "net/https_fetcher.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/unit/testing/loopback_https_server.h"

namespace sightline::net {
namespace {

using namespace std::chrono_literals;
using testutil::LoopbackHttpsServer;

// The answer of one fetch; a second answer would throw (std::future_error), failing the test.
std::future<core::Result<std::string>> FetchAnswer(HttpsFetcher& fetcher, const std::string& url) {
  auto promise = std::make_shared<std::promise<core::Result<std::string>>>();
  auto answer = promise->get_future();
  fetcher.Fetch(url,
                [promise](core::Result<std::string> body) { promise->set_value(std::move(body)); });
  return answer;
}

// A loopback listener that never accepts: connections complete in its backlog, and the TLS
// handshake then waits for ever (a vendor that never answers). Closed with the object.
class SilentListener {
 public:
  SilentListener() {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    bind(fd_, reinterpret_cast<sockaddr*>(&address), length);
    listen(fd_, 64);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length);
    url_ = "https://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/list.json";
  }
  ~SilentListener() { close(fd_); }
  const std::string& url() const { return url_; }

 private:
  int fd_ = socket(AF_INET, SOCK_STREAM, 0);
  std::string url_;
};

HttpsFetcherOptions LoopbackOptions(const std::string& ca_file, int max_in_flight) {
  return {.allow_private_addresses = true,
          .ca_file = ca_file,
          .timeout = std::chrono::seconds(30),  // longer than any test: answers never time out
          .max_in_flight = max_in_flight};
}

TEST(HttpsFetcher, QueuesFetchesBeyondItsConnectionsAndCompletesThemAll) {
  LoopbackHttpsServer server(100ms);
  ASSERT_TRUE(server.ok());
  server.Put("/list.json", R"({"prefixes":[]})");
  HttpsFetcher fetcher(LoopbackOptions(server.ca_file(), 2));
  std::vector<std::future<core::Result<std::string>>> answers;
  for (int i = 0; i < 10; ++i) answers.push_back(FetchAnswer(fetcher, server.url() + "/list.json"));
  for (auto& answer : answers) {
    ASSERT_EQ(answer.wait_for(20s), std::future_status::ready);
    const auto body = answer.get();
    ASSERT_TRUE(body) << body.error().message();
    EXPECT_EQ(*body, R"({"prefixes":[]})");
  }
  EXPECT_EQ(server.answered(), 10);
  EXPECT_LE(server.most_at_once(), 2) << "never more connections than slots";
}

TEST(HttpsFetcher, RefusesOnlyBeyondItsQueueAndSaysWhy) {
  SilentListener silent;
  HttpsFetcherOptions options = LoopbackOptions("", 1);
  options.max_queued = 2;
  HttpsFetcher fetcher(options);
  std::vector<std::future<core::Result<std::string>>> accepted;
  for (int i = 0; i < 3; ++i) accepted.push_back(FetchAnswer(fetcher, silent.url()));
  auto refused = FetchAnswer(fetcher, silent.url());
  ASSERT_EQ(refused.wait_for(0s), std::future_status::ready) << "refused at once";
  const auto error = refused.get();
  ASSERT_FALSE(error);
  EXPECT_EQ(error.error().code(), core::ErrorCode::kUnavailable);
  EXPECT_EQ(error.error().message(),
            "Too many fetches waiting (2 queued behind 1 under way); try again later.");
  for (auto& answer : accepted) {
    EXPECT_EQ(answer.wait_for(0s), std::future_status::timeout) << "one under way, two queued";
  }
}

TEST(HttpsFetcher, StoppingAnswersEveryFetchUnderWayOrQueued) {
  SilentListener silent;
  auto fetcher = std::make_unique<HttpsFetcher>(LoopbackOptions("", 2));
  std::vector<std::future<core::Result<std::string>>> answers;
  for (int i = 0; i < 6; ++i) answers.push_back(FetchAnswer(*fetcher, silent.url()));
  std::this_thread::sleep_for(100ms);  // two are in their TLS handshakes by now
  const auto start = std::chrono::steady_clock::now();
  fetcher.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s) << "nothing waits for the silent peer";
  for (auto& answer : answers) {
    ASSERT_EQ(answer.wait_for(0s), std::future_status::ready) << "answered before ~HttpsFetcher";
    const auto body = answer.get();
    ASSERT_FALSE(body);
    EXPECT_EQ(body.error().code(), core::ErrorCode::kUnavailable);
  }
}

TEST(HttpsFetcher, RefusesFetchesOnceStopped) {
  HttpsFetcher fetcher(LoopbackOptions("", 1));
  fetcher.Stop();
  fetcher.Stop();  // idempotent
  auto answer = FetchAnswer(fetcher, "https://127.0.0.1:1/list.json");
  ASSERT_EQ(answer.wait_for(0s), std::future_status::ready);
  const auto body = answer.get();
  ASSERT_FALSE(body);
  EXPECT_EQ(body.error().message(), "The fetcher has stopped.");
}

}  // namespace
}  // namespace sightline::net
