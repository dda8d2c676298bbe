#include "detection/ua_cache.h"

#include <gtest/gtest.h>

namespace sightline::detection {
namespace {

constexpr char kChrome[] =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36";
constexpr char kGptBot[] = "Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)";

TEST(UserAgentCache, AnswersExactlyWhatTheParserDoes) {
  UserAgentCache cache(BotCatalog::Builtin(), 4);
  for (int pass = 0; pass < 3; ++pass) {  // misses, hits, and hits after evictions
    for (const char* ua : {kChrome, kGptBot, "curl/8.5.0", "", "Hello, world"}) {
      const auto direct = ClassifyUserAgent(ua, {}, BotCatalog::Builtin());
      const auto cached = cache.Classify(ua, {});
      EXPECT_EQ(cached.bot, direct.bot) << ua;
      EXPECT_EQ(cached.info.is_bot, direct.info.is_bot) << ua;
      EXPECT_EQ(cached.info.browser, direct.info.browser) << ua;
      EXPECT_EQ(cached.info.device, direct.info.device) << ua;
    }
  }
}

TEST(UserAgentCache, ClientHintsBypassIt) {
  UserAgentCache cache(BotCatalog::Builtin());
  cache.Classify(kChrome, {});
  ClientHints tablet;
  tablet.form_factors = "\"Tablet\"";
  const auto hinted = cache.Classify(kChrome, tablet);
  EXPECT_EQ(hinted.info.device, ClassifyUserAgent(kChrome, tablet, BotCatalog::Builtin()).info.device);
  EXPECT_TRUE(HasClientHints(tablet));
  EXPECT_FALSE(HasClientHints({}));
}

}  // namespace
}  // namespace sightline::detection
