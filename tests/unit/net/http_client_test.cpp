#include "net/http_client.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <string_view>
#include <utility>

#include "tests/unit/testing/loopback_https_server.h"

namespace sightline::net {
namespace {

using namespace std::chrono_literals;
using testutil::LoopbackHttpsServer;

struct Exchanged {
  core::Result<core::OutboundResponse> answer;
  std::string body;
  std::chrono::steady_clock::duration took;
};

// Sends `method` to `url` with limits far beyond what any answer here should take: an answer
// that ends only when a limit is reached shows as a failure after seconds, not as a status.
Exchanged SendTo(const LoopbackHttpsServer& server, core::HttpMethod method,
                 const std::string& url) {
  BeastHttpClient client({.ca_file = server.ca_file()});
  const core::OutboundLimits limits{
      .connect_timeout = 10s, .idle_timeout = 30s, .total_timeout = 30s};
  std::string body;
  const auto start = std::chrono::steady_clock::now();
  auto answer = client.Send(
      {.url = url, .method = method}, limits,
      [&body](const core::OutboundResponse&, std::string_view bytes) { body.append(bytes); },
      [] { return false; });
  return {std::move(answer), std::move(body), std::chrono::steady_clock::now() - start};
}

TEST(BeastHttpClient, AHeadAnswerEndsAtItsHeadWhateverItsContentLength) {
  LoopbackHttpsServer server;
  ASSERT_TRUE(server.ok());
  server.Put("/page", std::string(5000, 'x'));
  server.KeepConnectionsOpen();  // the body announced never comes, and the connection stays up

  const Exchanged head = SendTo(server, core::HttpMethod::kHead, server.url() + "/page");
  ASSERT_TRUE(head.answer) << head.answer.error().message();
  EXPECT_EQ(head.answer->status, 200);
  EXPECT_EQ(head.answer->headers.Get("Content-Length").value_or(""), "5000")
      << "the length a GET would get";
  EXPECT_EQ(head.body, "");
  EXPECT_LT(head.took, 3s) << "the client did not wait for a body";

  const Exchanged get = SendTo(server, core::HttpMethod::kGet, server.url() + "/page");
  ASSERT_TRUE(get.answer) << get.answer.error().message();
  EXPECT_EQ(get.answer->status, 200);
  EXPECT_EQ(get.body, std::string(5000, 'x')) << "GET on the same path still reads the body";
}

TEST(BeastHttpClient, NoContentAndNotModifiedAnswersEndAtTheirHead) {
  LoopbackHttpsServer server;
  ASSERT_TRUE(server.ok());
  // Both heads announce a length (RFC 9110 allows it on 304; a careless server sends it on 204)
  // and neither answer has a body.
  server.Put("/deleted", "{\"ignored\":true}", 204);
  server.Put("/cached", std::string(700, 'y'), 304);
  server.KeepConnectionsOpen();

  for (const auto& [path, status] : {std::pair{"/deleted", 204}, std::pair{"/cached", 304}}) {
    const Exchanged got = SendTo(server, core::HttpMethod::kGet, server.url() + path);
    ASSERT_TRUE(got.answer) << path << ": " << got.answer.error().message();
    EXPECT_EQ(got.answer->status, status) << path;
    EXPECT_EQ(got.body, "") << path;
    EXPECT_LT(got.took, 3s) << path << ": the client did not wait for a body";
  }
}

}  // namespace
}  // namespace sightline::net
