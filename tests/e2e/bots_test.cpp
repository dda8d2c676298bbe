// End-to-end: crawler classification and server-side ingestion against the real binary on every
// available backend, with vendor IP ranges from a directory the test writes (CIDR verification).
#include "harness.h"
#include "loopback_services.h"
#include "sample_agents.h"

#include "core/compression.h"
#include "core/crypto.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <thread>
#include <random>

namespace sightline::e2e {
namespace {

namespace json = boost::json;


std::string Item(const std::string& ua, const std::string& ip) {
  return R"({"user_agent":")" + ua + R"(","ip_address":")" + ip + R"(","path":"/docs"})";
}


class Bots : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    // OpenAI's list in the vendors' common JSON format; Google's list deliberately absent.
    std::ofstream(ranges_.path() / "gptbot.json")
        << R"({"creationTime":"2026-11-01T00:00:00","prefixes":[{"ipv4Prefix":"192.0.2.0/24"},)"
        << R"({"ipv6Prefix":"2001:db8:1::/48"}]})";
    creds_ = Bootstrap(GetParam(), Unique("media"), "Site");
    server_ = std::make_unique<ServerProcess>(
        GetParam(), std::vector<std::string>{"--bot-ranges-dir", ranges_.path().string()});
  }

  Response Post(const std::string& path, const std::string& body, const std::string& key) {
    return server_->Request("POST", path,
                            {{"Authorization", "Bearer " + key}, {"Content-Type", "application/json"}},
                            body);
  }
  // POST /bots/classify on `server` (one started with its own options).
  json::object ClassifyOn(ServerProcess& server, const std::string& item) {
    const Response r = server.Request("POST", "/bots/classify",
                                      {{"Authorization", "Bearer " + creds_.private_api_key},
                                       {"Content-Type", "application/json"}},
                                      item);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().as_object();
  }
  // Verifications run in the background, so the first answers may still be suspected_bot:
  // classifies until the answer is `wanted` or about five seconds have passed; the last answer.
  json::object ClassifyUntil(ServerProcess& server, const std::string& item,
                             std::string_view wanted) {
    json::object last;
    for (int i = 0; i < 100; ++i) {
      last = ClassifyOn(server, item);
      if (last.at("actorType").as_string() == wanted) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return last;
  }
  json::object Classify(const std::string& ua, const std::string& ip) {
    const Response r = Post("/bots/classify", Item(ua, ip), creds_.private_api_key);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().as_object();
  }

  TempDir ranges_{"sightline-ranges-"};
  Credentials creds_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_P(Bots, ClassifyVerifiesByPublishedRangesAndCallsOutSpoofs) {
  const json::object verified = Classify(kGptBot, "192.0.2.10");
  EXPECT_EQ(verified.at("actorType").as_string(), "verified_bot");
  EXPECT_EQ(verified.at("verificationMethod").as_string(), "cidr");
  EXPECT_EQ(verified.at("botName").as_string(), "GPTBot");
  EXPECT_EQ(verified.at("botVendor").as_string(), "OpenAI");
  EXPECT_EQ(verified.at("actorCategory").as_string(), "ai_training");
  EXPECT_TRUE(verified.at("isAi").as_bool());
  EXPECT_EQ(Classify(kGptBot, "2001:db8:1::7").at("actorType").as_string(), "verified_bot");

  const json::object spoofed = Classify(kGptBot, "203.0.113.5");
  EXPECT_EQ(spoofed.at("actorType").as_string(), "spoofed_bot");
  EXPECT_FALSE(spoofed.at("verified").as_bool());

  // Google's ranges are not loaded: a Googlebot claim cannot be checked, so it is only suspected.
  const json::object google = Classify(kGooglebot, "66.249.66.1");
  EXPECT_EQ(google.at("actorType").as_string(), "suspected_bot");
  EXPECT_EQ(google.at("actorCategory").as_string(), "search_engine");

  EXPECT_EQ(Classify(kChrome, "203.0.113.5").at("actorType").as_string(), "human");
  const json::object curl = Classify("curl/8.5.0", "203.0.113.5");
  EXPECT_EQ(curl.at("actorType").as_string(), "suspected_bot");
  EXPECT_EQ(curl.at("actorCategory").as_string(), "automation");

  const Response bad = Post("/bots/classify", R"({"user_agent":"x","ip_address":"not-an-ip"})",
                            creds_.private_api_key);
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.Json().at("error").at("details").at("field").as_string(), "ip_address");
}

TEST_P(Bots, ServerIngestionStoresBotsOnlyAndHonoursBotDetection) {
  const std::string batch = R"({"events":[)" + Item(kGptBot, "192.0.2.10") + "," +
                            Item(kGptBot, "203.0.113.5") + "," + Item(kChrome, "203.0.113.9") +
                            "," + Item("curl/8.5.0", "203.0.113.9") + "]}";
  const Response r = Post("/ingest/v1/server", batch, creds_.private_api_key);
  ASSERT_EQ(r.status, 202) << r.body;
  EXPECT_EQ(r.Json().at("accepted").as_int64(), 3) << "the human is skipped";
  EXPECT_EQ(r.Json().at("total").as_int64(), 4);
  const std::string project = creds_.ProjectPath();
  auto bot_events = [&] {
    const Response usage = server_->Request("GET", project + "/usage",
                                            Bearer(creds_.private_api_key));
    return usage.Json().at("months").at(0).at("botEvents").as_int64();
  };
  EXPECT_EQ(bot_events(), 3);

  ASSERT_EQ(server_->Request("PATCH", project,
                             {{"Authorization", "Bearer " + creds_.private_api_key},
                              {"Content-Type", "application/json"}},
                             R"({"botDetection":false})")
                .status,
            200);
  const Response off = Post("/ingest/v1/server", batch, creds_.private_api_key);
  ASSERT_EQ(off.status, 202);
  EXPECT_EQ(off.Json().at("accepted").as_int64(), 0) << "bot detection off: nothing stored";
  EXPECT_EQ(bot_events(), 3);
}

TEST_P(Bots, ServerIngestionRefusesBadRequestsClearly) {
  const Response sdk = Post("/ingest/v1/server", R"({"events":[]})", creds_.sdk_key);
  EXPECT_EQ(sdk.status, 401);
  const Response field = Post("/ingest/v1/server",
                              R"({"events":[)" + Item(kGptBot, "192.0.2.10") +
                                  R"(,{"user_agent":"x"}]})",
                              creds_.private_api_key);
  EXPECT_EQ(field.status, 400);
  EXPECT_EQ(field.Json().at("error").at("details").at("field").as_string(), "events[1].ip_address");
  std::string many = R"({"events":[)";
  for (int i = 0; i < 501; ++i) many += std::string(i ? "," : "") + Item(kGptBot, "192.0.2.10");
  many += "]}";
  EXPECT_EQ(Post("/ingest/v1/server", many, creds_.private_api_key).status, 400);
  // Server ingestion is not rate limited: no rate-limit headers.
  const Response ok = Post("/ingest/v1/server", R"({"events":[]})", creds_.private_api_key);
  EXPECT_EQ(ok.status, 202);
  EXPECT_TRUE(ok.Header("x-ratelimit-limit").empty());
}

TEST_P(Bots, ACrawlerRunningTheTrackingScriptIsNamedFromTheCatalog) {
  const Response tracked = server_->Request(
      "POST", "/sdk/v1/logs",
      {{"x-sdk-key", creds_.sdk_key}, {"Content-Type", "application/json"}, {"User-Agent", kGooglebot}},
      R"({"event":"page_view","channel":"pages"})");
  ASSERT_EQ(tracked.status, 202) << tracked.body;
  const Response feed = server_->Request(
      "GET", creds_.ProjectPath() + "/events",
      Bearer(creds_.private_api_key));
  const json::value events = feed.Json();
  const json::object& tags = events.at("events").at(0).at("tags").as_object();
  EXPECT_EQ(tags.at("__bot_name").as_string(), "Googlebot");
  EXPECT_EQ(tags.at("__bot_vendor").as_string(), "Google");
  EXPECT_EQ(tags.at("__actor_category").as_string(), "search_engine");
  EXPECT_EQ(tags.at("__actor_type").as_string(), "suspected_bot") << "no Google ranges loaded";
  EXPECT_EQ(tags.at("__is_bot").as_int64(), 1);
  EXPECT_EQ(tags.at("__device").as_string(), "bot");
}


TEST_P(Bots, VercelDrainStoresTheBotRequestsOfABatch) {
  const std::string batch = std::string(R"([{"source":"build","message":"Compiling"},)") +
      R"({"source":"edge","proxy":{"clientIp":"192.0.2.10","method":"GET","host":"example.com",)"
      R"("path":"/a","userAgent":[")" + kGptBot + R"("]}},)"
      R"({"source":"edge","proxy":{"clientIp":"203.0.113.9","path":"/b","userAgent":[")" +
      kChrome + R"("]}}])";
  const Response r = Post("/ingest/v1/vercel", batch, creds_.private_api_key);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Json().at("received").as_int64(), 3);
  EXPECT_EQ(r.Json().at("accepted").as_int64(), 1) << "one crawler; the build log and the human skipped";
  const Response usage = server_->Request(
      "GET", creds_.ProjectPath() + "/usage",
      Bearer(creds_.private_api_key));
  EXPECT_EQ(usage.Json().at("months").at(0).at("botEvents").as_int64(), 1);
}

TEST_P(Bots, CloudflareLogpushSendsGzippedNdjson) {
  const std::string ndjson =
      std::string(R"({"content":"test","filename":"test.txt"})") + "\n" +
      R"({"ClientIP":"192.0.2.11","ClientRequestUserAgent":")" + kGptBot +
      R"(","ClientRequestHost":"shop.example","ClientRequestURI":"/p","EdgeStartTimestamp":)" +
      "1794999990123456789}\n";
  const Response r = server_->Request("POST", "/ingest/v1/cloudflare",
                                      {{"Authorization", "Bearer " + creds_.private_api_key},
                                       {"Content-Type", "text/plain"},
                                       {"Content-Encoding", "gzip"}},
                                      core::Gzip(ndjson));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Json().at("received").as_int64(), 2);
  EXPECT_EQ(r.Json().at("accepted").as_int64(), 1);

  const Response broken = server_->Request(
      "POST", "/ingest/v1/cloudflare",
      {{"Authorization", "Bearer " + creds_.private_api_key}, {"Content-Encoding", "gzip"}},
      "not gzip at all");
  EXPECT_EQ(broken.status, 400);
  EXPECT_EQ(broken.Json().at("error").at("code").as_string(), "VAL_007");
  const Response brotli = server_->Request(
      "POST", "/ingest/v1/cloudflare",
      {{"Authorization", "Bearer " + creds_.private_api_key}, {"Content-Encoding", "br"}}, "x");
  EXPECT_EQ(brotli.status, 415);
}

TEST_P(Bots, CloudFrontRecordsArriveThroughAFirehoseDelivery) {
  const std::string record = std::string(R"({"c-ip":"192.0.2.12","cs-method":"GET",)") +
                             R"("cs-uri-stem":"/img.png","cs-user-agent":"GPTBot/1.1"})";
  const std::string delivery = R"({"requestId":"0b4e8f1c-firehose","timestamp":1795000000000,)"
                               R"("records":[{"data":")" + core::Base64Encode(record) + R"("}]})";
  const Response r = server_->Request(
      "POST", "/ingest/v1/cloudfront",
      {{"X-Amz-Firehose-Access-Key", creds_.private_api_key},
       {"X-Amz-Firehose-Request-Id", "0b4e8f1c-firehose"},
       {"Content-Type", "application/json"}},
      delivery);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Json().at("requestId").as_string(), "0b4e8f1c-firehose");
  EXPECT_GT(r.Json().at("timestamp").as_int64(), 1700000000000) << "milliseconds";

  // A wrong secret or an unreadable delivery is a non-2xx, so Firehose retries.
  const Response wrong = server_->Request("POST", "/ingest/v1/cloudfront",
                                          {{"X-Amz-Firehose-Access-Key", "sk_service_nope"}},
                                          delivery);
  EXPECT_EQ(wrong.status, 401);
  const Response bad = server_->Request("POST", "/ingest/v1/cloudfront",
                                        {{"X-Amz-Firehose-Access-Key", creds_.private_api_key}},
                                        R"({"records":"no"})");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.Json().at("error").at("code").as_string(), "VAL_002");
}

TEST_P(Bots, CloudFrontTabSeparatedRecordsNeedTheirFieldOrderInTheUrl) {
  const std::string lines = "192.0.2.12\tGET\t/a.png\tGPTBot/1.1\n"
                            "203.0.113.9\tGET\t/b\tMozilla/5.0%20(Windows%20NT%2010.0)\n";
  const std::string delivery = R"({"requestId":"tsv-1","timestamp":1795000000000,)"
                               R"("records":[{"data":")" + core::Base64Encode(lines) + R"("}]})";
  const auto deliver = [&](const std::string& target) {
    return server_->Request("POST", target,
                            {{"X-Amz-Firehose-Access-Key", creds_.private_api_key},
                             {"Content-Type", "application/json"}},
                            delivery);
  };
  const std::string project = creds_.ProjectPath();
  auto bot_events = [&] {
    const Response usage = server_->Request("GET", project + "/usage",
                                            Bearer(creds_.private_api_key));
    const json::value body = usage.Json();
    const json::array& months = body.at("months").as_array();
    return months.empty() ? 0 : months.at(0).at("botEvents").as_int64();
  };
  const Response r = deliver("/ingest/v1/cloudfront?fields=c-ip,cs-method,cs-uri-stem,cs-user-agent");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Json().at("requestId").as_string(), "tsv-1");
  EXPECT_EQ(bot_events(), 1) << "GPTBot stored; the browser skipped";
  const Response bad = deliver("/ingest/v1/cloudfront?fields=c-ip,c-ip");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.Json().at("error").at("details").at("field").as_string(), "fields");
  const Response elsewhere = server_->Request(
      "POST", "/ingest/v1/vercel?fields=c-ip",
      {{"Authorization", "Bearer " + creds_.private_api_key}, {"Content-Type", "application/json"}},
      "[]");
  EXPECT_EQ(elsewhere.status, 400) << "fields configures the cloudfront drain only";
}

TEST_P(Bots, LogDrainsRefuseUnknownSourcesAndOtherKeys) {
  const Response unknown = Post("/ingest/v1/heroku", "[]", creds_.private_api_key);
  EXPECT_EQ(unknown.status, 400);
  EXPECT_EQ(unknown.Json().at("error").at("details").at("field").as_string(), "source");
  EXPECT_EQ(Post("/ingest/v1/netlify", "[]", creds_.sdk_key).status, 401);
  EXPECT_EQ(Post("/ingest/v1/netlify", "<html>", creds_.private_api_key).status, 400);
  const Response empty = Post("/ingest/v1/netlify", "", creds_.private_api_key);
  ASSERT_EQ(empty.status, 200) << empty.body;
  EXPECT_EQ(empty.Json().at("received").as_int64(), 0);
  // The literal route still wins over the drain's {source}.
  EXPECT_EQ(Post("/ingest/v1/server", R"({"events":[]})", creds_.private_api_key).status, 202);
}

INSTANTIATE_TEST_SUITE_P(Backends, Bots, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

// Forward-confirmed reverse DNS against a real DNS server (dnsmasq) on loopback.
TEST_P(Bots, ReverseDnsVerifiesCrawlersWithoutPublishedRanges) {
  const Dnsmasq dns({"--host-record=crawl-66-249-66-1.googlebot.com,66.249.66.1",
                     "--host-record=crawl-fake.googlebot.com,203.0.113.99",
                     "--ptr-record=50.113.0.203.in-addr.arpa,crawl-fake.googlebot.com"});
  ServerProcess server(GetParam(), {"--dns-server", dns.address()});
  const json::object real =
      ClassifyUntil(server, Item(kGooglebot, "66.249.66.1"), "verified_bot");
  EXPECT_EQ(real.at("actorType").as_string(), "verified_bot");
  EXPECT_EQ(real.at("verificationMethod").as_string(), "reverse_dns");
  EXPECT_EQ(ClassifyUntil(server, Item(kGooglebot, "203.0.113.50"), "spoofed_bot")
                .at("actorType")
                .as_string(),
            "spoofed_bot")
      << "its PTR name resolves elsewhere";
}

TEST_P(Bots, AnUnreachableResolverNeverRefutesACrawler) {
  ServerProcess server(GetParam(), {"--dns-server", "127.0.0.1:" + std::to_string(FreeDnsPort())});
  const std::string item = Item(kGooglebot, "66.249.66.1");
  ClassifyOn(server, item);  // starts the lookup, which fails (nothing listens there)
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(ClassifyOn(server, item).at("actorType").as_string(), "suspected_bot")
      << "a DNS failure is no verdict, not a spoof";
}

// Range lists fetched over HTTPS from a mirror on loopback: `admin refresh-ranges` stores the
// last good copy, servers load it at start, and a server's own periodic refresh does the same.
TEST_P(Bots, RangeListsAreRefreshedIntoTheStoreAndUsedByEveryServer) {
  const TempDir temp("sightline-mirror-");
  const std::filesystem::path& dir = temp.path();
  MakeLoopbackCertificate(dir);
  std::filesystem::create_directory(dir / "www");
  std::ofstream(dir / "www" / "bingbot.json")
      << R"({"creationTime":"2026-11-01T00:00:00","prefixes":[{"ipv4Prefix":"198.51.100.0/24"}]})";
  std::ofstream(dir / "www" / "ccbot.json") << "<html>not a range list</html>";
  ChildProcess mirror("node", {(SourceDir() / "tests/interop/static_https_server.mjs").string(),
                               (dir / "cert.pem").string(), (dir / "key.pem").string(),
                               (dir / "www").string()});
  const std::string url =
      "https://127.0.0.1:" +
      std::to_string(json::parse(mirror.FirstLine()).at("port").as_int64());

  std::vector<std::string> args = {"admin", "refresh-ranges", "--bot-ranges-mirror", url,
                                   "--outbound-ca", (dir / "cert.pem").string()};
  for (const auto& a : GetParam().StorageArgs()) args.push_back(a);
  const CommandResult refreshed = RunSightline(args);
  EXPECT_EQ(refreshed.exit_code, 1) << "most lists are missing from the mirror";
  EXPECT_NE(refreshed.out.find(R"({"list":"bingbot","ok":true)"), std::string::npos)
      << refreshed.out << refreshed.err;
  EXPECT_NE(refreshed.out.find(R"({"list":"ccbot","ok":false)"), std::string::npos)
      << "a broken list is refused, not stored";

  const std::string bingbot = Item(
      "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "198.51.100.20");
  {
    ServerProcess server(GetParam());  // no --bot-ranges-dir: the stored copy
    const json::object verified = ClassifyOn(server, bingbot);
    EXPECT_EQ(verified.at("actorType").as_string(), "verified_bot");
    EXPECT_EQ(verified.at("verificationMethod").as_string(), "cidr");
  }
  // A server refreshing by itself picks up a changed list.
  std::ofstream(dir / "www" / "bingbot.json", std::ios::trunc)
      << R"({"prefixes":[{"ipv4Prefix":"203.0.113.0/24"}]})";
  ServerProcess server(GetParam(), {"--bot-ranges-refresh", "1", "--bot-ranges-mirror", url,
                                    "--outbound-ca", (dir / "cert.pem").string()});
  EXPECT_EQ(ClassifyUntil(server, bingbot, "spoofed_bot").at("actorType").as_string(),
            "spoofed_bot")
      << "outside the new list";
}

TEST_P(Bots, AVendorThatNeverAnswersDoesNotHoldUpShutdown) {
  // A listener that never answers: the range fetch hangs in its TLS handshake.
  const int silent = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address = LoopbackAddress();
  ASSERT_EQ(bind(silent, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(listen(silent, 16), 0);
  socklen_t length = sizeof address;
  getsockname(silent, reinterpret_cast<sockaddr*>(&address), &length);
  ServerProcess server(GetParam(), {"--bot-ranges-refresh", "1", "--bot-ranges-mirror",
                                    "https://127.0.0.1:" + std::to_string(ntohs(address.sin_port))});
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the refresh is under way
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(server.Stop(std::chrono::seconds(10)), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  close(silent);
}

// Web Bot Auth end to end: requests signed by Cloudflare's independent `web-bot-auth` package,
// keys published by the signer's own HTTPS directory on loopback, fetched by the server in the
// background.
class WebBotAuth : public Bots {
 protected:
  void SetUp() override {
    Bots::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    MakeLoopbackCertificate(certs_.path());
    signer_ = std::make_unique<ChildProcess>(
        "node", std::vector<std::string>{
                    (SourceDir() / "tests/interop/web_bot_auth_signer.mjs").string(),
                    (certs_.path() / "cert.pem").string(), (certs_.path() / "key.pem").string(),
                    "shop.example", "/docs", "/pricing"});
    signed_ = json::parse(signer_->FirstLine()).as_object();
  }

  // The classify item for signed request `index`, as a customer's edge would forward it.
  std::string SignedItem(std::size_t index, const std::string& host = "shop.example") {
    const json::object& s = signed_.at("signed").at(index).as_object();
    return json::serialize(json::object{
        {"user_agent", kChrome}, {"ip_address", "203.0.113.40"}, {"method", "GET"},
        {"host", host}, {"path", s.at("path")}, {"signature", s.at("signature")},
        {"signature_input", s.at("signatureInput")},
        {"signature_agent", s.at("signatureAgent")}});
  }
  TempDir certs_{"sightline-wba-"};
  std::unique_ptr<ChildProcess> signer_;
  json::object signed_;
};

TEST_P(WebBotAuth, SignedRequestsVerifyAgainstTheSignersDirectory) {
  ServerProcess server(GetParam(), {"--outbound-ca", (certs_.path() / "cert.pem").string(),
                                    "--signature-directory-private"});
  const json::object verified = ClassifyUntil(server, SignedItem(0), "verified_bot");
  EXPECT_EQ(verified.at("actorType").as_string(), "verified_bot");
  EXPECT_EQ(verified.at("verificationMethod").as_string(), "web_bot_auth");
  EXPECT_TRUE(verified.at("isBot").as_bool()) << "a browser User-Agent, identified by its signature";
  EXPECT_EQ(ClassifyUntil(server, SignedItem(1), "verified_bot").at("actorType").as_string(),
            "verified_bot");
  // The same signature replayed against another site does not cover it.
  EXPECT_EQ(ClassifyUntil(server, SignedItem(0, "victim.example"), "spoofed_bot")
                .at("actorType")
                .as_string(),
            "spoofed_bot");

  // Stored through server-side ingestion with the verification.
  const Response stored = server.Request(
      "POST", "/ingest/v1/server",
      {{"Authorization", "Bearer " + creds_.private_api_key}, {"Content-Type", "application/json"}},
      R"({"events":[)" + SignedItem(0) + "]}");
  ASSERT_EQ(stored.status, 202) << stored.body;
  EXPECT_EQ(stored.Json().at("accepted").as_int64(), 1);
}

TEST_P(WebBotAuth, AnotherKeyNamingThisInstallationsOriginIsNotServiceAuditBot) {
  // The installation pins its own crawler keys for its public origin (the real crawler is
  // verified and never billed: tests/e2e/site_audit_bot_test.cpp). A signer with another key
  // that names the same origin is not this installation's crawler: not verified, and billed.
  ServerProcess server(GetParam(), {"--outbound-ca", (certs_.path() / "cert.pem").string(),
                                    "--signature-directory-private", "--public-url",
                                    std::string(signed_.at("agent").as_string())});
  ClassifyOn(server, SignedItem(0));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const json::object other = ClassifyOn(server, SignedItem(0));
  EXPECT_NE(other.at("actorType").as_string(), "verified_bot") << other;
  const std::string batch = R"({"events":[)" + SignedItem(0) + "," +
                            Item(kGptBot, "192.0.2.10") + "]}";
  const Response stored = server.Request(
      "POST", "/ingest/v1/server",
      {{"Authorization", "Bearer " + creds_.private_api_key}, {"Content-Type", "application/json"}},
      batch);
  ASSERT_EQ(stored.status, 202) << stored.body;
  EXPECT_EQ(stored.Json().at("accepted").as_int64(), 2) << "both are stored";
  const Response usage = server.Request(
      "GET", creds_.ProjectPath() + "/usage",
      Bearer(creds_.private_api_key));
  EXPECT_EQ(usage.Json().at("months").at(0).at("botEvents").as_int64(), 2)
      << "the impostor counts too";
}

TEST_P(WebBotAuth, DirectoriesOnPrivateAddressesAreNeverFetchedByDefault) {
  // Without the test-only switch the loopback directory is refused (SSRF protection): the
  // signature stays unverified — suspected, never spoofed.
  ServerProcess server(GetParam(), {"--outbound-ca", (certs_.path() / "cert.pem").string()});
  ClassifyOn(server, SignedItem(0));  // the first sight of the signer starts (and fails) the fetch
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const json::object later = ClassifyOn(server, SignedItem(0));
  EXPECT_EQ(later.at("actorType").as_string(), "suspected_bot");
  EXPECT_FALSE(later.at("verified").as_bool());
}

INSTANTIATE_TEST_SUITE_P(Backends, WebBotAuth, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
