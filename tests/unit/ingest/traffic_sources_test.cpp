#include "ingest/traffic_sources.h"

#include <gtest/gtest.h>


#include <string>
#include <vector>

namespace sightline::ingest {
namespace {

// The cases the rules were written against (the held-out table, which they were not, is
// traffic_sources_holdout_test.cpp).
struct Case {
  std::string referrer, utm_source, utm_medium, utm_campaign;
  std::string source, channel;
};

const std::vector<Case>& TuningCases() {
  static const std::vector<Case> cases = {
      {"", "", "", "", "Direct", "Direct"},
      {"https://www.example.com/pricing", "", "", "", "Direct", "Direct"},  // same site
      {"http://localhost:3000/", "", "", "", "Direct", "Direct"},
      {"https://www.google.com/", "", "", "", "Google", "Organic Search"},
      {"https://www.google.co.uk/search?q=x", "", "", "", "Google", "Organic Search"},
      {"https://www.bing.com/search?q=sightline", "", "", "", "Bing", "Organic Search"},
      {"https://www.bing.com/chat?q=x", "", "", "", "Copilot", "AI Assistants"},
      {"https://copilot.microsoft.com/", "", "", "", "Copilot", "AI Assistants"},
      {"https://duckduckgo.com/", "", "", "", "DuckDuckGo", "Organic Search"},
      {"https://search.brave.com/search?q=a", "", "", "", "Brave Search", "Organic Search"},
      {"https://chatgpt.com/", "", "", "", "ChatGPT", "AI Assistants"},
      {"https://chat.openai.com/c/123", "", "", "", "ChatGPT", "AI Assistants"},
      {"https://www.perplexity.ai/search/abc", "", "", "", "Perplexity", "AI Assistants"},
      {"https://claude.ai/chat/1", "", "", "", "Claude", "AI Assistants"},
      {"https://gemini.google.com/app", "", "", "", "Gemini", "AI Assistants"},
      {"https://bard.google.com/", "", "", "", "Gemini", "AI Assistants"},
      {"https://chat.deepseek.com/", "", "", "", "DeepSeek", "AI Assistants"},
      {"https://chat.mistral.ai/chat", "", "", "", "Mistral", "AI Assistants"},
      {"https://www.meta.ai/", "", "", "", "Meta AI", "AI Assistants"},
      {"https://you.com/search?q=a", "", "", "", "You.com", "AI Assistants"},
      {"https://www.phind.com/", "", "", "", "Phind", "AI Assistants"},
      {"https://poe.com/", "", "", "", "Poe", "AI Assistants"},
      {"https://grok.com/", "", "", "", "Grok", "AI Assistants"},
      {"https://x.com/i/grok?conversation=1", "", "", "", "Grok", "AI Assistants"},
      {"https://x.com/someone/status/1", "", "", "", "X", "Organic Social"},
      {"", "chatgpt.com", "", "", "ChatGPT", "AI Assistants"},
      {"https://www.google.com/", "chatgpt.com", "", "", "ChatGPT", "AI Assistants"},
      {"", "perplexity", "", "", "Perplexity", "AI Assistants"},
      {"https://l.facebook.com/l.php?u=x", "", "", "", "Facebook", "Organic Social"},
      {"https://www.linkedin.com/feed/", "", "", "", "LinkedIn", "Organic Social"},
      {"https://news.ycombinator.com/item?id=1", "", "", "", "Hacker News", "Organic Social"},
      {"https://www.youtube.com/watch?v=1", "", "", "", "YouTube", "Organic Video"},
      {"https://github.com/acme/repo", "", "", "", "GitHub", "Referral"},
      {"https://mail.google.com/mail/u/0/", "", "", "", "Gmail", "Email"},
      {"android-app://com.google.android.gm", "", "", "", "Gmail", "Email"},
      {"https://blog.example.org/post", "", "", "", "example.org", "Referral"},
      {"https://news.bbc.co.uk/x", "", "", "", "bbc.co.uk", "Referral"},
      {"", "google", "cpc", "", "Google", "Paid Search"},
      {"", "facebook", "paid_social", "", "Facebook", "Paid Social"},
      {"", "newsletter", "email", "", "newsletter", "Email"},
      {"", "partner", "affiliate", "", "partner", "Affiliates"},
      {"", "adnet", "display", "", "adnet", "Display"},
      {"", "adnet", "cpm", "", "adnet", "Display"},
      {"", "", "cpc", "", "Direct", "Paid Other"},
      {"", "pmax", "", "cross-network", "pmax", "Cross-network"},
      {"", "adnet", "cpc", "summer_shopping", "adnet", "Paid Shopping"},
      {"", "adnet", "", "workshop", "adnet", "Unassigned"},
      {"", "sms", "", "", "sms", "SMS"},
      {"", "podcast", "audio", "", "podcast", "Audio"},
      {"", "firebase", "", "", "firebase", "Mobile Push Notifications"},
      {"https://www.amazon.de/dp/1", "", "", "", "Amazon", "Organic Shopping"},
  };
  return cases;
}

TEST(TrafficSources, TuningCases) {
  for (const Case& c : TuningCases()) {
    SCOPED_TRACE(c.referrer + " | " + c.utm_source + " | " + c.utm_medium);
    const TrafficSource got = ClassifyTrafficSource(c.referrer, "example.com", c.utm_source,
                                                    c.utm_medium, c.utm_campaign);
    EXPECT_EQ(got.source, c.source);
    EXPECT_EQ(got.channel, c.channel);
  }
}

TEST(TrafficSources, SameSiteNeedsThePageHost) {
  EXPECT_EQ(ClassifyTrafficSource("https://example.com/a", "", "", "", "").channel, "Referral");
  EXPECT_EQ(ClassifyTrafficSource("https://Example.com/a", "www.example.com", "", "", "").channel,
            "Direct");
}

TEST(TrafficSources, TheProjectsOwnDomainsAreInternal) {
  const std::vector<std::string> own = {"example.com", "www.shop.example.org"};
  // From the blog to the shop: the same site as far as the project is concerned.
  EXPECT_EQ(ClassifyTrafficSource("https://blog.example.com/a", "app.example.com", "", "", "",
                                  own).channel,
            "Direct");
  EXPECT_EQ(ClassifyTrafficSource("https://shop.example.org/", "example.com", "", "", "", own)
                .channel,
            "Direct");
  // A host that only ends like an own domain is someone else's.
  EXPECT_EQ(ClassifyTrafficSource("https://notexample.com/", "example.com", "", "", "", own)
                .channel,
            "Referral");
  // Campaign parameters still name the source.
  EXPECT_EQ(ClassifyTrafficSource("https://blog.example.com/", "example.com", "newsletter",
                                  "email", "", own)
                .channel,
            "Email");
}

TEST(TrafficSources, AiAssistantChannel) {
  EXPECT_TRUE(IsAiAssistantChannel("AI Assistants"));
  EXPECT_FALSE(IsAiAssistantChannel("Organic Search"));
  EXPECT_TRUE(IsAiAssistantChannel(
      ClassifyTrafficSource("https://www.perplexity.ai/", "example.com", "", "", "").channel));
}

}  // namespace
}  // namespace sightline::ingest
