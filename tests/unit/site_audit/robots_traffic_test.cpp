// The robots-vs-traffic report: robots.txt set against crawler traffic, with the previous
// period, the sentences, the report-wide blocked paths and the JSON view. Every figure below is
// computed by hand from the rows.
#include "site_audit/robots_traffic.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

namespace sightline::site_audit {
namespace {

namespace json = boost::json;
using Row = storage::SiteBotTrafficRow;
using Rows = std::vector<Row>;

const std::vector<AiCrawler> kCrawlers = {
    {"GPTBot", "training"},
    {"CCBot", "training"},
    {"PerplexityBot", "search"},
    {"ClaudeBot", "training"},
};

// Lines: 1 GPTBot, 2 Disallow: /, 4 CCBot, 5-6 its rules, 8 Googlebot, 9 its rule, 11-12 `*`.
constexpr char kRobots[] =
    "User-agent: GPTBot\n"
    "Disallow: /\n"
    "\n"
    "User-agent: CCBot\n"
    "Disallow: /private/\n"
    "Disallow: /*?session=\n"
    "\n"
    "User-agent: Googlebot\n"
    "Disallow: /search\n"
    "\n"
    "User-agent: *\n"
    "Allow: /\n";

Row R(std::string bot, std::string classification, std::string path, std::int64_t n) {
  return {std::move(bot), std::move(classification), std::move(path), n, false};
}
Row Folded(std::string bot, std::string classification, std::int64_t n) {
  return {std::move(bot), std::move(classification), "", n, true};
}

const Rows kCurrent = {
    // GPTBot: 412 disallowed (380 verified, 32 spoofed) and 5 fetches of robots.txt.
    R("GPTBot", "verified", "/", 199),
    R("GPTBot", "verified", "/blog/a", 180),
    R("GPTBot", "spoofed", "/blog/a", 32),
    R("GPTBot", "verified", "/private/a", 1),
    R("GPTBot", "verified", "/robots.txt", 5),
    // CCBot: 44 requests (38 verified, 4 spoofed, 2 suspected), 16 disallowed.
    R("CCBot", "verified", "/private/a", 10),
    R("CCBot", "suspected", "/docs?session=1", 2),
    R("CCBot", "verified", "/docs", 28),
    R("CCBot", "spoofed", "/%70rivate/b", 4),  // %70 is "p": /private/b
    R("ClaudeBot", "verified", "/blog/a", 120),
    // Not listed, but robots.txt names it: partly disallowed, 7 of 57 disallowed.
    R("Googlebot", "verified", "/search?q=x", 7),
    R("Googlebot", "verified", "/", 50),
    // Neither listed nor named: left out.
    R("bingbot", "verified", "/search", 9),
};

const Rows kPrevious = {
    R("GPTBot", "verified", "/", 300),
    R("PerplexityBot", "verified", "/", 12),
};

TrafficCounts Counts(std::int64_t total, std::int64_t verified, std::int64_t spoofed,
                     std::int64_t suspected) {
  return {total, verified, spoofed, suspected};
}

void ExpectCounts(const TrafficCounts& actual, const TrafficCounts& expected) {
  EXPECT_EQ(actual.total, expected.total);
  EXPECT_EQ(actual.verified, expected.verified);
  EXPECT_EQ(actual.spoofed, expected.spoofed);
  EXPECT_EQ(actual.suspected, expected.suspected);
}

RobotsTrafficReport Compare(const RobotsTxt& robots, const Rows& current,
                            std::optional<Rows> previous = std::nullopt,
                            const std::vector<AiCrawler>& crawlers = kCrawlers) {
  std::optional<std::span<const Row>> before;
  if (previous) before = std::span<const Row>(*previous);
  return CompareRobotsWithTraffic(robots, crawlers, current, before);
}

TEST(RobotsTraffic, SetsEachCrawlersRulesAgainstWhatItFetched) {
  const RobotsTrafficReport report = Compare(RobotsTxt::Parse(kRobots), kCurrent, kPrevious);
  ASSERT_EQ(report.crawlers.size(), 5u);

  const CrawlerTrafficVerdict& gpt = report.crawlers[0];
  EXPECT_EQ(gpt.name, "GPTBot");
  EXPECT_EQ(gpt.purpose, "training");
  EXPECT_TRUE(gpt.listed);
  EXPECT_EQ(gpt.access, CrawlAccess::kDisallowed);
  EXPECT_EQ(gpt.root.rule, "Disallow: /");
  ExpectCounts(gpt.current.requests, Counts(417, 385, 32, 0));
  ExpectCounts(gpt.current.disallowed, Counts(412, 380, 32, 0));
  EXPECT_EQ(gpt.current.unchecked, 0);
  ASSERT_EQ(gpt.current.top_disallowed.size(), 3u);
  EXPECT_EQ(gpt.current.top_disallowed[0].path, "/blog/a");
  ExpectCounts(gpt.current.top_disallowed[0].requests, Counts(212, 180, 32, 0));
  EXPECT_EQ(gpt.current.top_disallowed[0].rule, "Disallow: /");
  EXPECT_EQ(gpt.current.top_disallowed[0].line, 2);
  EXPECT_EQ(gpt.current.top_disallowed[1].path, "/");
  EXPECT_EQ(gpt.current.top_disallowed[2].path, "/private/a");
  ASSERT_TRUE(gpt.previous);
  ExpectCounts(gpt.previous->disallowed, Counts(300, 300, 0, 0));
  EXPECT_EQ(gpt.statement,
            "GPTBot is disallowed and still fetched 412 pages (380 verified, 32 spoofed), up "
            "from 300 the previous period.");

  const CrawlerTrafficVerdict& cc = report.crawlers[1];
  EXPECT_EQ(cc.access, CrawlAccess::kPartial);
  ExpectCounts(cc.current.requests, Counts(44, 38, 4, 2));
  ExpectCounts(cc.current.disallowed, Counts(16, 10, 4, 2));
  ASSERT_EQ(cc.current.top_disallowed.size(), 3u);
  EXPECT_EQ(cc.current.top_disallowed[0].path, "/private/a");
  EXPECT_EQ(cc.current.top_disallowed[0].rule, "Disallow: /private/");
  EXPECT_EQ(cc.current.top_disallowed[0].line, 5);
  EXPECT_EQ(cc.current.top_disallowed[1].path, "/%70rivate/b");
  EXPECT_EQ(cc.current.top_disallowed[1].line, 5);
  EXPECT_EQ(cc.current.top_disallowed[2].path, "/docs?session=1");
  EXPECT_EQ(cc.current.top_disallowed[2].rule, "Disallow: /*?session=");
  EXPECT_EQ(cc.statement,
            "CCBot is partly disallowed and fetched 44 pages (38 verified, 4 spoofed, 2 "
            "suspected), 16 of them disallowed (10 verified, 4 spoofed, 2 suspected), up from "
            "none the previous period.");

  const CrawlerTrafficVerdict& perplexity = report.crawlers[2];
  EXPECT_EQ(perplexity.access, CrawlAccess::kAllowed);
  EXPECT_EQ(perplexity.root.group, "*");
  EXPECT_EQ(perplexity.current.requests.total, 0);
  EXPECT_EQ(perplexity.statement,
            "PerplexityBot is allowed and never came, down from 12 the previous period.");

  EXPECT_EQ(report.crawlers[3].statement,
            "ClaudeBot is allowed and fetched 120 pages (120 verified), up from none the "
            "previous period.");

  const CrawlerTrafficVerdict& google = report.crawlers[4];
  EXPECT_EQ(google.name, "Googlebot");
  EXPECT_FALSE(google.listed);
  EXPECT_EQ(google.purpose, "");
  EXPECT_EQ(google.access, CrawlAccess::kPartial);
  EXPECT_EQ(google.statement,
            "Googlebot is partly disallowed and fetched 57 pages (57 verified), 7 of them "
            "disallowed (7 verified), up from none the previous period.");
}

TEST(RobotsTraffic, SumsBlockedPathsAndTotalsOverTheReportsCrawlers) {
  const RobotsTrafficReport report = Compare(RobotsTxt::Parse(kRobots), kCurrent, kPrevious);
  ASSERT_EQ(report.blocked_paths.size(), 6u);
  const std::vector<std::string> order = {
      "/blog/a", "/", "/private/a", "/search?q=x", "/%70rivate/b", "/docs?session=1"};
  for (std::size_t i = 0; i < order.size(); ++i) {
    EXPECT_EQ(report.blocked_paths[i].path, order[i]) << i;
  }
  const BlockedPathHits& shared = report.blocked_paths[2];
  ExpectCounts(shared.requests, Counts(11, 11, 0, 0));
  EXPECT_EQ(shared.crawlers, (std::vector<std::string>{"CCBot", "GPTBot"})) << "10 before 1";
  EXPECT_EQ(report.blocked_paths[0].crawlers, (std::vector<std::string>{"GPTBot"}));
  // bingbot is in neither: 417 + 44 + 0 + 120 + 57 and 412 + 16 + 7.
  ExpectCounts(report.requests, Counts(638, 600, 36, 2));
  ExpectCounts(report.disallowed, Counts(435, 397, 36, 2));
  ASSERT_TRUE(report.previous_requests && report.previous_disallowed);
  ExpectCounts(*report.previous_requests, Counts(312, 312, 0, 0));
  ExpectCounts(*report.previous_disallowed, Counts(300, 300, 0, 0));
}

TEST(RobotsTraffic, JsonViewUsesCamelCaseAndComparesTheTotals) {
  const json::object view =
      RobotsTrafficJson(Compare(RobotsTxt::Parse(kRobots), kCurrent, kPrevious));
  const json::array& crawlers = view.at("crawlers").as_array();
  ASSERT_EQ(crawlers.size(), 5u);
  const json::object& gpt = crawlers[0].as_object();
  EXPECT_EQ(gpt.at("name"), "GPTBot");
  EXPECT_EQ(gpt.at("purpose"), "training");
  EXPECT_EQ(gpt.at("listed"), true);
  EXPECT_EQ(gpt.at("access"), "disallowed");
  EXPECT_EQ(gpt.at("root").at("rule"), "Disallow: /");
  EXPECT_EQ(gpt.at("root").at("line"), 2);
  EXPECT_EQ(gpt.at("root").at("group"), "GPTBot");
  EXPECT_EQ(gpt.at("root").at("allowed"), false);
  const json::object& current = gpt.at("current").as_object();
  EXPECT_EQ(current.at("requests"),
            json::parse(R"({"total":417,"verified":385,"spoofed":32,"suspected":0})"));
  EXPECT_EQ(current.at("disallowedRequests").at("total"), 412);
  EXPECT_EQ(current.at("uncheckedRequests"), 0);
  EXPECT_EQ(current.at("topDisallowedPaths").at(0),
            json::parse(R"({"path":"/blog/a","requests":{"total":212,"verified":180,)"
                        R"("spoofed":32,"suspected":0},"rule":"Disallow: /","line":2})"));
  EXPECT_EQ(gpt.at("previous").at("requests").at("total"), 300);
  // 417 vs 300: +117, +39 %; 412 vs 300: +112, +37.33 %.
  const json::value& change = gpt.at("change");
  EXPECT_EQ(change.at("requests").at("absoluteChange"), 117);
  EXPECT_DOUBLE_EQ(change.at("requests").at("percentageChange").as_double(), 39.0);
  EXPECT_EQ(change.at("disallowedRequests").at("absoluteChange"), 112);
  EXPECT_DOUBLE_EQ(change.at("disallowedRequests").at("percentageChange").as_double(), 37.33);
  const json::object& claude = crawlers[3].as_object();
  EXPECT_EQ(claude.at("change").at("requests").at("percentageChange"), nullptr)
      << "nothing to compare with";
  EXPECT_EQ(crawlers[4].at("listed"), false);
  EXPECT_EQ(view.at("blockedPaths").at(2),
            json::parse(R"({"path":"/private/a","requests":{"total":11,"verified":11,)"
                        R"("spoofed":0,"suspected":0},"crawlers":["CCBot","GPTBot"]})"));
  const json::object& totals = view.at("totals").as_object();
  EXPECT_EQ(totals.at("requests").at("total"), 638);
  EXPECT_EQ(totals.at("disallowedRequests").at("total"), 435);
  EXPECT_EQ(totals.at("previousRequests").at("total"), 312);
  EXPECT_EQ(totals.at("previousDisallowedRequests").at("total"), 300);
}

TEST(RobotsTraffic, WithoutAPreviousPeriodThereIsNoComparison) {
  const RobotsTrafficReport report = Compare(RobotsTxt::Parse(kRobots), kCurrent);
  EXPECT_FALSE(report.crawlers[0].previous);
  EXPECT_FALSE(report.previous_requests);
  EXPECT_EQ(report.crawlers[0].statement,
            "GPTBot is disallowed and still fetched 412 pages (380 verified, 32 spoofed).");
  EXPECT_EQ(report.crawlers[2].statement, "PerplexityBot is allowed and never came.");
  const json::object view = RobotsTrafficJson(report);
  EXPECT_EQ(view.at("crawlers").at(0).at("previous"), nullptr);
  EXPECT_EQ(view.at("crawlers").at(0).at("change"), nullptr);
  EXPECT_EQ(view.at("totals").at("previousRequests"), nullptr);
}

TEST(RobotsTraffic, AnEmptyRobotsTxtAllowsEveryoneAndNamesNoOne) {
  const Rows rows = {R("GPTBot", "verified", "/a", 5), R("Googlebot", "verified", "/", 3)};
  const RobotsTrafficReport report = Compare(RobotsTxt::Parse(""), rows);
  ASSERT_EQ(report.crawlers.size(), 4u) << "no group names Googlebot";
  EXPECT_EQ(report.crawlers[0].access, CrawlAccess::kAllowed);
  EXPECT_EQ(report.crawlers[0].root.group, "");
  EXPECT_EQ(report.crawlers[0].statement, "GPTBot is allowed and fetched 5 pages (5 verified).");
  EXPECT_EQ(report.disallowed.total, 0);
  EXPECT_TRUE(report.blocked_paths.empty());
}

TEST(RobotsTraffic, AnUnreachableRobotsTxtDisallowsAllButRobotsTxtItself) {
  const Rows rows = {R("GPTBot", "verified", "/a", 3), R("GPTBot", "verified", "/robots.txt", 1),
                     R("Googlebot", "verified", "/", 8)};
  const RobotsTrafficReport report = Compare(RobotsTxt::DisallowAll(), rows, Rows{});
  ASSERT_EQ(report.crawlers.size(), 4u) << "the `*` group names no one";
  const CrawlerTrafficVerdict& gpt = report.crawlers[0];
  EXPECT_EQ(gpt.access, CrawlAccess::kDisallowed);
  ExpectCounts(gpt.current.requests, Counts(4, 4, 0, 0));
  ExpectCounts(gpt.current.disallowed, Counts(3, 3, 0, 0));
  EXPECT_EQ(gpt.statement,
            "GPTBot is disallowed and still fetched 3 pages (3 verified), up from none the "
            "previous period.");
  EXPECT_EQ(report.crawlers[1].statement,
            "CCBot is disallowed and never came, not in the previous period either.");
}

TEST(RobotsTraffic, NoTrafficAtAll) {
  const RobotsTrafficReport report = Compare(RobotsTxt::Parse(kRobots), Rows{}, Rows{});
  ASSERT_EQ(report.crawlers.size(), 4u);
  EXPECT_EQ(report.crawlers[0].statement,
            "GPTBot is disallowed and never came, not in the previous period either.");
  EXPECT_EQ(report.crawlers[1].statement,
            "CCBot is partly disallowed and never came, not in the previous period either.");
  EXPECT_EQ(report.requests.total, 0);
  const json::object view = RobotsTrafficJson(report);
  EXPECT_EQ(view.at("crawlers").at(0).at("change"),
            json::parse(R"({"requests":{"absoluteChange":0,"percentageChange":null},)"
                        R"("disallowedRequests":{"absoluteChange":0,"percentageChange":null}})"));
  EXPECT_TRUE(view.at("blockedPaths").as_array().empty());
  EXPECT_EQ(RobotsTrafficJson(Compare(RobotsTxt::Parse(kRobots), Rows{}, Rows{}, {}))
                .at("crawlers")
                .as_array()
                .size(),
            0u)
      << "no crawlers, no traffic";
}

TEST(RobotsTraffic, PathsThatCannotBeCheckedMakeTheDisallowedFiguresLowerBounds) {
  const Rows rows = {
      R("GPTBot", "verified", "/a", 3),
      Folded("GPTBot", "spoofed", 5),           // past the storage's per-bot bound
      R("GPTBot", "suspected", "", 2),          // no path stored
      R("GPTBot", "verified", "page.html", 1),  // neither "/…" nor a URL
      R("CCBot", "verified", "/docs", 4),
      Folded("CCBot", "verified", 2),
  };
  const RobotsTrafficReport report = Compare(RobotsTxt::Parse(kRobots), rows);
  const CrawlerTrafficVerdict& gpt = report.crawlers[0];
  ExpectCounts(gpt.current.requests, Counts(11, 4, 5, 2));
  ExpectCounts(gpt.current.disallowed, Counts(3, 3, 0, 0));
  EXPECT_EQ(gpt.current.unchecked, 8);
  EXPECT_EQ(gpt.statement, "GPTBot is disallowed and still fetched at least 3 pages (3 verified).");
  EXPECT_EQ(report.crawlers[1].current.unchecked, 2);
  EXPECT_EQ(report.crawlers[1].statement,
            "CCBot is partly disallowed and fetched 6 pages (6 verified), none of the 4 checked "
            "disallowed.");
}

TEST(RobotsTraffic, QueriesEscapesAndUrlsAreMatchedAsRobotsTxtSeesThem) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: CCBot\n"
      "Disallow: /priv%C3%A9/\n"
      "Disallow: /*?session=\n"
      "Disallow: /*.pdf$\n");
  const Rows rows = {
      R("CCBot", "verified", "/privé/x", 1),       // stored decoded (SDK page URLs)
      R("CCBot", "verified", "/priv%c3%a9/y", 2),  // lowercase escapes
      R("CCBot", "verified", "/a?session=2&b=1", 4),
      R("CCBot", "verified", "/a?b=1", 8),  // allowed: no session
      R("CCBot", "verified", "/doc.pdf", 16),
      R("CCBot", "verified", "/doc.pdf?v=1", 32),  // allowed: `$` anchors the end
      R("CCBot", "verified", "https://Example.com/priv%C3%A9/z?q", 64),  // an absolute URL
      R("CCBot", "verified", "/a#session=1", 128),  // the fragment is not matched
  };
  const RobotsTrafficReport report = Compare(robots, rows);
  const CrawlerTrafficVerdict& cc = report.crawlers[1];
  EXPECT_EQ(cc.access, CrawlAccess::kPartial);
  ExpectCounts(cc.current.requests, Counts(255, 255, 0, 0));
  ExpectCounts(cc.current.disallowed, Counts(1 + 2 + 4 + 16 + 64, 87, 0, 0));
  EXPECT_EQ(cc.current.unchecked, 0);
  ASSERT_EQ(cc.current.top_disallowed.size(), 5u);
  EXPECT_EQ(cc.current.top_disallowed[0].path, "https://Example.com/priv%C3%A9/z?q");
  EXPECT_EQ(cc.current.top_disallowed[0].rule, "Disallow: /priv%C3%A9/");
  EXPECT_EQ(cc.current.top_disallowed[1].rule, "Disallow: /*.pdf$");
  EXPECT_EQ(cc.current.top_disallowed[2].rule, "Disallow: /*?session=");
}

TEST(RobotsTraffic, BotNamesMatchCrawlersByProductTokenIgnoringCase) {
  const std::vector<AiCrawler> crawlers = {
      {"GPTBot", "training"}, {"gptbot", "training"}, {"ChatGPT-User", "user_fetch"}};
  const Rows rows = {R("GPTBot", "verified", "/", 1), R("GPTBot/1.1", "spoofed", "/", 2),
                     R("gptbot", "suspected", "/x", 4), R("ChatGPT-User/1.0", "verified", "/", 8)};
  const RobotsTrafficReport report =
      Compare(RobotsTxt::Parse("User-agent: gptbot\nDisallow: /\n"), rows, std::nullopt, crawlers);
  ASSERT_EQ(report.crawlers.size(), 2u) << "a repeated token is listed once";
  EXPECT_EQ(report.crawlers[0].name, "GPTBot");
  ExpectCounts(report.crawlers[0].current.disallowed, Counts(7, 1, 2, 4));
  EXPECT_EQ(report.crawlers[0].root.group, "gptbot");
  EXPECT_EQ(report.crawlers[1].name, "ChatGPT-User");
  EXPECT_EQ(report.crawlers[1].current.requests.total, 8);
}

TEST(RobotsTraffic, UnlistedCrawlersSeenOnlyBeforeAreReportedToo) {
  const Rows before = {R("Googlebot", "verified", "/search", 4)};
  const RobotsTrafficReport report = Compare(RobotsTxt::Parse(kRobots), Rows{}, before);
  ASSERT_EQ(report.crawlers.size(), 5u);
  EXPECT_EQ(report.crawlers[4].name, "Googlebot");
  EXPECT_EQ(report.crawlers[4].statement,
            "Googlebot is partly disallowed and never came, down from 4 the previous period.");
}

TEST(RobotsTraffic, ListsAtMostTheTopDisallowedPaths) {
  Rows rows;
  for (int i = 0; i < 40; ++i) {
    rows.push_back(R("GPTBot", "verified", "/p" + std::to_string(i), 100 - i));
  }
  const RobotsTrafficReport report = Compare(RobotsTxt::Parse(kRobots), rows);
  const CrawlerTrafficVerdict& gpt = report.crawlers[0];
  ASSERT_EQ(gpt.current.top_disallowed.size(), kRobotsTrafficTopPaths);
  EXPECT_EQ(gpt.current.top_disallowed.back().path, "/p9");
  EXPECT_EQ(gpt.current.disallowed.total, 40 * 100 - (39 * 40) / 2) << "all counted";
  EXPECT_EQ(report.blocked_paths.size(), kRobotsTrafficBlockedPaths);
}

}  // namespace
}  // namespace sightline::site_audit
