// End-to-end: SDK ingestion against the real binary on every available backend — the tracked
// event and its variant, batches with per-item errors, identify, enrichment, sessions (also
// across two processes), the project switches, usage counters, CORS, the rate-limit exemption,
// and durability: every acknowledged event survives `kill -9`.
#include "harness.h"

#include "api_client.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <random>
#include <set>
#include <thread>

namespace sightline::e2e {
namespace {

namespace json = boost::json;

constexpr char kIphone[] =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
    "Gecko) Version/17.1 Mobile/15E148 Safari/604.1";
constexpr char kVisitor[] = "8b0c4a3e-5f1d-4c2a-9b7e-1f2d3c4b5a69";

class Ingest : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    creds_ = Bootstrap(GetParam(), Unique("shop"), "Web");
    server_ = std::make_unique<ServerProcess>(GetParam(), ExtraArgs());
  }
  virtual std::vector<std::string> ExtraArgs() { return {}; }

  Response Track(const std::string& body, Headers extra = {}, ServerProcess* server = nullptr) {
    extra["x-sdk-key"] = creds_.sdk_key;
    extra["Content-Type"] = "application/json";
    if (!extra.contains("User-Agent")) extra["User-Agent"] = kIphone;
    return (server ? server : server_.get())->Request("POST", "/sdk/v1/logs", extra, body);
  }
  ApiClient api() const { return ApiClient(*server_); }
  // `path` under the project, with its private key.
  Response Private(const std::string& method, const std::string& path, const std::string& body = "") {
    return api().Call(method, creds_.ProjectPath() + path, creds_.private_api_key, body);
  }
  json::array Events(const std::string& query = "") {
    const Response r = Private("GET", "/events?limit=500" + query);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().at("events").as_array();
  }

  Credentials creds_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_P(Ingest, ATrackedEventIsCommittedAndEnriched) {
  const Response r = Track(R"({"event":"signup","channel":"users","anonymous_id":")" +
                           std::string(kVisitor) +
                           R"(","user_id":"u-1","icon":"🎉","tags":{"plan":"pro","seats":3,)"
                           R"("$url":"https://shop.test/pricing/%C3%A9t%C3%A9?utm_source=news&utm_medium=email&utm_campaign=fall#top",)"
                           R"("$referrer":"https://news.test/article"}})");
  ASSERT_EQ(r.status, 202) << r.body;
  const json::object ack = r.Json().as_object();
  EXPECT_EQ(ack.at("event").as_string(), "signup");
  const std::string id(ack.at("id").as_string());
  EXPECT_EQ(id.size(), 36u);
  EXPECT_EQ(ack.at("timestamp").as_string().size(), 24u);

  const json::array events = Events();
  ASSERT_EQ(events.size(), 1u);
  const json::object& e = events[0].as_object();
  EXPECT_EQ(e.at("id").as_string(), id);
  EXPECT_EQ(e.at("userId").as_string(), "u-1");
  const json::object& tags = e.at("tags").as_object();
  EXPECT_EQ(tags.at("plan").as_string(), "pro");
  EXPECT_EQ(tags.at("seats").as_int64(), 3);
  EXPECT_EQ(tags.at("__os").as_string(), "iOS");
  EXPECT_EQ(tags.at("__device").as_string(), "mobile");
  EXPECT_EQ(tags.at("__brand").as_string(), "Apple");
  EXPECT_EQ(tags.at("__path").as_string(), "/pricing/\xC3\xA9t\xC3\xA9");
  EXPECT_EQ(tags.at("__utm_source").as_string(), "news");
  EXPECT_EQ(tags.at("__utm_medium").as_string(), "email");
  EXPECT_EQ(tags.at("__utm_campaign").as_string(), "fall");
  EXPECT_EQ(tags.at("__referrer").as_string(), "https://news.test/article");
  EXPECT_EQ(tags.at("__actor_type").as_string(), "human");
  EXPECT_FALSE(tags.contains("__is_bot"));
  EXPECT_EQ(tags.at("__session_id").as_string().size(), 36u);
  EXPECT_FALSE(e.contains("ip")) << "IP logging is off by default";
}

TEST_P(Ingest, TheGuidesVariantAndTheRefererFallbackWork) {
  const Response r = Track(R"({"event":"view","properties":{"channel":"pages","tags":{"k":"v"}}})",
                           {{"Referer", "https://shop.test/cart?utm_source=ads"}});
  ASSERT_EQ(r.status, 202) << r.body;
  const json::array events = Events();
  const json::object& tags = events.at(0).at("tags").as_object();
  EXPECT_EQ(tags.at("k").as_string(), "v");
  EXPECT_EQ(tags.at("__path").as_string(), "/cart");
  EXPECT_EQ(tags.at("__utm_source").as_string(), "ads");
}

TEST_P(Ingest, InvalidEventsAreRefusedWithTheField) {
  auto field = [&](const std::string& body) {
    const Response r = Track(body);
    EXPECT_EQ(r.status, 400) << r.body;
    return std::string(r.Json().at("error").at("details").at("field").as_string());
  };
  EXPECT_EQ(field(R"({"channel":"c"})"), "event");
  EXPECT_EQ(field(R"({"event":"e"})"), "channel");
  EXPECT_EQ(field(R"({"event":5,"channel":"c"})"), "event");
  EXPECT_EQ(field(R"({"event":"e","channel":"c","tags":{"x":[1]}})"), "tags.x");
  EXPECT_EQ(field(R"({"event":"e","channel":"c","notify":"yes"})"), "notify");
  EXPECT_EQ(field(R"({"event":"e","channel":"c","anonymous_id":"nope"})"), "anonymous_id");
  EXPECT_EQ(field(R"({"event":"e","channel":"c","timestamp":-5})"), "timestamp");
  EXPECT_EQ(field(R"({"event":")" + std::string(201, 'x') + R"(","channel":"c"})"), "event");
  EXPECT_EQ(Track(R"({"event":)").ErrorCode(), "VAL_002");
  EXPECT_TRUE(Events().empty()) << "nothing of a refused request is stored";
}

TEST_P(Ingest, SdkRoutesTakeOnlyTheSdkKey) {
  Headers none{{"Content-Type", "application/json"}};
  const std::string body = R"({"event":"e","channel":"c"})";
  EXPECT_EQ(server_->Request("POST", "/sdk/v1/logs", none, body).ErrorCode(), "AUTH_003");
  Headers wrong = none;
  wrong["x-sdk-key"] = "pk_service_0123456789abcdefghijABCDEFGHIJ01";
  EXPECT_EQ(server_->Request("POST", "/sdk/v1/logs", wrong, body).ErrorCode(), "AUTH_002");
  Headers secret = none;
  secret["Authorization"] = "Bearer " + creds_.private_api_key;
  EXPECT_EQ(server_->Request("POST", "/sdk/v1/logs", secret, body).ErrorCode(), "AUTH_005");
  Headers api_key = none;
  api_key["X-API-Key"] = creds_.sdk_key;
  EXPECT_EQ(server_->Request("POST", "/sdk/v1/logs", api_key, body).status, 202);
}

TEST_P(Ingest, ABatchStoresTheValidEventsAndReportsTheOthers) {
  const Response r = server_->Request(
      "POST", "/sdk/v1/logs/batch",
      {{"x-sdk-key", creds_.sdk_key}, {"Content-Type", "application/json"}, {"User-Agent", kIphone}},
      R"({"events":[{"event":"a","channel":"c"},{"event":"b"},{"event":"c","channel":"c"}]})");
  ASSERT_EQ(r.status, 202) << r.body;
  EXPECT_EQ(r.Json().at("accepted").as_int64(), 2);
  EXPECT_EQ(r.Json().at("total").as_int64(), 3);
  const json::value answer = r.Json();
  const json::array& errors = answer.at("errors").as_array();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].at("index").as_int64(), 1);
  EXPECT_EQ(errors[0].at("error").at("details").at("field").as_string(), "events[1].channel");
  EXPECT_EQ(Events().size(), 2u);

  std::string big = R"({"events":[)";
  for (int i = 0; i < 501; ++i) big += std::string(i ? "," : "") + R"({"event":"e","channel":"c"})";
  big += "]}";
  const Response too_many = server_->Request(
      "POST", "/sdk/v1/logs/batch", {{"x-sdk-key", creds_.sdk_key}, {"Content-Type", "application/json"}}, big);
  EXPECT_EQ(too_many.status, 400);
  EXPECT_EQ(too_many.ErrorCode(), "VAL_003");
}

TEST_P(Ingest, IdentifyLinksTheVisitor) {
  const Headers sdk{{"x-sdk-key", creds_.sdk_key}, {"Content-Type", "application/json"}};
  const Response ok = server_->Request(
      "POST", "/sdk/v1/identify", sdk,
      R"({"anonymous_id":")" + std::string(kVisitor) + R"(","user_id":"u-7","traits":{"plan":"pro"}})");
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_TRUE(ok.Json().at("success").as_bool());
  EXPECT_EQ(server_->Request("POST", "/sdk/v1/identify", sdk, R"({"user_id":"u"})").status, 400);
}

TEST_P(Ingest, SessionsFollowThirtyMinutesOfInactivityAcrossProcesses) {
  const std::int64_t start = 1767225600000;  // fixed client times drive the session clock
  auto at = [&](std::int64_t offset_ms, ServerProcess* server) {
    const Response r = Track(R"({"event":"e","channel":"c","anonymous_id":")" + std::string(kVisitor) +
                                 R"(","timestamp":)" + std::to_string(start + offset_ms) + "}",
                             {}, server);
    EXPECT_EQ(r.status, 202) << r.body;
  };
  ServerProcess other(GetParam());
  at(0, server_.get());
  at(10 * 60 * 1000, &other);  // 10 minutes later, on another node: same session
  at(45 * 60 * 1000, server_.get());  // 35 minutes of inactivity: a new session
  const json::array events = Events();  // newest first
  ASSERT_EQ(events.size(), 3u);
  auto session = [&](std::size_t i) {
    return std::string(events[i].at("tags").at("__session_id").as_string());
  };
  EXPECT_EQ(session(2), session(1));
  EXPECT_NE(session(1), session(0));
}

TEST_P(Ingest, ProjectSwitchesDecideWhatIsKeptAndCounted) {
  const std::string ping = R"({"event":"ping","channel":"c"})";
  const std::string headless =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
      "HeadlessChrome/126.0.0.0 Safari/537.36";
  ASSERT_EQ(Track(ping, {{"User-Agent", headless}}).status, 202);  // a bot, stored flagged
  ASSERT_EQ(Track(R"({"event":"human","channel":"c"})").status, 202);
  ASSERT_EQ(Private("PATCH", "", R"({"botDetection":false})").status, 200);
  ASSERT_EQ(Track(ping, {{"User-Agent", "Googlebot/2.1 (+http://www.google.com/bot.html)"}}).status,
            202);  // dropped
  ASSERT_EQ(Private("PATCH", "", R"({"eventStorage":false})").status, 200);
  ASSERT_EQ(Track(R"({"event":"discarded","channel":"c"})").status, 202);  // accepted, not kept

  const json::array events = Events();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].at("event").as_string(), "human");
  EXPECT_EQ(events[1].at("tags").at("__is_bot").as_int64(), 1);
  const json::value usage = Private("GET", "/usage").Json();
  EXPECT_EQ(usage.at("months").at(0).at("humanEvents").as_int64(), 1);
  EXPECT_EQ(usage.at("months").at(0).at("botEvents").as_int64(), 1);
}

TEST_P(Ingest, IpsAreKeptOnlyWhenLoggingIsOnAndProxyHeadersOnlyFromTrustedProxies) {
  ASSERT_EQ(Private("PATCH", "", R"({"ipLogging":true})").status, 200);
  ASSERT_EQ(Track(R"({"event":"e","channel":"c"})", {{"X-Forwarded-For", "203.0.113.9"}}).status, 202);
  EXPECT_EQ(Events()[0].at("ip").as_string(), "127.0.0.1") << "the header came from an untrusted peer";
  ServerProcess trusting(GetParam(), {"--trusted-proxies", "127.0.0.1/32, ::1, 10.0.0.0/8"});
  ASSERT_EQ(Track(R"({"event":"e","channel":"c"})",
                  {{"X-Forwarded-For", "203.0.113.9, 10.0.0.1"}}, &trusting)
                .status,
            202);
  EXPECT_EQ(Events()[0].at("ip").as_string(), "203.0.113.9");
  // With the geolocation database installed (script/test), a public visitor IP is placed.
  if (std::getenv("SIGHTLINE_GEOIP") != nullptr) {
    ASSERT_EQ(Track(R"({"event":"e","channel":"c"})", {{"CF-Connecting-IP", "8.8.8.8"}}, &trusting)
                  .status,
              202);
    const json::array events = Events();
    EXPECT_EQ(events.at(0).at("tags").at("__country").as_string(), "US");
    EXPECT_FALSE(events.at(0).at("tags").at("__city").as_string().empty());
  }
}

TEST_P(Ingest, NotifyRaisesANotificationAndBrowsersGetCors) {
  ASSERT_EQ(Track(R"({"event":"sale","channel":"payments","notify":true,"icon":"💰"})").status, 202);
  const json::value notes = Private("GET", "/notifications").Json();
  ASSERT_EQ(notes.at("notifications").as_array().size(), 1u);
  EXPECT_EQ(notes.at("notifications").at(0).at("event").as_string(), "sale");

  const Response preflight = server_->Request(
      "OPTIONS", "/sdk/v1/logs/batch",
      {{"Origin", "https://shop.test"}, {"Access-Control-Request-Method", "POST"},
       {"Access-Control-Request-Headers", "content-type, x-sdk-key"}});
  EXPECT_EQ(preflight.status, 204);
  EXPECT_EQ(preflight.Header("access-control-allow-origin"), "*");
  EXPECT_EQ(preflight.Header("access-control-allow-headers"), "content-type, x-sdk-key");
  const Response refused = Track(R"({"event":"e"})", {{"Origin", "https://shop.test"}});
  EXPECT_EQ(refused.status, 400);
  EXPECT_EQ(refused.Header("access-control-allow-origin"), "*") << "errors are readable too";
}

TEST_P(Ingest, NotificationsStreamLiveAcrossNodes) {
  ServerProcess other(GetParam());  // the subscriber's node; events arrive through server_
  HttpConnection stream(other.port());
  stream.Write("GET /api" + creds_.ProjectPath() + "/notifications/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
               creds_.private_api_key + "\r\n\r\n");
  const std::string head = stream.ReadUntil("\r\n\r\n", std::chrono::seconds(5));
  ASSERT_NE(head.find("200 OK"), std::string::npos) << head;
  ASSERT_NE(head.find("text/event-stream"), std::string::npos) << head;
  ASSERT_EQ(Track(R"({"event":"quiet","channel":"c"})").status, 202);  // no notify: not streamed
  ASSERT_EQ(Track(R"({"event":"sale","channel":"payments","notify":true})").status, 202);
  const std::string body = stream.ReadUntil("\"sale\"", std::chrono::seconds(5));
  EXPECT_NE(body.find("event: notification"), std::string::npos) << body;
  EXPECT_NE(body.find("\"event\":\"sale\""), std::string::npos) << body;
  EXPECT_EQ(body.find("quiet"), std::string::npos) << body;
  // A key of another tenant cannot subscribe.
  const Credentials other_tenant = Bootstrap(GetParam(), Unique("rival"), "Web");
  const Response refused = other.Request(
      "GET", creds_.ProjectPath() + "/notifications/stream", Bearer(other_tenant.private_api_key));
  EXPECT_EQ(refused.status, 404);
}

// The gate authenticates a subscription again while it is open: a revoked key's stream ends
// within a few polls, as its next request would be refused.
TEST_P(Ingest, ARevokedKeysNotificationStreamEnds) {
  const std::string owner = api().SignIn(creds_.owner_email);
  const Response key = api().Call("POST", creds_.ProjectPath() + "/private-api-keys", owner,
                                  R"({"name":"stream"})");
  ASSERT_EQ(key.status, 201) << key.body;
  HttpConnection stream(server_->port());
  stream.Write("GET /api" + creds_.ProjectPath() + "/notifications/stream HTTP/1.1\r\nHost: x\r\n" +
               "Authorization: Bearer " + std::string(key.Json().at("key").as_string()) +
               "\r\n\r\n");
  const std::string head = stream.ReadUntil("\r\n\r\n", std::chrono::seconds(5));
  ASSERT_NE(head.find("200 OK"), std::string::npos) << head;
  ASSERT_EQ(api().Call("DELETE", creds_.ProjectPath() + "/private-api-keys/" +
                                     std::string(key.Json().at("id").as_string()),
                       owner)
                .status,
            204);
  // Chunked encoding's last chunk: the server ended the stream (it re-checks every 5 polls).
  const std::string rest = stream.ReadUntil("0\r\n\r\n", std::chrono::seconds(15));
  EXPECT_NE(rest.find("0\r\n\r\n"), std::string::npos) << rest;
}

TEST_P(Ingest, ServerAndAppHttpLibrariesAreClientsNotBots) {
  // A backend tracking a payment, an Android app on OkHttp, a Flutter app on Dart.
  for (const char* agent : {"python-requests/2.31.0", "okhttp/4.12.0", "Dart/3.1 (dart:io)"}) {
    ASSERT_EQ(Track(R"({"event":"payment","channel":"payments"})", {{"User-Agent", agent}}).status, 202);
  }
  ASSERT_EQ(Private("PATCH", "", R"({"botDetection":false})").status, 200);
  ASSERT_EQ(Track(R"({"event":"payment","channel":"payments"})", {{"User-Agent", "curl/8.5.0"}}).status,
            202);
  const json::array events = Events();
  ASSERT_EQ(events.size(), 4u) << "none of them was dropped as a bot";
  for (const auto& e : events) {
    EXPECT_EQ(e.at("tags").at("__actor_type").as_string(), "unknown");
    EXPECT_FALSE(e.at("tags").as_object().contains("__is_bot"));
  }
  EXPECT_EQ(Private("GET", "/usage").Json().at("months").at(0).at("humanEvents").as_int64(), 4);
}

TEST_P(Ingest, HostileBytesAreStoredAsValidUtf8OrRefused) {
  // Invalid UTF-8 and NUL in headers and decoded URLs become U+FFFD (never a 500).
  ASSERT_EQ(Track(R"({"event":"e","channel":"c","tags":{"$url":"http://x/%FF%00a?utm_source=%C3"}})",
                  {{"Referer", "http://x/%C3"}, {"User-Agent", "Mozilla/5.0 \xff\xfe"}})
                .status,
            202);
  const json::array events = Events();
  EXPECT_EQ(events.at(0).at("tags").at("__path").as_string(), "/\xEF\xBF\xBD" "a");
  EXPECT_EQ(events.at(0).at("tags").at("__utm_source").as_string(), "\xEF\xBF\xBD");
  auto field = [&](const std::string& body) {
    const Response r = Track(body);
    EXPECT_EQ(r.status, 400) << r.body;
    return r.status == 400 ? std::string(r.Json().at("error").at("details").at("field").as_string())
                           : std::string();
  };
  EXPECT_EQ(field(R"({"event":"nul\u0000tail","channel":"c"})"), "event");
  EXPECT_EQ(field(R"({"event":"e","channel":"c","tags":{"__country":"KP"}})"), "tags.__country");
  EXPECT_EQ(field(R"({"event":"e","channel":"c","tags":{"m":-1e999}})"), "tags.m");
  // One bad field in a batch is that event's error only.
  const Response batch = server_->Request(
      "POST", "/sdk/v1/logs/batch", {{"x-sdk-key", creds_.sdk_key}, {"Content-Type", "application/json"}},
      R"({"events":[{"event":"ok","channel":"c"},{"event":"bad","channel":"c","notify":"yes"}]})");
  ASSERT_EQ(batch.status, 202) << batch.body;
  EXPECT_EQ(batch.Json().at("accepted").as_int64(), 1);
}

TEST_P(Ingest, ForwardedForIsReadFromTheRightPastTrustedProxies) {
  ASSERT_EQ(Private("PATCH", "", R"({"ipLogging":true})").status, 200);
  ServerProcess trusting(GetParam(), {"--trusted-proxies", "127.0.0.1, 10.0.0.0/8"});
  auto ip_for = [&](const std::string& forwarded) {
    EXPECT_EQ(Track(R"({"event":"e","channel":"c"})", {{"X-Forwarded-For", forwarded}}, &trusting).status, 202);
    return std::string(Events().at(0).at("ip").as_string());
  };
  EXPECT_EQ(ip_for("6.6.6.6, 203.0.113.9"), "203.0.113.9") << "the client's own claim is ignored";
  EXPECT_EQ(ip_for("203.0.113.9, 10.1.2.3"), "203.0.113.9") << "our proxies are skipped";
  EXPECT_EQ(ip_for("203.0.113.7:5678"), "203.0.113.7");
  EXPECT_EQ(ip_for("garbage"), "127.0.0.1");
}

TEST_P(Ingest, ARevokedKeyLosesItsOpenStream) {
  const std::string token = api().SignIn(creds_.owner_email);
  const Response key = Private("POST", "/private-api-keys", R"({"name":"dashboard"})");
  ASSERT_EQ(key.status, 403) << "a key cannot create keys; use the session";
  const Response created =
      api().Call("POST", creds_.ProjectPath() + "/private-api-keys", token, R"({"name":"d"})");
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string secret(created.Json().at("key").as_string());
  const std::string id(created.Json().at("id").as_string());
  HttpConnection stream(server_->port());
  stream.Write("GET /api" + creds_.ProjectPath() + "/notifications/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + secret +
               "\r\n\r\n");
  ASSERT_NE(stream.ReadUntil("\r\n\r\n", std::chrono::seconds(5)).find("200 OK"), std::string::npos);
  ASSERT_EQ(api().Call("DELETE", creds_.ProjectPath() + "/private-api-keys/" + id, token).status,
            204);
  // Within the recheck interval the server ends the stream (the last chunk, "0\r\n\r\n").
  const std::string rest = stream.ReadUntil("0\r\n\r\n", std::chrono::seconds(10));
  EXPECT_NE(rest.find("0\r\n\r\n"), std::string::npos) << rest;
}

INSTANTIATE_TEST_SUITE_P(Backends, Ingest, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

class IngestUnlimited : public Ingest {
 protected:
  std::vector<std::string> ExtraArgs() override { return {"--rate-limit", "2"}; }
};

TEST_P(IngestUnlimited, IngestionIsNotRateLimited) {
  for (int i = 0; i < 6; ++i) {
    const Response r = Track(R"({"event":"e","channel":"c"})");
    ASSERT_EQ(r.status, 202) << r.body;
    EXPECT_TRUE(r.Header("x-ratelimit-limit").empty());
  }
}

// Acknowledged events survive a crash: load from several connections, kill -9 mid-stream,
// restart, and every id that got a 202 is stored.
TEST_P(IngestUnlimited, EveryAcknowledgedEventSurvivesKill9) {
  std::mutex mutex;
  std::set<std::string> acknowledged;
  std::atomic<bool> stop{false};
  std::vector<std::thread> senders;
  for (int t = 0; t < 4; ++t) {
    senders.emplace_back([&] {
      try {
        HttpConnection connection(server_->port());
        while (!stop) {
          const Response r = connection.Send(
              "POST", "/api/sdk/v1/logs",
              {{"x-sdk-key", creds_.sdk_key}, {"Content-Type", "application/json"}},
              R"({"event":"load","channel":"c"})");
          if (r.status != 202) break;
          std::lock_guard lock(mutex);
          acknowledged.insert(std::string(r.Json().at("id").as_string()));
        }
      } catch (const std::exception&) {
        // the server died under us: expected
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  server_->SendSignal(SIGKILL);
  stop = true;
  for (auto& t : senders) t.join();
  server_->WaitForExit(std::chrono::seconds(10));
  ASSERT_GT(acknowledged.size(), 20u);

  server_ = std::make_unique<ServerProcess>(GetParam());  // reading back needs no low limit
  std::set<std::string> stored;
  std::string cursor;
  for (;;) {
    const Response page = Private("GET", "/events?limit=500" + (cursor.empty() ? "" : "&cursor=" + cursor));
    ASSERT_EQ(page.status, 200);
    const json::value body = page.Json();
    for (const auto& e : body.at("events").as_array()) stored.insert(std::string(e.at("id").as_string()));
    if (body.at("nextCursor").is_null()) break;
    cursor = std::string(body.at("nextCursor").as_string());
  }
  std::size_t missing = 0;
  for (const auto& id : acknowledged) missing += stored.contains(id) ? 0 : 1;
  EXPECT_EQ(missing, 0u) << "of " << acknowledged.size() << " acknowledged events";
  std::cout << "[ kill -9 ] " << acknowledged.size() << " acknowledged, " << stored.size()
            << " stored, " << missing << " missing\n";
}

INSTANTIATE_TEST_SUITE_P(Backends, IngestUnlimited, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
