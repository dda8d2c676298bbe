// robots.txt parsing and matching: RFC 9309's examples (§5.1, §5.2, §2.2.2-2.2.3), Google's
// precedence examples, groups, limits and the AI usage lines. Google's `*`/`$` table is in
// robots_match_test.cpp.
#include "site_audit/robots_txt.h"

#include <gtest/gtest.h>

#include "tests/sanitizer/slowdown.h"

#include <chrono>
#include <string>

namespace sightline::site_audit {
namespace {

// RFC 9309 §5.1, verbatim.
constexpr char kRfcSimpleExample[] =
    "User-Agent: *\n"
    "Disallow: *.gif$\n"
    "Disallow: /example/\n"
    "Allow: /publications/\n"
    "\n"
    "User-Agent: foobot\n"
    "Disallow:/\n"
    "Allow:/example/page.html\n"
    "Allow:/example/allowed.gif\n"
    "\n"
    "User-Agent: barbot\n"
    "User-Agent: bazbot\n"
    "Disallow: /example/page.html\n"
    "\n"
    "User-Agent: quxbot\n"
    "\n"
    "EOF\n";

TEST(RobotsTxt, Rfc9309SimpleExample) {
  const RobotsTxt robots = RobotsTxt::Parse(kRfcSimpleExample);
  // foobot: everything but the two allowed files.
  EXPECT_TRUE(robots.IsAllowed("foobot", "/example/page.html"));
  EXPECT_TRUE(robots.IsAllowed("foobot", "/example/allowed.gif"));
  EXPECT_FALSE(robots.IsAllowed("foobot", "/example/other.html"));
  EXPECT_FALSE(robots.IsAllowed("foobot", "/"));
  // barbot and bazbot share one group.
  EXPECT_FALSE(robots.IsAllowed("barbot", "/example/page.html"));
  EXPECT_FALSE(robots.IsAllowed("bazbot", "/example/page.html"));
  EXPECT_TRUE(robots.IsAllowed("bazbot", "/example/"));
  EXPECT_TRUE(robots.IsAllowed("barbot", "/picture.gif"));  // the * group does not apply
  // quxbot's group has no rules: everything is allowed, the * group is not consulted.
  EXPECT_TRUE(robots.IsAllowed("quxbot", "/example/"));
  EXPECT_TRUE(robots.IsAllowed("quxbot", "/a.gif"));
  // Everyone else reads the * group.
  EXPECT_FALSE(robots.IsAllowed("otherbot", "/picture.gif"));
  EXPECT_TRUE(robots.IsAllowed("otherbot", "/picture.gif?x"));  // `$` anchors the end
  EXPECT_FALSE(robots.IsAllowed("otherbot", "/example/"));
  EXPECT_TRUE(robots.IsAllowed("otherbot", "/publications/"));
  EXPECT_TRUE(robots.IsAllowed("otherbot", "/"));
}

TEST(RobotsTxt, Rfc9309LongestMatchExample) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-Agent: foobot\n"
      "Allow: /example/page/\n"
      "Disallow: /example/page/disallowed.gif\n");
  const RobotsVerdict allowed = robots.Check("foobot", "/example/page/");
  EXPECT_TRUE(allowed.allowed);
  EXPECT_EQ(allowed.rule, "Allow: /example/page/");
  EXPECT_EQ(allowed.line, 2);
  EXPECT_EQ(allowed.group, "foobot");
  const RobotsVerdict refused = robots.Check("foobot", "/example/page/disallowed.gif");
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.rule, "Disallow: /example/page/disallowed.gif");
  EXPECT_EQ(refused.line, 3);
}

TEST(RobotsTxt, Rfc9309SpecialCharacters) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: *\n"
      "Disallow: /\n"
      "Allow: /this/path/exactly$\n"
      "Allow: /this/*/exactly\n"
      "Disallow: /this/path/exactly-not # a comment\n");
  EXPECT_TRUE(robots.IsAllowed("bot", "/this/path/exactly"));
  EXPECT_FALSE(robots.IsAllowed("bot", "/this/path/exactly-not"));
  EXPECT_TRUE(robots.IsAllowed("bot", "/this/any/thing/exactly/more"));
  EXPECT_FALSE(robots.IsAllowed("bot", "/this/path/"));
}

TEST(RobotsTxt, Rfc9309PercentEncodingTable) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: *\n"
      "Disallow: /foo/bar?baz=quz\n"
      "Disallow: /foo/bar/ツ\n"
      "Disallow: /foo/bar/%62%61%7A\n"
      "Disallow: /a%2Fb\n");
  EXPECT_FALSE(robots.IsAllowed("bot", "/foo/bar?baz=quz"));
  EXPECT_TRUE(robots.IsAllowed("bot", "/foo/bar?baz=qux"));
  EXPECT_FALSE(robots.IsAllowed("bot", "/foo/bar/%E3%83%84"));
  EXPECT_FALSE(robots.IsAllowed("bot", "/foo/bar/%e3%83%84"));  // hex case does not matter
  EXPECT_FALSE(robots.IsAllowed("bot", "/foo/bar/ツ"));
  EXPECT_FALSE(robots.IsAllowed("bot", "/foo/bar/baz"));  // unreserved escapes decode
  EXPECT_FALSE(robots.IsAllowed("bot", "/foo/bar/%62az"));
  EXPECT_TRUE(robots.IsAllowed("bot", "/a/b"));  // %2F is a reserved character: never decoded
  EXPECT_FALSE(robots.IsAllowed("bot", "/a%2fb"));
}

TEST(RobotsTxt, GooglePrecedenceExamples) {
  auto allowed = [](const char* rules, const char* path) {
    return RobotsTxt::Parse(std::string("User-agent: *\n") + rules).IsAllowed("bot", path);
  };
  EXPECT_TRUE(allowed("Allow: /p\nDisallow: /\n", "/page"));
  EXPECT_TRUE(allowed("Allow: /folder\nDisallow: /folder\n", "/folder/page"));  // tie: allow
  EXPECT_FALSE(allowed("Allow: /page\nDisallow: /*.htm\n", "/page.htm"));       // 6 > 5 octets
  EXPECT_TRUE(allowed("Allow: /page\nDisallow: /*.ph\n", "/page.php5"));        // tie: allow
  EXPECT_TRUE(allowed("Allow: /$\nDisallow: /\n", "/"));
  EXPECT_FALSE(allowed("Allow: /$\nDisallow: /\n", "/page.htm"));
}

TEST(RobotsTxt, AllowWinsTieWhicheverComesFirst) {
  const RobotsTxt robots =
      RobotsTxt::Parse("User-agent: *\nDisallow: /same\nAllow: /same\nDisallow: /sam*\n");
  const RobotsVerdict verdict = robots.Check("bot", "/same/x");
  EXPECT_TRUE(verdict.allowed);
  EXPECT_EQ(verdict.rule, "Allow: /same");
  EXPECT_EQ(verdict.line, 3);
}

TEST(RobotsTxt, SpecificityCountsNormalizedOctets) {
  // "/%61%62c" is "/abc" (4 octets) once decoded; "/abc*" (5) is the longer match.
  const RobotsTxt robots = RobotsTxt::Parse("User-agent: *\nDisallow: /%61%62c\nAllow: /abc*\n");
  EXPECT_TRUE(robots.IsAllowed("bot", "/abcd"));
  EXPECT_FALSE(RobotsTxt::Parse("User-agent: *\nDisallow: /%61%62c\nAllow: /ab\n")
                   .IsAllowed("bot", "/abcd"));
}

TEST(RobotsTxt, DollarOnlyAnchorsAtTheEnd) {
  const RobotsTxt robots = RobotsTxt::Parse("User-agent: *\nDisallow: /a$b\n");
  EXPECT_FALSE(robots.IsAllowed("bot", "/a$b/c"));
  EXPECT_TRUE(robots.IsAllowed("bot", "/a"));
}

TEST(RobotsTxt, ProductTokensMatchCaseInsensitively) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: GPTBot/1.0 (extra words)\nDisallow: /\n"
      "User-agent: *\nDisallow: /private\n");
  for (const char* token : {"GPTBot", "gptbot", "GPTBOT/1.1", " GPTBot "}) {
    const RobotsVerdict verdict = robots.Check(token, "/page");
    EXPECT_FALSE(verdict.allowed) << token;
    EXPECT_EQ(verdict.group, "GPTBot") << token;
  }
  // Tokens are whole: neither a longer nor a shorter token shares the group.
  EXPECT_EQ(robots.Check("GPTBot-Extended", "/page").group, "*");
  EXPECT_TRUE(robots.IsAllowed("GPT", "/page"));
  EXPECT_TRUE(robots.NamesAgent("gptbot"));
  EXPECT_FALSE(robots.NamesAgent("ClaudeBot"));
  EXPECT_FALSE(robots.NamesAgent("*"));
}

TEST(RobotsTxt, GroupsForOneAgentMerge) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: a\nDisallow: /one\n"
      "User-agent: b\nDisallow: /two\n"
      "User-agent: A\nDisallow: /three\nCrawl-delay: 4\n");
  EXPECT_FALSE(robots.IsAllowed("a", "/one"));
  EXPECT_TRUE(robots.IsAllowed("a", "/two"));
  const RobotsVerdict verdict = robots.Check("a", "/three");
  EXPECT_FALSE(verdict.allowed);
  EXPECT_EQ(verdict.line, 6);
  EXPECT_EQ(verdict.group, "a");  // as the first group naming it wrote it
  EXPECT_EQ(robots.CrawlDelay("a"), 4.0);
  ASSERT_EQ(robots.RulesFor("a").size(), 2u);
  EXPECT_EQ(robots.RulesFor("a")[1].pattern, "/three");
}

TEST(RobotsTxt, GroupsAreRunsOfUserAgentLinesThenRules) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "Disallow: /before-any-group\n"  // ignored: no group yet
      "User-agent: a\n"
      "\n"
      "Unknown-directive: x\n"  // neither a blank line nor an unknown line ends the run
      "Sitemap: https://example.com/s.xml\n"
      "User-agent: b\n"
      "Disallow: /shared\n"
      "User-agent: c\n"
      "Disallow: /c-only\n"
      "User-agent:\n"  // an empty token still starts a group, whose rules bind to no one
      "Disallow: /nobody\n");
  EXPECT_TRUE(robots.IsAllowed("a", "/before-any-group"));
  EXPECT_FALSE(robots.IsAllowed("a", "/shared"));
  EXPECT_FALSE(robots.IsAllowed("b", "/shared"));
  EXPECT_TRUE(robots.IsAllowed("c", "/shared"));
  EXPECT_FALSE(robots.IsAllowed("c", "/c-only"));
  EXPECT_TRUE(robots.IsAllowed("c", "/nobody"));
  const RobotsVerdict other = robots.Check("z", "/nobody");
  EXPECT_TRUE(other.allowed);
  EXPECT_EQ(other.group, "");  // no group applies: no * group
}

TEST(RobotsTxt, EmptyDisallowMeansNothing) {
  const RobotsTxt robots =
      RobotsTxt::Parse("User-agent: a\nDisallow:\n\nUser-agent: *\nDisallow: /\n");
  const RobotsVerdict verdict = robots.Check("a", "/anything");
  EXPECT_TRUE(verdict.allowed);
  EXPECT_EQ(verdict.rule, "");
  EXPECT_EQ(verdict.line, 0);
  EXPECT_EQ(verdict.group, "a");
  EXPECT_FALSE(robots.IsAllowed("b", "/anything"));
  EXPECT_TRUE(robots.RulesFor("a").empty());
}

TEST(RobotsTxt, RobotsTxtItselfIsAlwaysAllowed) {
  const RobotsTxt robots = RobotsTxt::DisallowAll();
  EXPECT_TRUE(robots.IsAllowed("bot", "/robots.txt"));
  EXPECT_TRUE(robots.IsAllowed("bot", "/robots.txt?x=1"));
  EXPECT_FALSE(robots.IsAllowed("bot", "/robots.txt.bak"));
  const RobotsVerdict verdict = robots.Check("bot", "/");
  EXPECT_FALSE(verdict.allowed);
  EXPECT_EQ(verdict.rule, "Disallow: /");
  EXPECT_EQ(verdict.group, "*");
}

TEST(RobotsTxt, AllowAllAllowsEverything) {
  const RobotsTxt robots = RobotsTxt::AllowAll();
  const RobotsVerdict verdict = robots.Check("bot", "/private");
  EXPECT_TRUE(verdict.allowed);
  EXPECT_EQ(verdict.group, "");
  EXPECT_FALSE(robots.CrawlDelay("bot"));
  EXPECT_TRUE(robots.sitemaps().empty());
}

TEST(RobotsTxt, PathIsNormalizedBeforeMatching) {
  const RobotsTxt robots = RobotsTxt::Parse("User-agent: *\nDisallow: /$\n");
  EXPECT_FALSE(robots.IsAllowed("bot", ""));  // an empty path is "/"
  EXPECT_FALSE(robots.IsAllowed("bot", "/#fragment"));
  EXPECT_TRUE(robots.IsAllowed("bot", "/?q"));
}

TEST(RobotsTxt, ToleratesBomCrlfCrCommentsAndMissingColons) {
  const RobotsTxt crlf = RobotsTxt::Parse(
      "\xEF\xBB\xBFUser-agent: *\r\n# comment line\r\nDisallow /nocolon\r\n"
      "Disallow: /x # trailing comment\r\nDisallow two words here\r\nDISALLOW : /caps\r\n");
  EXPECT_FALSE(crlf.IsAllowed("bot", "/nocolon"));
  const RobotsVerdict verdict = crlf.Check("bot", "/x");
  EXPECT_FALSE(verdict.allowed);
  EXPECT_EQ(verdict.rule, "Disallow: /x");
  EXPECT_EQ(verdict.line, 4);  // CRLF is one line end
  EXPECT_TRUE(crlf.IsAllowed("bot", "/two"));
  EXPECT_FALSE(crlf.IsAllowed("bot", "/caps"));
  const RobotsTxt cr = RobotsTxt::Parse("User-agent: *\rDisallow: /a\r\rDisallow: /b\r");
  EXPECT_FALSE(cr.IsAllowed("bot", "/a"));
  EXPECT_EQ(cr.Check("bot", "/b").line, 4);
  // Typos Google forgives.
  const RobotsTxt typos = RobotsTxt::Parse("useragent: *\ndissallow: /t\n");
  EXPECT_FALSE(typos.IsAllowed("bot", "/t"));
}

TEST(RobotsTxt, OnlyTheFirst512000BytesAreRead) {
  const std::string head = "User-agent: *\nDisallow: /early\n";
  const std::string edge = "Disallow: /edge\n";  // ends exactly at the cap
  std::string body = head;
  while (body.size() + 100 < kRobotsTxtMaxBytes - edge.size())
    body += "#" + std::string(98, 'x') + "\n";
  body += "#" + std::string(kRobotsTxtMaxBytes - edge.size() - body.size() - 2, 'y') + "\n";
  body += edge;
  ASSERT_EQ(body.size(), kRobotsTxtMaxBytes);
  body += "Disallow: /late\n";
  const RobotsTxt robots = RobotsTxt::Parse(body);
  EXPECT_FALSE(robots.IsAllowed("bot", "/early"));
  EXPECT_FALSE(robots.IsAllowed("bot", "/edge"));
  EXPECT_TRUE(robots.IsAllowed("bot", "/late"));

  // A line the cut falls inside is dropped, not read as its first half ("Disallow: /s").
  std::string straddling = body.substr(0, kRobotsTxtMaxBytes - edge.size());
  straddling += "Disallow: /straddle\n";
  ASSERT_GT(straddling.size(), kRobotsTxtMaxBytes);
  const RobotsTxt cut = RobotsTxt::Parse(straddling);
  EXPECT_TRUE(cut.IsAllowed("bot", "/straddle"));
  EXPECT_TRUE(cut.IsAllowed("bot", "/s"));
  EXPECT_FALSE(cut.IsAllowed("bot", "/early"));
}

TEST(RobotsTxt, CrawlDelayComesFromTheGroupThatApplies) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: slow\nCrawl-delay: 2.5\nCrawl-delay: 9\n"
      "User-agent: bad\nCrawl-delay: soon\n"
      "User-agent: *\nCrawl-delay: 1\n");
  EXPECT_EQ(robots.CrawlDelay("slow"), 2.5);  // the first one
  EXPECT_EQ(robots.CrawlDelay("SLOW/2"), 2.5);
  EXPECT_EQ(robots.CrawlDelay("bad"), std::nullopt);  // its own group, not the * one
  EXPECT_EQ(robots.CrawlDelay("other"), 1.0);
  EXPECT_TRUE(robots.IsAllowed("bad", "/"));
}

TEST(RobotsTxt, SitemapsFromAnywhereAsWritten) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "Sitemap: https://example.com/a.xml\n"
      "User-agent: *\n"
      "sitemap:https://example.com/b.xml.gz # comment\n"
      "Disallow: /x\n"
      "Sitemap:\n"
      "SITEMAP: http://cdn.example.net/c.xml\n");
  EXPECT_EQ(robots.sitemaps(),
            (std::vector<std::string>{"https://example.com/a.xml", "https://example.com/b.xml.gz",
                                      "http://cdn.example.net/c.xml"}));
  EXPECT_FALSE(robots.IsAllowed("bot", "/x"));
}

TEST(RobotsTxt, AiUsageLinesAreRecordedWithTheirGroup) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "Content-Signal: search=yes\n"
      "User-Agent: *\n"
      "Content-Signal: search=yes, ai-input=no, ai-train=no\n"
      "Allow: /\n"
      "User-agent: GPTBot\n"
      "Content-Usage: /docs/ train-ai=n, search=y\n"
      "User-agent: ClaudeBot\n"
      "Disallow: /private\n"
      "content-usage: train-ai=maybe, frobnicate=y, bots, search=n, search=y, ai-train=n\n");
  const auto& lines = robots.ai_usage();
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].directive, "Content-Signal");
  EXPECT_EQ(lines[0].group, "");
  EXPECT_EQ(lines[1].line, 3);
  EXPECT_EQ(lines[1].group, "*");
  using Preferences = std::vector<std::pair<std::string, std::optional<bool>>>;
  EXPECT_EQ(lines[1].preferences,
            (Preferences{{"search", true}, {"ai-input", false}, {"ai-train", false}}));
  EXPECT_TRUE(lines[1].problems.empty());
  // The user-agent line after it still joins its group, and the group is not broken.
  EXPECT_EQ(lines[2].group, "GPTBot, ClaudeBot");
  EXPECT_EQ(lines[2].scope, "/docs/");
  EXPECT_EQ(lines[2].preferences, (Preferences{{"train-ai", false}, {"search", true}}));
  EXPECT_FALSE(robots.IsAllowed("GPTBot", "/private"));
  EXPECT_EQ(lines[3].directive, "content-usage");
  EXPECT_EQ(lines[3].preferences, (Preferences{{"train-ai", std::nullopt},
                                               {"frobnicate", true},
                                               {"bots", std::nullopt},
                                               {"search", false},
                                               {"search", true},
                                               {"ai-train", false}}));
  EXPECT_EQ(lines[3].problems,
            (std::vector<std::string>{"\"train-ai\" has the value \"maybe\", not yes or no",
                                      "unknown key \"frobnicate\"", "\"bots\" has no value",
                                      "\"search\" is given more than once",
                                      "unknown key \"ai-train\" (a Content-Signal key)"}));
  // The AI lines neither start nor end groups: ClaudeBot's rule is still its own.
  EXPECT_TRUE(robots.IsAllowed("otherbot", "/private"));
}

TEST(RobotsTxt, AiUsageLineWithoutPreferencesIsAProblem) {
  const RobotsTxt robots = RobotsTxt::Parse("User-agent: *\nContent-Usage: /only/a/path\n");
  ASSERT_EQ(robots.ai_usage().size(), 1u);
  EXPECT_EQ(robots.ai_usage()[0].scope, "/only/a/path");
  EXPECT_EQ(robots.ai_usage()[0].problems, std::vector<std::string>{"no preferences"});
}

TEST(RobotsTxt, PathologicalPatternsFinishFast) {
  std::string stars = "User-agent: *\nDisallow: /" + std::string(1000, '*') + "x$\n";
  for (int i = 0; i < 1000; ++i)
    stars += "Disallow: /*a*a*a*a*a*a*a*a*a*a*b" + std::to_string(i) + "\n";
  std::string many = "Disallow: /";
  for (int i = 0; i < 1000; ++i) many += "*a";
  stars += many + "*c\n";
  const RobotsTxt robots = RobotsTxt::Parse(stars);
  const std::string path = "/" + std::string(10000, 'a');
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(robots.IsAllowed("bot", path));
  EXPECT_FALSE(robots.IsAllowed("bot", path + "x"));
  EXPECT_FALSE(robots.IsAllowed("bot", path + "c"));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  // exponential backtracking would never finish
  EXPECT_LT(elapsed, std::chrono::seconds(2) * sightline::testing::kSanitizerSlowdown);
}

}  // namespace
}  // namespace sightline::site_audit
