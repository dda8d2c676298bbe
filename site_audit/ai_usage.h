// Checks a robots.txt's AI usage lines (Cloudflare's `Content-Signal`, IETF aipref's
// `Content-Usage`) against its own allow/disallow rules for known AI crawlers, and against each
// other: a site that says "no training" while letting every training crawler in, or that says
// both yes and no about the same use, is telling crawlers two things. Pure functions; thread-safe.
//
// Keys are compared in one vocabulary: Content-Signal `ai-train` and Content-Usage `train-ai`
// are reported as "ai-train", `search` is `search` in both. Content-Signal `ai-input` and the
// Content-Usage keys `train-genai`, `ai-use` and `bots` have no counterpart in the other
// directive and are kept under their own names (aipref's `ai-use` is close to `ai-input`, but its
// definition has moved between drafts, so equating them could report a conflict that is not one).
//
// Which crawlers a key speaks about, by AiCrawler::purpose:
//   ai-train, train-genai -> "training";  search -> "search";
//   ai-input, ai-use      -> "user_fetch" and "search";  bots -> every crawler.
// A line in the `*` group or outside any group is read as site-wide and so speaks to every
// crawler, even one with a group of its own (which then never reads it: worth reporting too);
// a line in a named group speaks only to the crawlers that group names. A line with a scope
// ("Content-Usage: /docs/ train-ai=n") is checked against access to that path instead of "/".
#pragma once

#include "site_audit/robots_txt.h"

#include <string>
#include <string_view>
#include <vector>

namespace sightline::site_audit {

struct AiCrawler {
  std::string name;     // product token, e.g. "GPTBot"
  std::string purpose;  // "training" | "search" | "user_fetch"
};

enum class CrawlAccess {
  kAllowed,     // "/" is allowed and the group has no Disallow rule
  kPartial,     // "/" is allowed but some Disallow rule exists, or "/" is disallowed but some
                // Allow rule exists
  kDisallowed,  // "/" is disallowed and the group has no Allow rule
};

struct AiCrawlerAccess {
  std::string name;
  std::string purpose;
  CrawlAccess access = CrawlAccess::kAllowed;
  RobotsVerdict root;  // the verdict for "/"
};

struct AiUsageContradiction {
  std::string key;         // in the shared vocabulary above: "ai-train", "search", "ai-input", …
  std::string message;     // a sentence for the site owner, naming lines and crawlers
  std::vector<int> lines;  // the AI usage lines involved, ascending
  std::vector<std::string> crawlers;  // the crawlers involved, in input order
};

struct AiUsageAudit {
  std::vector<AiCrawlerAccess> crawlers;  // one per input crawler, in input order
  std::vector<AiUsageContradiction> contradictions;
};

// Reports how `robots` treats each of `crawlers` at "/", and the contradictions described above:
// a key set to no while a crawler it speaks to is allowed; a key set to yes while every crawler
// it speaks to is disallowed; and yes and no for the same key, scope and group on two lines.
AiUsageAudit SiteAiUsage(const RobotsTxt& robots, const std::vector<AiCrawler>& crawlers);

// The shared-vocabulary name of a Content-Signal or Content-Usage key (lowercase in, as above).
std::string CanonicalAiUsageKey(std::string_view key);

}  // namespace sightline::site_audit
