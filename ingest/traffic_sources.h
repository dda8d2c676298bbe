// Where a visit came from: the named source (Google, ChatGPT, Facebook, or the referring site's
// registrable domain) and the acquisition channel, from the referrer and the UTM parameters.
// The channels follow GA4's default channel group and Plausible's channel rules, with one
// addition: "AI Assistants" (ChatGPT, Perplexity, Claude, Gemini, Copilot, …) is a channel of
// its own, decided before search and referral. docs/metrics.md lists the rules. Pure functions
// over a compiled table; thread-safe.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace sightline::ingest {

struct TrafficSource {
  std::string source;   // "Google", "ChatGPT", "news.ycombinator.com" → "Hacker News", "Direct"
  std::string channel;  // "AI Assistants", "Organic Search", "Referral", "Direct", …
};

// `referrer_url`: the full referrer (may be empty). `page_host`: the tracked page's host; a
// referrer on the same host (ignoring "www."), or within one of the project's `own_domains`,
// is internal navigation, hence Direct, as Plausible treats it. `utm_*`: the page URL's parameters, may be empty. `utm_source` names
// the source when present, even over the referrer (`utm_source=chatgpt.com` → ChatGPT).
TrafficSource ClassifyTrafficSource(std::string_view referrer_url, std::string_view page_host,
                                    std::string_view utm_source, std::string_view utm_medium,
                                    std::string_view utm_campaign,
                                    std::span<const std::string> own_domains = {});

// Whether `channel` is the AI assistants channel (what the AI-visibility loop counts as a
// visit arriving from an assistant).
bool IsAiAssistantChannel(std::string_view channel);

}  // namespace sightline::ingest
