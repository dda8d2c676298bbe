// End-to-end: every IP-range list the bot catalog names, refreshed from a mirror on loopback by
// `admin refresh-ranges` and by `serve`'s own refresher, and then used for CIDR verification.
// The catalog is read from detection/bot_catalog.json, so a list added there is tested too.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "harness.h"
#include "loopback_services.h"

namespace sightline::e2e {
namespace {

namespace json = boost::json;

struct CatalogList {
  std::string id;
  std::string bot_name;  // the first bot that names the list (its User-Agent token)
};

std::vector<CatalogList> CatalogLists() {
  std::ifstream file(SourceDir() / "detection/bot_catalog.json");
  std::stringstream text;
  text << file.rdbuf();
  std::vector<CatalogList> lists;
  std::set<std::string> seen;
  const json::value catalog = json::parse(text.str());
  for (const json::value& bot : catalog.at("bots").as_array()) {
    const json::value* verification = bot.as_object().if_contains("verification");
    const json::value* ranges = verification && verification->is_object()
                                    ? verification->as_object().if_contains("ip_ranges")
                                    : nullptr;
    if (ranges == nullptr) continue;
    for (const json::value& list : ranges->as_array()) {
      const std::string id(list.at("id").as_string());
      if (seen.insert(id).second) lists.push_back({id, std::string(bot.at("name").as_string())});
    }
  }
  return lists;
}

// List `index`'s own network (documentation space): "2001:db8:<index>::".
std::string ListNetwork(std::size_t index) {
  char text[32];
  std::snprintf(text, sizeof text, "2001:db8:%zx::", index);
  return text;
}

// Waits (up to 30 s) for the refresher's summary line; the whole log.
std::string LogAfterFirstRefresh(const ServerProcess& server) {
  for (int i = 0; i < 300; ++i) {
    if (server.Log().find("\"bot ip ranges refreshed\"") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return server.Log();
}

class RangeRefresh : public ::testing::Test {
 protected:
  void SetUp() override {
    lists_ = CatalogLists();
    ASSERT_GT(lists_.size(), 8u) << "more lists than the fetcher's 8 connections";
    MakeLoopbackCertificate(dir_);
    std::filesystem::create_directory(dir_ / "www");
    for (std::size_t i = 0; i < lists_.size(); ++i) {
      std::ofstream(dir_ / "www" / (lists_[i].id + ".json"))
          << R"({"prefixes":[{"ipv6Prefix":")" << ListNetwork(i) << R"(/48"}]})";
    }
    mirror_ = std::make_unique<ChildProcess>(
        "node",
        std::vector<std::string>{(SourceDir() / "tests/interop/static_https_server.mjs").string(),
                                 (dir_ / "cert.pem").string(), (dir_ / "key.pem").string(),
                                 (dir_ / "www").string()});
    url_ = "https://127.0.0.1:" +
           std::to_string(json::parse(mirror_->FirstLine()).at("port").as_int64());
  }
  void TearDown() override { mirror_.reset(); }
  std::vector<std::string> MirrorArgs() const {
    return {"--bot-ranges-mirror", url_, "--outbound-ca", (dir_ / "cert.pem").string()};
  }

  std::vector<CatalogList> lists_;
  TempDir mirror_dir_{"sightline-mirror-"};
  const std::filesystem::path& dir_ = mirror_dir_.path();
  std::unique_ptr<ChildProcess> mirror_;
  std::string url_;
  // A store of its own: the lists stored here would decide other tests' verdicts.
  TempDir store_dir_{"sightline-e2e-ranges-"};
  Backend backend_{"sqlite", "", store_dir_.path()};
};

TEST_F(RangeRefresh, AdminRefreshesEveryCatalogListAndSaysSoPerList) {
  std::vector<std::string> args = {"admin", "refresh-ranges"};
  for (const auto& a : MirrorArgs()) args.push_back(a);
  for (const auto& a : backend_.StorageArgs()) args.push_back(a);
  const CommandResult refreshed = RunSightline(args);
  EXPECT_EQ(refreshed.exit_code, 0) << refreshed.out << refreshed.err;
  std::map<std::string, json::object> outcomes;
  std::istringstream lines(refreshed.out);
  for (std::string line; std::getline(lines, line);) {
    json::object outcome = json::parse(line).as_object();
    outcomes[std::string(outcome.at("list").as_string())] = std::move(outcome);
  }
  ASSERT_EQ(outcomes.size(), lists_.size()) << refreshed.out;
  for (const CatalogList& list : lists_) {
    const json::object& outcome = outcomes[list.id];
    EXPECT_EQ(outcome.at("ok"), true) << list.id << ": " << json::serialize(outcome);
    EXPECT_EQ(outcome.at("intervals"), 1) << list.id;
  }
}

TEST_F(RangeRefresh, ServeRefreshesEveryCatalogListAndVerifiesEachVendorByCidr) {
  const Credentials creds = Bootstrap(backend_, Unique("ranges"), "Site");
  std::vector<std::string> args = {"--bot-ranges-refresh", "1"};
  for (const auto& a : MirrorArgs()) args.push_back(a);
  ServerProcess server(backend_, args);
  const std::string log = LogAfterFirstRefresh(server);
  EXPECT_NE(log.find(R"("refreshed":)" + std::to_string(lists_.size()) + R"(,"failed":0)"),
            std::string::npos)
      << log;
  for (std::size_t i = 0; i < lists_.size(); ++i) {
    const CatalogList& list = lists_[i];
    EXPECT_NE(log.find(R"("msg":"bot ip range list refreshed","list":")" + list.id +
                       R"(","intervals":1)"),
              std::string::npos)
        << list.id << " has no line of its own";
    const std::string item = json::serialize(
        json::object{{"user_agent", "Mozilla/5.0 (compatible; " + list.bot_name + "/1.0)"},
                     {"ip_address", ListNetwork(i) + "1"},
                     {"path", "/docs"}});
    const Response r = server.Request("POST", "/bots/classify",
                                      {{"Authorization", "Bearer " + creds.private_api_key},
                                       {"Content-Type", "application/json"}},
                                      item);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.Json().at("actorType"), "verified_bot") << list.id << " " << r.body;
    EXPECT_EQ(r.Json().at("verificationMethod"), "cidr") << list.id << " " << r.body;
  }
}

}  // namespace
}  // namespace sightline::e2e
