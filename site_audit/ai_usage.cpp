#include "site_audit/ai_usage.h"

#include "core/text.h"

#include <algorithm>
#include <map>
#include <optional>

namespace sightline::site_audit {
namespace {

// What a use is called in messages.
std::string_view UseName(std::string_view key) {
  if (key == "ai-train") return "AI training";
  if (key == "train-genai") return "generative AI training";
  if (key == "search") return "search";
  if (key == "ai-input") return "AI input (answers, grounding)";
  if (key == "ai-use") return "AI use";
  if (key == "bots") return "automated processing";
  return key;
}

bool KeySpeaksTo(std::string_view key, std::string_view purpose) {
  if (key == "ai-train" || key == "train-genai") return purpose == "training";
  if (key == "search") return purpose == "search";
  if (key == "ai-input" || key == "ai-use") return purpose == "user_fetch" || purpose == "search";
  return key == "bots";
}

std::vector<std::string> GroupTokens(std::string_view group) {
  std::vector<std::string> tokens = core::SplitList(group);
  for (std::string& token : tokens) token = core::ToLowerAscii(token);
  return tokens;
}

bool SiteWide(const AiUsageLine& line) {
  const auto tokens = GroupTokens(line.group);
  return tokens.empty() || std::find(tokens.begin(), tokens.end(), "*") != tokens.end();
}

bool LineReaches(const AiUsageLine& line, const AiCrawler& crawler) {
  if (SiteWide(line)) return true;
  const std::string_view name = core::TrimSpaces(crawler.name);
  const std::string token = core::ToLowerAscii(name.substr(0, name.find_first_of("/ \t")));
  const auto tokens = GroupTokens(line.group);
  return std::find(tokens.begin(), tokens.end(), token) != tokens.end();
}

// "Content-Signal ai-train=no (line 4)", in the value spelling of the directive.
std::string DescribeSetting(const AiUsageLine& line, std::string_view key, bool value) {
  const bool usage = core::ToLowerAscii(line.directive) == "content-usage";
  const std::string_view spelled = usage ? (value ? "y" : "n") : (value ? "yes" : "no");
  return line.directive + " " + std::string(key) + "=" + std::string(spelled) + " (line " +
         std::to_string(line.line) + ")";
}

std::string JoinWithCommas(const std::vector<std::string>& names) {
  return core::JoinStrings(names, ", ");
}

CrawlAccess AccessOf(const RobotsTxt& robots, const AiCrawler& crawler, bool root_allowed) {
  const auto rules = robots.RulesFor(crawler.name);
  const bool other_kind = std::any_of(rules.begin(), rules.end(), [&](const RobotsRule& rule) {
    return rule.allow != root_allowed;
  });
  if (!other_kind) return root_allowed ? CrawlAccess::kAllowed : CrawlAccess::kDisallowed;
  return CrawlAccess::kPartial;
}

// A key set to no while crawlers it speaks to may crawl, or to yes while none of them may.
void CheckAgainstCrawlers(const RobotsTxt& robots, const AiUsageLine& line,
                          const std::vector<AiCrawler>& crawlers,
                          std::vector<AiUsageContradiction>& out) {
  const std::string path = line.scope.empty() ? "/" : line.scope;
  for (const auto& [written_key, value] : line.preferences) {
    if (!value) continue;
    const std::string key = CanonicalAiUsageKey(written_key);
    std::vector<std::string> allowed, refused;
    for (const AiCrawler& crawler : crawlers) {
      if (!KeySpeaksTo(key, crawler.purpose) || !LineReaches(line, crawler)) continue;
      (robots.IsAllowed(crawler.name, path) ? allowed : refused).push_back(crawler.name);
    }
    const std::string setting = DescribeSetting(line, written_key, *value);
    if (!*value && !allowed.empty()) {
      out.push_back({key,
                     setting + " opts out of " + std::string(UseName(key)) +
                         ", but robots.txt lets " + JoinWithCommas(allowed) + " crawl " + path +
                         ".",
                     {line.line},
                     allowed});
    } else if (*value && allowed.empty() && !refused.empty()) {
      out.push_back({key,
                     setting + " opts in to " + std::string(UseName(key)) +
                         ", but robots.txt disallows " + path + " to all of " +
                         JoinWithCommas(refused) + ".",
                     {line.line},
                     refused});
    }
  }
}

// The lines that set one key for one audience and scope, by the value they set.
struct KeySettings {
  std::string key;
  std::vector<std::string> yes, no;  // descriptions
  std::vector<int> lines;
};

// Yes and no for the same key, scope and group: whichever a crawler reads, the other is ignored.
void CheckAgainstEachOther(const std::vector<AiUsageLine>& lines,
                           std::vector<AiUsageContradiction>& out) {
  std::vector<KeySettings> settings;
  std::map<std::string, std::size_t> index;  // audience \n scope \n key -> settings
  for (const AiUsageLine& line : lines) {
    const std::string audience = SiteWide(line) ? "*" : JoinWithCommas(GroupTokens(line.group));
    for (const auto& [written_key, value] : line.preferences) {
      if (!value) continue;
      const std::string key = CanonicalAiUsageKey(written_key);
      const auto [it, added] =
          index.try_emplace(audience + "\n" + line.scope + "\n" + key, settings.size());
      if (added) settings.push_back({key, {}, {}, {}});
      KeySettings& entry = settings[it->second];
      (*value ? entry.yes : entry.no).push_back(DescribeSetting(line, written_key, *value));
      if (entry.lines.empty() || entry.lines.back() != line.line) entry.lines.push_back(line.line);
    }
  }
  for (KeySettings& entry : settings) {
    if (entry.yes.empty() || entry.no.empty()) continue;
    out.push_back({entry.key,
                   JoinWithCommas(entry.yes) + " and " + JoinWithCommas(entry.no) +
                       " disagree about " + std::string(UseName(entry.key)) + ".",
                   std::move(entry.lines),
                   {}});
  }
}

}  // namespace

std::string CanonicalAiUsageKey(std::string_view key) {
  if (key == "train-ai") return "ai-train";
  return std::string(key);
}

AiUsageAudit SiteAiUsage(const RobotsTxt& robots, const std::vector<AiCrawler>& crawlers) {
  AiUsageAudit audit;
  for (const AiCrawler& crawler : crawlers) {
    RobotsVerdict root = robots.Check(crawler.name, "/");
    const CrawlAccess access = AccessOf(robots, crawler, root.allowed);
    audit.crawlers.push_back({crawler.name, crawler.purpose, access, std::move(root)});
  }
  for (const AiUsageLine& line : robots.ai_usage()) {
    CheckAgainstCrawlers(robots, line, crawlers, audit.contradictions);
  }
  CheckAgainstEachOther(robots.ai_usage(), audit.contradictions);
  std::stable_sort(audit.contradictions.begin(), audit.contradictions.end(),
                   [](const AiUsageContradiction& a, const AiUsageContradiction& b) {
                     return a.lines.front() < b.lines.front();
                   });
  return audit;
}

}  // namespace sightline::site_audit
