// A parsed robots.txt (RFC 9309, the Robots Exclusion Protocol) as a site auditor reads it: the
// groups and their allow/disallow rules, crawl delays, Sitemap lines, and the AI usage lines
// sites add beside them (Cloudflare's `Content-Signal`, IETF aipref's `Content-Usage`).
// Parsing is tolerant, as crawlers are: a BOM, CR/CRLF/LF line ends, comments, a space instead
// of the colon, common key typos and unknown lines are all accepted. An immutable value once
// built; const methods are safe to call from many threads.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sightline::site_audit {

// RFC 9309 §2.5: crawlers must parse at least 500 KiB; what lies past this many bytes is ignored
// (with the line the cut falls in).
inline constexpr std::size_t kRobotsTxtMaxBytes = 512000;

// The answer for one crawler and one path.
struct RobotsVerdict {
  bool allowed = true;
  std::string rule;   // the deciding rule, normalized key + pattern as written ("Disallow: /x"),
                      // "" when no rule matched
  int line = 0;       // its 1-based line, 0 when none (or for AllowAll/DisallowAll)
  std::string group;  // the user-agent token (as written) whose group applied, "*", or "" when
                      // no group applies
};

// An allow or disallow rule of a group.
struct RobotsRule {
  bool allow = false;
  std::string pattern;  // as written, trimmed; never empty (an empty Disallow means nothing)
  int line = 0;
};

// One `Content-Signal:` or `Content-Usage:` line.
struct AiUsageLine {
  std::string directive;  // "Content-Signal" or "Content-Usage" as written
  int line = 0;
  std::string scope;  // the optional leading path ("/docs/"), "" for the whole site
  std::string group;  // the user-agent tokens of the group it sat in, joined by ", "
                      // ("*", "GPTBot, ClaudeBot"); "" when outside any group
  // In order of appearance: key lowercased -> yes/no; nullopt when the value is missing or is
  // not one of yes/no/y/n.
  std::vector<std::pair<std::string, std::optional<bool>>> preferences;
  std::vector<std::string> problems;  // unknown or repeated keys, bad values, no preferences
};

class RobotsTxt {
 public:
  // Parses the first kRobotsTxtMaxBytes bytes of `body`. Never fails: unusable lines are skipped.
  static RobotsTxt Parse(std::string_view body);
  // What RFC 9309 §2.3.1.3 prescribes when the fetch ends in a 4xx ("unavailable").
  static RobotsTxt AllowAll();
  // What RFC 9309 §2.3.1.4 prescribes for a 5xx or an unreachable server ("unreachable").
  static RobotsTxt DisallowAll();

  // The verdict for the crawler whose product token is `product_token` ("GPTBot"; anything from
  // a '/' or whitespace on is ignored, "GPTBot/1.1" works too) on `path_and_query` ("/a?b=1";
  // "" means "/", a "#fragment" is dropped). Groups naming the token, merged, apply; else the
  // `*` groups; else everything is allowed. "/robots.txt" itself is always allowed.
  RobotsVerdict Check(std::string_view product_token, std::string_view path_and_query) const;
  bool IsAllowed(std::string_view product_token, std::string_view path_and_query) const;

  // The first valid Crawl-delay (seconds) of the groups that apply to the crawler.
  std::optional<double> CrawlDelay(std::string_view product_token) const;
  // Whether a group other than `*` names the crawler.
  bool NamesAgent(std::string_view product_token) const;
  // The rules of the groups that apply to the crawler, in file order.
  std::vector<RobotsRule> RulesFor(std::string_view product_token) const;

  // The Sitemap lines, wherever they sat, values as written.
  const std::vector<std::string>& sitemaps() const { return sitemaps_; }
  const std::vector<AiUsageLine>& ai_usage() const { return ai_usage_; }

 private:
  struct Rule {
    RobotsRule rule;
    std::string normalized;  // NormalizeRobotsPath(pattern): what is matched and measured
  };
  struct Group {
    std::vector<std::string> agents;  // product tokens as written
    std::vector<Rule> rules;
    std::optional<double> crawl_delay;
  };
  class Builder;

  // The groups that apply to `product_token`; `name` receives the token as the file wrote it.
  std::vector<const Group*> GroupsFor(std::string_view product_token, std::string* name) const;

  std::vector<Group> groups_;
  std::vector<std::string> sitemaps_;
  std::vector<AiUsageLine> ai_usage_;
};

}  // namespace sightline::site_audit
