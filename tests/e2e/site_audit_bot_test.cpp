// End-to-end: ServiceAuditBot's requests as the crawled site sees them, on every backend. Each
// request the fixture website (tests/interop/fixture_site.mjs) recorded carries the bot's
// User-Agent and a Web Bot Auth signature that npm `web-bot-auth` verifies against the key
// directory the server publishes, and no cookie or credential; forwarded to the project's own
// ingestion they are classified as this installation's verified crawler and never count toward
// usage. The crawl's robots.txt decisions and broken links are compared with npm robots-parser
// and linkinator, two implementations no one here wrote.
#include "fixture_site.h"
#include "loopback_services.h"
#include "sample_agents.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace sightline::e2e {
namespace {

namespace json = boost::json;

class SiteAuditBot : public BackendTest {
 protected:
  // The server listens where its public URL says, so that ServiceAuditBot signs as this
  // installation and the classifier knows the signer as its own.
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    creds_ = Bootstrap(GetParam(), Unique("auditbot"), "Shop");
    const std::string port = std::to_string(FreeDnsPort());
    public_url_ = "http://127.0.0.1:" + port;
    server_ = std::make_unique<ServerProcess>(
        GetParam(), SiteAuditServerArgs(GetParam(), keys_.path(),
                                        {"--listen", "127.0.0.1:" + port, "--public-url",
                                         public_url_, "--signature-directory-private"}));
    api_ = std::make_unique<SiteAuditApi>(*server_, creds_);
  }
  const SiteAuditApi& api() const { return *api_; }
  // Crawls the fixture's site (verified by file) to the end, expecting it to complete.
  json::object CrawlOf(FixtureSite& fixture) {
    const json::object crawl = api().Crawl(api().AddVerifiedSite(fixture));
    EXPECT_EQ(Dig(crawl, {"status"}), "completed") << json::serialize(crawl);
    return crawl;
  }
  Response Post(const std::string& path, const std::string& body) {
    return server_->Request("POST", path,
                            {{"Authorization", "Bearer " + creds_.private_api_key},
                             {"Content-Type", "application/json"}},
                            body);
  }

  TempDir keys_{"sightline-auditbot-keys-"};
  Credentials creds_;
  std::string public_url_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<SiteAuditApi> api_;
};

// Runs `command` with `input` written to a file of its own (removed afterwards): on its standard
// input, or else as its last argument. Its standard output, one entry per non-empty line.
std::vector<std::string> RunWithInput(std::vector<std::string> command, const std::string& input,
                                      bool on_stdin) {
  const TempDir dir("sightline-audit-oracle-");
  const std::string file = (dir.path() / "input.json").string();
  std::ofstream(file) << input;
  if (on_stdin) {
    std::string line = "exec";
    for (const std::string& word : command) line += " '" + word + "'";
    command = {"sh", "-c", line + " < '" + file + "'"};
  } else {
    command.push_back(file);
  }
  const CommandResult result = RunCommand(command);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::vector<std::string> lines;
  std::istringstream out(result.out);
  for (std::string line; std::getline(out, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

std::string Script(const std::string& name) {
  return (SourceDir() / "tests/interop" / name).string();
}

TEST_P(SiteAuditBot, EveryRequestNamesTheBotCarriesAVerifiableSignatureAndNoCredentials) {
  FixtureSite fixture;
  CrawlOf(fixture);
  const json::array requests = fixture.Requests();
  ASSERT_GE(requests.size(), 30u);
  const Response directory =
      server_->SiteRequest("GET", "/.well-known/http-message-signatures-directory");
  ASSERT_EQ(directory.status, 200) << directory.body;
  EXPECT_EQ(directory.Header("content-type")
                .rfind("application/http-message-signatures-directory+json", 0),
            0u)
      << directory.Header("content-type");
  // Every key the directory publishes (newest first). On a store other servers share, the key
  // that signs (the oldest current key this server can open) need not be the first.
  std::map<std::string, json::value> published;  // kid → JWK
  const json::value listed = directory.Json();
  for (const json::value& key : listed.at("keys").as_array()) {
    published[Text(Dig(key, {"kid"}))] = key;
  }
  std::string signing_kid;  // the one key every request names
  ASSERT_FALSE(published.empty()) << directory.body;
  static const std::regex kKeyId(R"re(keyid="([^"]+)")re");

  std::set<std::string> external;
  json::array signed_requests;
  for (const json::value& r : requests) {
    const json::object& h = r.at("headers").as_object();
    const std::string what = Text(r.at("method")) + " " + Text(r.at("path"));
    EXPECT_EQ(Text(Dig(h, {"user-agent"})),
              "Mozilla/5.0 (compatible; ServiceAuditBot/1.0; +" + public_url_ + "/bot)")
        << what;
    EXPECT_EQ(Text(Dig(h, {"signature-agent"})), "\"" + public_url_ + "\"") << what;
    EXPECT_NE(Text(Dig(h, {"signature-input"})).find("tag=\"web-bot-auth\""), std::string::npos)
        << what;
    std::smatch keyid;
    const std::string input = Text(Dig(h, {"signature-input"}));
    ASSERT_TRUE(std::regex_search(input, keyid, kKeyId)) << what << ": " << input;
    EXPECT_TRUE(published.contains(keyid[1].str())) << what << ": " << keyid[1].str();
    if (signing_kid.empty()) signing_kid = keyid[1].str();
    EXPECT_EQ(keyid[1].str(), signing_kid) << what;
    EXPECT_FALSE(Text(Dig(h, {"signature"})).empty()) << what;
    EXPECT_FALSE(h.contains("cookie")) << what << ": the home page set one";
    EXPECT_FALSE(h.contains("authorization")) << what;
    if (r.at("server") == "external") external.insert(what);
    signed_requests.push_back(
        json::object{{"method", r.at("method")},
                     {"url", "http://" + Text(Dig(h, {"host"})) + Text(r.at("path"))},
                     {"headers", json::object{{"Signature", Dig(h, {"signature"})},
                                              {"Signature-Input", Dig(h, {"signature-input"})},
                                              {"Signature-Agent", Dig(h, {"signature-agent"})}}}});
  }
  // External links are checked HEAD first, then GET when HEAD fails.
  for (const char* expected : {"GET /robots.txt", "HEAD /ok", "HEAD /gone", "GET /gone"}) {
    EXPECT_TRUE(external.contains(expected)) << expected;
  }
  EXPECT_FALSE(external.contains("GET /ok")) << "HEAD answered 200";

  // Cloudflare's verifier accepts every signature with the published key.
  ASSERT_TRUE(published.contains(signing_kid)) << signing_kid;
  const json::value& key = published.at(signing_kid);
  const json::object jwk{
      {"kty", Dig(key, {"kty"})}, {"crv", Dig(key, {"crv"})}, {"x", Dig(key, {"x"})}};
  const std::vector<std::string> verdicts = RunWithInput(
      {"node", Script("web_bot_auth_verify.mjs")},
      json::serialize(json::object{{"jwk", jwk}, {"requests", signed_requests}}), true);
  ASSERT_EQ(verdicts.size(), requests.size());
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    EXPECT_EQ(verdicts[i], R"({"ok":true})") << json::serialize(requests.at(i));
  }

  // The page the User-Agent points site owners at.
  const Response about = server_->SiteRequest("GET", "/bot");
  EXPECT_EQ(about.status, 200);
  EXPECT_NE(about.body.find("ServiceAuditBot"), std::string::npos);
}

TEST_P(SiteAuditBot, ForwardedCrawlerRequestsAreOurVerifiedBotAndNeverCountTowardUsage) {
  FixtureSite fixture;
  CrawlOf(fixture);
  // A site that forwards its traffic: three of the crawler's requests as its edge saw them.
  json::array events;
  for (const json::value& r : fixture.Requests()) {
    const std::string path = Text(r.at("path"));
    if (r.at("server") != "site" || r.at("method") != "GET" ||
        (path != "/" && path != "/about.html" && path != "/llms.txt")) {
      continue;
    }
    const json::value& h = r.at("headers");
    events.push_back(json::object{{"user_agent", Dig(h, {"user-agent"})},
                                  {"ip_address", "203.0.113.60"},
                                  {"method", "GET"},
                                  {"host", Dig(h, {"host"})},
                                  {"path", path},
                                  {"signature", Dig(h, {"signature"})},
                                  {"signature_input", Dig(h, {"signature-input"})},
                                  {"signature_agent", Dig(h, {"signature-agent"})}});
    if (events.size() == 3) break;
  }
  ASSERT_EQ(events.size(), 3u);

  // The key directory is the server's own: classification settles on verified.
  json::value classified;
  for (int i = 0; i < 100; ++i) {
    classified = Post("/bots/classify", json::serialize(events.at(0))).Json();
    if (Dig(classified, {"actorType"}) == "verified_bot") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(Dig(classified, {"actorType"}), "verified_bot") << classified;
  EXPECT_EQ(Dig(classified, {"botName"}), "ServiceAuditBot");
  EXPECT_EQ(Dig(classified, {"verificationMethod"}), "web_bot_auth");

  json::array batch = events;
  batch.push_back(
      json::object{{"user_agent", kGptBot}, {"ip_address", "192.0.2.10"}, {"path", "/docs"}});
  const Response stored =
      Post("/ingest/v1/server", json::serialize(json::object{{"events", batch}}));
  ASSERT_EQ(stored.status, 202) << stored.body;
  EXPECT_EQ(Dig(stored.Json(), {"accepted"}), 4) << "all stored";
  const Response usage =
      server_->Request("GET", creds_.ProjectPath() + "/usage", Bearer(creds_.private_api_key));
  EXPECT_EQ(Dig(usage.Json(), {"months", "0", "botEvents"}), 1) << "only GPTBot counts";
  const Response top = server_->Request("GET", "/bots/analytics/top?projectId=" + creds_.project_id,
                                        Bearer(creds_.private_api_key));
  json::value ours;
  for (const json::value& row : List(top.Json(), {"rows"})) {
    if (Dig(row, {"botName"}) == "ServiceAuditBot") ours = row;
  }
  EXPECT_EQ(Dig(ours, {"requestCount"}), 3) << top.body;
  EXPECT_EQ(Dig(ours, {"verifiedRequestCount"}), 3) << top.body;
}

// npm robots-parser reads the robots.txt the crawl fetched: the crawler skipped exactly the URLs
// it disallows for ServiceAuditBot, and each AI crawler's verdict at / is the same.
TEST_P(SiteAuditBot, RobotsDecisionsAgreeWithRobotsParser) {
  FixtureSite fixture;
  const std::string crawl_id = Text(Dig(CrawlOf(fixture), {"id"}));
  const json::value summary = api().Call("GET", "crawls/" + crawl_id + "/summary");
  const json::value robots = Dig(summary, {"site", "robots", "body"});
  ASSERT_TRUE(robots.is_string()) << summary;
  json::array cases;
  std::vector<std::pair<std::string, bool>> expected;  // what each case is, Sightline's verdict
  for (const json::value& page : api().Pages(crawl_id, "external=false")) {
    cases.push_back(
        json::object{{"robots", robots}, {"agent", "ServiceAuditBot"}, {"url", page.at("url")}});
    expected.emplace_back("ServiceAuditBot " + Text(page.at("url")), page.at("state") != "blocked");
  }
  const json::value crawlers = Dig(summary, {"site", "robots", "aiCrawlers"});
  ASSERT_GT(Strings(crawlers, "name").size(), 20u) << "the bot catalog's AI crawlers";
  for (const json::value& crawler : crawlers.as_array()) {
    cases.push_back(
        json::object{{"robots", robots}, {"agent", crawler.at("name")}, {"url", fixture.Url("/")}});
    expected.emplace_back(Text(crawler.at("name")) + " /", crawler.at("access") != "disallowed");
  }
  EXPECT_GE(expected.size(), 60u);
  const std::vector<std::string> answers =
      RunWithInput({"node", Script("robots_oracle.mjs")},
                   json::serialize(json::object{{"cases", cases}}), false);
  ASSERT_EQ(answers.size(), expected.size());
  for (std::size_t i = 0; i < answers.size(); ++i) {
    EXPECT_EQ(json::parse(answers[i]).at("allowed"), expected[i].second) << expected[i].first;
  }
}

// The crawl's broken links, (linking page, target), against linkinator's crawl of the same site.
// linkinator follows redirects to their end and so calls a redirect loop a broken link; the
// audit reports it as redirects/loop instead.
TEST_P(SiteAuditBot, BrokenLinksAgreeWithLinkinator) {
  FixtureSite fixture;
  const std::string crawl_id = Text(Dig(CrawlOf(fixture), {"id"}));
  std::set<std::pair<std::string, std::string>> ours, theirs;
  std::set<std::string> loops;
  for (const json::value& issue : api().Issues(crawl_id)) {
    const std::string rule = Text(issue.at("ruleId"));
    if (rule == "redirects/loop") loops.insert(Text(issue.at("url")));
    if (rule != "links/broken-internal" && rule != "links/broken-external") continue;
    for (const std::string& href : Strings(Dig(issue, {"evidence", "links"}), "href")) {
      ours.emplace(Text(issue.at("url")), href);
    }
  }
  const CommandResult linkinator =
      RunCommand({(SourceDir() / "tests/interop/node_modules/.bin/node").string(),
                  Script("linkinator_broken.mjs"), fixture.Url("/")});
  ASSERT_EQ(linkinator.exit_code, 0) << linkinator.err;
  std::set<std::string> loops_seen;
  for (const json::value& link : List(json::parse(linkinator.out), {"broken"})) {
    const std::string url = Text(link.at("url"));
    if (loops.contains(url)) {
      loops_seen.insert(url);
    } else {
      theirs.emplace(Text(link.at("parent")), url);
    }
  }
  EXPECT_EQ(loops_seen, std::set<std::string>{fixture.Url("/loop/a")});
  EXPECT_EQ(ours, theirs) << linkinator.out;
  EXPECT_EQ(ours.size(), 4u) << "two internal, two external";
}

INSTANTIATE_TEST_SUITE_P(Backends, SiteAuditBot, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
