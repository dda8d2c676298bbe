// AI usage lines against robots.txt rules and against each other.
#include "site_audit/ai_usage.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sightline::site_audit {
namespace {

const std::vector<AiCrawler> kCrawlers = {
    {"GPTBot", "training"},         {"CCBot", "training"},       {"OAI-SearchBot", "search"},
    {"ChatGPT-User", "user_fetch"}, {"PerplexityBot", "search"},
};

using Strings = std::vector<std::string>;
using Lines = std::vector<int>;

TEST(AiUsage, ReportsEachCrawlersAccessToTheRoot) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: GPTBot\nDisallow: /\n\n"
      "User-agent: CCBot\nDisallow: /private\n\n"
      "User-agent: PerplexityBot\nDisallow: /\nAllow: /blog\n\n"
      "User-agent: *\nAllow: /\n");
  const AiUsageAudit audit = SiteAiUsage(robots, kCrawlers);
  ASSERT_EQ(audit.crawlers.size(), kCrawlers.size());
  EXPECT_EQ(audit.crawlers[0].name, "GPTBot");
  EXPECT_EQ(audit.crawlers[0].purpose, "training");
  EXPECT_EQ(audit.crawlers[0].access, CrawlAccess::kDisallowed);
  EXPECT_EQ(audit.crawlers[0].root.rule, "Disallow: /");
  EXPECT_EQ(audit.crawlers[0].root.line, 2);
  EXPECT_EQ(audit.crawlers[1].access, CrawlAccess::kPartial);  // allowed, but not /private
  EXPECT_TRUE(audit.crawlers[1].root.allowed);
  EXPECT_EQ(audit.crawlers[2].access, CrawlAccess::kAllowed);  // the * group
  EXPECT_EQ(audit.crawlers[2].root.group, "*");
  EXPECT_EQ(audit.crawlers[4].access, CrawlAccess::kPartial);  // refused, but /blog is open
  EXPECT_FALSE(audit.crawlers[4].root.allowed);
  EXPECT_TRUE(audit.contradictions.empty());
}

TEST(AiUsage, TrainingOptOutWhileTrainingCrawlersMayCrawl) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: GPTBot\nAllow: /\n\n"
      "User-Agent: *\n"
      "Content-Signal: search=yes, ai-input=yes, ai-train=no\n"
      "Allow: /\n");
  const AiUsageAudit audit = SiteAiUsage(robots, kCrawlers);
  ASSERT_EQ(audit.contradictions.size(), 1u);
  const AiUsageContradiction& found = audit.contradictions[0];
  EXPECT_EQ(found.key, "ai-train");
  EXPECT_EQ(found.lines, Lines{5});
  // GPTBot never reads the * group, but the site-wide signal still speaks about it.
  EXPECT_EQ(found.crawlers, (Strings{"GPTBot", "CCBot"}));
  EXPECT_EQ(found.message,
            "Content-Signal ai-train=no (line 5) opts out of AI training, but robots.txt lets "
            "GPTBot, CCBot crawl /.");
}

TEST(AiUsage, NoContradictionWhenTheRulesAgree) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\n"
      "User-Agent: *\n"
      "Content-Signal: search=yes, ai-train=no\n"
      "Allow: /\n");
  EXPECT_TRUE(SiteAiUsage(robots, kCrawlers).contradictions.empty());
}

TEST(AiUsage, SearchAndAiInputOptOutsNameTheirCrawlers) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: PerplexityBot\nDisallow: /\n"
      "User-agent: *\n"
      "Content-Signal: search=no\n"
      "Content-Signal: ai-input=no\n");
  const AiUsageAudit audit = SiteAiUsage(robots, kCrawlers);
  ASSERT_EQ(audit.contradictions.size(), 2u);
  EXPECT_EQ(audit.contradictions[0].key, "search");
  EXPECT_EQ(audit.contradictions[0].lines, Lines{4});
  EXPECT_EQ(audit.contradictions[0].crawlers, Strings{"OAI-SearchBot"});
  EXPECT_EQ(audit.contradictions[1].key, "ai-input");
  EXPECT_EQ(audit.contradictions[1].lines, Lines{5});
  EXPECT_EQ(audit.contradictions[1].crawlers, (Strings{"OAI-SearchBot", "ChatGPT-User"}));
  EXPECT_EQ(audit.contradictions[1].message,
            "Content-Signal ai-input=no (line 5) opts out of AI input (answers, grounding), but "
            "robots.txt lets OAI-SearchBot, ChatGPT-User crawl /.");
}

TEST(AiUsage, OptInWhileEveryCrawlerItConcernsIsRefused) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n"
      "User-agent: *\nContent-Usage: train-ai=y\n");
  const AiUsageAudit audit = SiteAiUsage(robots, kCrawlers);
  ASSERT_EQ(audit.contradictions.size(), 1u);
  EXPECT_EQ(audit.contradictions[0].key, "ai-train");
  EXPECT_EQ(audit.contradictions[0].crawlers, (Strings{"GPTBot", "CCBot"}));
  EXPECT_EQ(audit.contradictions[0].message,
            "Content-Usage train-ai=y (line 5) opts in to AI training, but robots.txt disallows / "
            "to all of GPTBot, CCBot.");
  // One training crawler let in is enough to make the opt-in meaningful.
  const RobotsTxt partly = RobotsTxt::Parse(
      "User-agent: GPTBot\nDisallow: /\nUser-agent: *\nContent-Usage: train-ai=y\n");
  EXPECT_TRUE(SiteAiUsage(partly, kCrawlers).contradictions.empty());
  // With no training crawler to judge by, nothing is claimed.
  EXPECT_TRUE(SiteAiUsage(robots, {{"OAI-SearchBot", "search"}}).contradictions.empty());
}

TEST(AiUsage, TwoDirectivesDisagreeingOnTheSameKey) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: *\n"
      "Content-Signal: ai-train=yes, search=yes\n"
      "Content-Usage: train-ai=n, search=y\n"
      "Allow: /\n");
  const AiUsageAudit audit = SiteAiUsage(robots, {});
  ASSERT_EQ(audit.contradictions.size(), 1u);
  EXPECT_EQ(audit.contradictions[0].key, "ai-train");
  EXPECT_EQ(audit.contradictions[0].lines, (Lines{2, 3}));
  EXPECT_TRUE(audit.contradictions[0].crawlers.empty());
  EXPECT_EQ(audit.contradictions[0].message,
            "Content-Signal ai-train=yes (line 2) and Content-Usage train-ai=n (line 3) disagree "
            "about AI training.");
}

TEST(AiUsage, LinesOutsideAnyGroupAndInTheStarGroupShareAnAudience) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "Content-Signal: search=no\n"
      "User-agent: *\n"
      "Content-Signal: search=yes\n");
  const AiUsageAudit audit = SiteAiUsage(robots, {});
  ASSERT_EQ(audit.contradictions.size(), 1u);
  EXPECT_EQ(audit.contradictions[0].lines, (Lines{1, 3}));
}

TEST(AiUsage, DifferentGroupsOrScopesDoNotDisagree) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: *\n"
      "Content-Signal: ai-train=no\n"
      "Content-Usage: /open/ train-ai=y\n"
      "Disallow: /\n"
      "User-agent: GPTBot\n"
      "Content-Signal: ai-train=yes\n"
      "Allow: /\n");
  const AiUsageAudit audit = SiteAiUsage(robots, kCrawlers);
  // Only the site-wide opt-out is contradicted (GPTBot's own group lets it in). The GPTBot-only
  // and the /open/ opt-ins are exceptions, not disagreements, and GPTBot may act on both.
  ASSERT_EQ(audit.contradictions.size(), 1u);
  EXPECT_EQ(audit.contradictions[0].lines, Lines{2});
  EXPECT_EQ(audit.contradictions[0].crawlers, Strings{"GPTBot"});
}

TEST(AiUsage, ScopedLinesAreCheckedAtTheirPath) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: *\n"
      "Content-Usage: /docs/ train-ai=n\n"
      "Content-Usage: /blog/ train-ai=n\n"
      "Disallow: /docs/\n");
  const AiUsageAudit audit = SiteAiUsage(robots, {{"CCBot", "training"}});
  ASSERT_EQ(audit.contradictions.size(), 1u);
  EXPECT_EQ(audit.contradictions[0].lines, Lines{3});
  EXPECT_EQ(audit.contradictions[0].message,
            "Content-Usage train-ai=n (line 3) opts out of AI training, but robots.txt lets CCBot "
            "crawl /blog/.");
}

TEST(AiUsage, GroupLinesSpeakOnlyToTheirGroup) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: CCBot\n"
      "Content-Signal: ai-train=no\n"
      "Disallow: /\n"
      "User-agent: *\n"
      "Allow: /\n");
  // GPTBot is allowed, but the opt-out sits in CCBot's group and does not speak about it.
  EXPECT_TRUE(SiteAiUsage(robots, kCrawlers).contradictions.empty());
}

TEST(AiUsage, BotsOptOutConcernsEveryCrawlerAndBadValuesAreSkipped) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: GPTBot\nDisallow: /\n"
      "User-agent: *\n"
      "Content-Usage: bots=n, train-genai=maybe\n");
  const AiUsageAudit audit = SiteAiUsage(robots, kCrawlers);
  ASSERT_EQ(audit.contradictions.size(), 1u);
  EXPECT_EQ(audit.contradictions[0].key, "bots");
  EXPECT_EQ(audit.contradictions[0].crawlers,
            (Strings{"CCBot", "OAI-SearchBot", "ChatGPT-User", "PerplexityBot"}));
}

TEST(AiUsage, ContradictionsComeInLineOrder) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: *\n"
      "Content-Signal: search=no\n"
      "Content-Signal: ai-train=no\n"
      "Content-Usage: search=y\n");
  const AiUsageAudit audit = SiteAiUsage(robots, kCrawlers);
  ASSERT_EQ(audit.contradictions.size(), 3u);
  EXPECT_EQ(audit.contradictions[0].lines, Lines{2});       // search=no, search crawlers allowed
  EXPECT_EQ(audit.contradictions[1].lines, (Lines{2, 4}));  // search=no vs search=y
  EXPECT_EQ(audit.contradictions[2].lines, Lines{3});       // ai-train=no, training allowed
}

TEST(AiUsage, CanonicalKeys) {
  EXPECT_EQ(CanonicalAiUsageKey("train-ai"), "ai-train");
  EXPECT_EQ(CanonicalAiUsageKey("ai-train"), "ai-train");
  EXPECT_EQ(CanonicalAiUsageKey("search"), "search");
  EXPECT_EQ(CanonicalAiUsageKey("ai-input"), "ai-input");
  EXPECT_EQ(CanonicalAiUsageKey("ai-use"), "ai-use");
}

}  // namespace
}  // namespace sightline::site_audit
