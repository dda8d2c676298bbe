#include "detection/bot_catalog.h"
#include "ingest/traffic_sources.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

// Hand-written User-Agents, none from the labelled corpus.
namespace sightline::detection {
namespace {

std::string Entry(std::string_view name, std::string_view category, std::string_view tokens) {
  return std::string(R"({"name":")") + std::string(name) + R"(","vendor":"Example","category":")" +
         std::string(category) + R"(","is_ai":false,"ua_tokens":[)" + std::string(tokens) + "]}";
}

std::string Document(std::string_view entries) {
  return R"({"bots":[)" + std::string(entries) + "]}";
}

TEST(BotCatalog, BuiltinParsesAndIsBroad) {
  const BotCatalog& catalog = BotCatalog::Builtin();
  EXPECT_GE(catalog.entries().size(), 150u);
  std::set<std::string> categories;
  for (const BotEntry& entry : catalog.entries()) categories.insert(entry.category);
  EXPECT_EQ(categories.size(), 11u);  // every actor_category has at least one bot
}

TEST(BotCatalog, BuiltinVerificationFacts) {
  const BotCatalog& catalog = BotCatalog::Builtin();
  const BotEntry* googlebot = catalog.Match("Googlebot/2.1 (+http://www.google.com/bot.html)");
  ASSERT_NE(googlebot, nullptr);
  ASSERT_FALSE(googlebot->ip_ranges.empty());
  EXPECT_EQ(googlebot->ip_ranges[0].id, "googlebot");
  EXPECT_EQ(googlebot->rdns_suffixes[0], ".googlebot.com");
  const BotEntry* agent = catalog.FindBySignatureAgent("https://chatgpt.com");
  ASSERT_NE(agent, nullptr);
  EXPECT_EQ(agent->vendor, "OpenAI");
  const BotEntry* bytespider = catalog.Match("Mozilla/5.0 (compatible; Bytespider; x@y.example)");
  ASSERT_NE(bytespider, nullptr);
  EXPECT_FALSE(bytespider->Verifiable());
}

TEST(BotCatalog, ParseRejectsUnknownCategoryNamingTheEntry) {
  auto parsed = BotCatalog::Parse(Document(Entry("FooBot", "crawler", R"("foobot")")));
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().code(), core::ErrorCode::kValInvalidParameter);
  EXPECT_NE(parsed.error().message().find("FooBot"), std::string::npos);
  EXPECT_NE(parsed.error().message().find("crawler"), std::string::npos);
}

// Every assistant the catalog names is a source ingestion counts in the AI Assistants channel,
// under the same name, so a crawler's referrals are found by it.
TEST(BotCatalog, AssistantsAreTheAiSourcesIngestionNames) {
  const BotCatalog& catalog = BotCatalog::Builtin();
  std::set<std::string> vendors;
  for (const BotEntry& entry : catalog.entries()) {
    const std::string assistant(catalog.AssistantOf(entry.vendor));
    if (assistant.empty() || !vendors.insert(entry.vendor).second) continue;
    std::string utm;
    for (char c : assistant) utm.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    const auto source = ingest::ClassifyTrafficSource("", "example.com", utm, "", "");
    EXPECT_EQ(source.source, assistant) << entry.vendor;
    EXPECT_TRUE(ingest::IsAiAssistantChannel(source.channel)) << entry.vendor;
  }
  EXPECT_EQ(catalog.AssistantOf("OpenAI"), "ChatGPT");
  EXPECT_TRUE(vendors.count("Anthropic") && vendors.count("Perplexity"));
  EXPECT_EQ(catalog.AssistantOf("Common Crawl"), "");
}

TEST(BotCatalog, ParseRejectsAnAssistantWithoutASource) {
  auto parsed = BotCatalog::Parse(R"({"assistants":[{"vendor":"Example"}],"bots":[)" +
                                  Entry("FooBot", "search_engine", R"("foobot")") + "]}");
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.error().message().find("assistants[0]"), std::string::npos);
}

TEST(BotCatalog, ParseRejectsDuplicatesAndBadTokens) {
  const std::string a = Entry("FooBot", "seo", R"("foobot")");
  auto duplicate_name = BotCatalog::Parse(Document(a + "," + Entry("foobot", "seo", R"("other")")));
  ASSERT_FALSE(duplicate_name);
  EXPECT_NE(duplicate_name.error().message().find("duplicate name"), std::string::npos);

  auto duplicate_token = BotCatalog::Parse(Document(a + "," + Entry("Bar", "seo", R"("foobot")")));
  ASSERT_FALSE(duplicate_token);
  EXPECT_NE(duplicate_token.error().message().find("FooBot"), std::string::npos);

  EXPECT_FALSE(BotCatalog::Parse(Document(Entry("Up", "seo", R"("FooBot")"))));   // upper case
  EXPECT_FALSE(BotCatalog::Parse(Document(Entry("Short", "seo", R"("fb")"))));     // too short
  EXPECT_FALSE(BotCatalog::Parse(Document(Entry("None", "seo", ""))));             // no token
  EXPECT_FALSE(BotCatalog::Parse("{\"bots\": 3}"));
  EXPECT_FALSE(BotCatalog::Parse("not json"));
  const std::string bad_suffix =
      R"({"bots":[{"name":"X","vendor":"V","category":"seo","is_ai":false,"ua_tokens":["xbot"],)"
      R"("verification":{"rdns_suffixes":["example.com"]}}]})";
  EXPECT_FALSE(BotCatalog::Parse(bad_suffix));
  const std::string bad_url =
      R"({"bots":[{"name":"X","vendor":"V","category":"seo","is_ai":false,"ua_tokens":["xbot"],)"
      R"("verification":{"ip_ranges":[{"id":"x","url":"http://example.com/x.json"}]}}]})";
  EXPECT_FALSE(BotCatalog::Parse(bad_url));
}

TEST(BotCatalog, LongestTokenWins) {
  auto parsed = BotCatalog::Parse(Document(Entry("ExampleBot", "search_engine", R"("examplebot")") +
                                           "," +
                                           Entry("ExampleBot-Image", "search_engine",
                                                 R"("examplebot-image")")));
  ASSERT_TRUE(parsed);
  ASSERT_NE(parsed->Match("ExampleBot-Image/1.0"), nullptr);
  EXPECT_EQ(parsed->Match("ExampleBot-Image/1.0")->name, "ExampleBot-Image");
  // The longer token later in the string still beats the shorter one seen first.
  EXPECT_EQ(parsed->Match("examplebot; ExampleBot-Image/1.0")->name, "ExampleBot-Image");
  EXPECT_EQ(parsed->Match("Mozilla/5.0 (compatible; ExampleBot/2.1)")->name, "ExampleBot");
  EXPECT_EQ(BotCatalog::Builtin().Match("Googlebot-Image/1.0")->name, "Googlebot-Image");
}

TEST(BotCatalog, ShortTokensNeedWordBoundaries) {
  auto parsed = BotCatalog::Parse(Document(Entry("Yeti", "search_engine", R"("yeti")")));
  ASSERT_TRUE(parsed);
  EXPECT_NE(parsed->Match("Mozilla/5.0 (compatible; Yeti/1.1; +http://naver.me/spd)"), nullptr);
  EXPECT_EQ(parsed->Match("Mozilla/5.0 (Linux; Android 13; Yetiphone) Chrome/120.0"), nullptr);
  EXPECT_EQ(parsed->Match("SuperYeti/2.0"), nullptr);
}

TEST(BotCatalog, ShortTokensEndingInPunctuationCarryTheirBoundary) {
  auto parsed = BotCatalog::Parse(Document(Entry("PageTest", "monitoring", R"("pt/")")));
  ASSERT_TRUE(parsed);
  EXPECT_NE(parsed->Match("Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36 pt/2301"),
            nullptr);
  EXPECT_EQ(parsed->Match("Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36 opt/2301"),
            nullptr);
}

struct CategoryCase {
  std::string_view ua;
  std::string_view name;
  std::string_view category;
};

TEST(BotCatalog, MatchesEachCategory) {
  const CategoryCase cases[] = {
      {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; "
       "+https://openai.com/gptbot)", "GPTBot", "ai_training"},
      {"Mozilla/5.0 (compatible; OAI-SearchBot/1.1; +https://openai.com/searchbot)",
       "OAI-SearchBot", "ai_search"},
      {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0",
       "ChatGPT-User", "ai_user_fetch"},
      {"Mozilla/5.0 (compatible; Claude-User/1.0; +Claude-User@anthropic.com)", "Claude-User",
       "ai_user_fetch"},
      {"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "Bingbot",
       "search_engine"},
      {"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
       "facebookexternalhit", "social_preview"},
      {"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", "AhrefsBot", "seo"},
      {"Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)", "UptimeRobot",
       "monitoring"},
      {"Mozilla/5.00 (Nikto/2.5.0) (Evasions:None) (Test:000001)", "Nikto", "security_scanner"},
      {"Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)",
       "archive.org_bot", "archiver"},
      {"Feedbin feed-id:42 - 3 subscribers", "Feedbin", "feed_fetcher"},
      {"python-requests/2.32.3", "python-requests", "automation"},
  };
  for (const CategoryCase& c : cases) {
    const BotEntry* entry = BotCatalog::Builtin().Match(c.ua);
    ASSERT_NE(entry, nullptr) << c.ua;
    EXPECT_EQ(entry->name, c.name) << c.ua;
    EXPECT_EQ(entry->category, c.category) << c.ua;
  }
}

TEST(BotCatalog, HumansDoNotMatch) {
  const std::string_view humans[] = {
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
      "Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) "
      "Version/17.5 Safari/605.1.15",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
      "Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.38.108;FBBV/612345678]",
      "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) "
      "SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
      "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0",
      "Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A; wv) AppleWebKit/537.36 (KHTML, like "
      "Gecko) Version/4.0 Chrome/125.0.0.0 Mobile Safari/537.36 Instagram 330.0.0.40.92",
      "",
  };
  for (std::string_view ua : humans) EXPECT_EQ(BotCatalog::Builtin().Match(ua), nullptr) << ua;
}

TEST(ClassifyUserAgent, AddsCatalogEntryAndKeepsHumans) {
  const BotCatalog& catalog = BotCatalog::Builtin();
  const auto bot = ClassifyUserAgent("Mozilla/5.0 (compatible; Discordbot/2.0)", {}, catalog);
  ASSERT_NE(bot.bot, nullptr);
  EXPECT_TRUE(bot.info.is_bot);
  EXPECT_EQ(bot.bot->category, "social_preview");
  const auto human = ClassifyUserAgent(
      "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0", {}, catalog);
  EXPECT_EQ(human.bot, nullptr);
  EXPECT_FALSE(human.info.is_bot);
  EXPECT_EQ(human.info.browser, "Firefox");
}

}  // namespace
}  // namespace sightline::detection
