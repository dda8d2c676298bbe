#include "site_audit/robots_txt.h"

#include "site_audit/robots_match.h"
#include "core/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace sightline::site_audit {
namespace {

constexpr std::string_view kRobotsSpaces = " \t";
constexpr std::string_view kRobotsBom = "\xEF\xBB\xBF";

// Case-insensitive equality of ASCII tokens and keys.
bool SameToken(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; };
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [&](char x, char y) { return lower(x) == lower(y); });
}

// RFC 9309 §2.2.1 matches product tokens; "GPTBot/1.1" and "GPTBot (+https://…)" name GPTBot.
std::string_view ProductToken(std::string_view value) {
  value = core::TrimSpaces(value);
  return value.substr(0, value.find_first_of("/ \t"));
}

enum class RobotsKey { kUserAgent, kAllow, kDisallow, kCrawlDelay, kSitemap, kAiUsage, kOther };

// Keys compare case-insensitively (RFC 9309's ABNF strings); the typos are the ones Google's
// parser forgives, since sites that carry them are still obeyed by the largest crawler.
RobotsKey ClassifyRobotsKey(std::string_view key) {
  const std::string lower = core::ToLowerAscii(key);
  if (lower == "user-agent" || lower == "useragent" || lower == "user agent") {
    return RobotsKey::kUserAgent;
  }
  if (lower == "allow") return RobotsKey::kAllow;
  if (lower == "disallow" || lower == "dissallow" || lower == "dissalow" || lower == "disalow" ||
      lower == "diasllow" || lower == "disallaw") {
    return RobotsKey::kDisallow;
  }
  if (lower == "crawl-delay" || lower == "crawldelay") return RobotsKey::kCrawlDelay;
  if (lower == "sitemap" || lower == "site-map") return RobotsKey::kSitemap;
  if (lower == "content-signal" || lower == "content-usage") return RobotsKey::kAiUsage;
  return RobotsKey::kOther;
}

struct RobotsKeyValue {
  std::string_view key, value;
};

// `line` is comment-free and trimmed. Without a colon, a single run of whitespace between
// exactly two words stands in for it ("Disallow /tmp"), as Google's parser allows.
std::optional<RobotsKeyValue> SplitRobotsLine(std::string_view line) {
  if (const auto colon = line.find(':'); colon != std::string_view::npos) {
    return RobotsKeyValue{core::TrimSpaces(line.substr(0, colon)),
                          core::TrimSpaces(line.substr(colon + 1))};
  }
  const auto space = line.find_first_of(kRobotsSpaces);
  if (space == std::string_view::npos) return std::nullopt;
  const std::string_view value = core::TrimSpaces(line.substr(space));
  if (value.find_first_of(kRobotsSpaces) != std::string_view::npos) return std::nullopt;
  return RobotsKeyValue{line.substr(0, space), value};
}

std::optional<double> ParseCrawlDelay(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (!std::isfinite(value) || value < 0) return std::nullopt;
  return value;
}

// The body the parser reads: at most kRobotsTxtMaxBytes, without a line the cut falls inside
// (half a rule, "Disallow: /p" of "Disallow: /private", would say something the file does not).
std::string_view CappedRobotsBody(std::string_view body) {
  if (body.size() > kRobotsTxtMaxBytes) {
    const bool cut_at_line_end =
        body[kRobotsTxtMaxBytes] == '\n' || body[kRobotsTxtMaxBytes] == '\r';
    body = body.substr(0, kRobotsTxtMaxBytes);
    if (!cut_at_line_end) {
      const auto last_break = body.find_last_of("\r\n");
      body = last_break == std::string_view::npos ? std::string_view() : body.substr(0, last_break);
    }
  }
  if (body.starts_with(kRobotsBom)) body.remove_prefix(kRobotsBom.size());
  return body;
}

constexpr std::string_view kContentSignalKeys[] = {"search", "ai-input", "ai-train"};
constexpr std::string_view kContentUsageKeys[] = {"bots", "train-ai", "train-genai", "ai-use",
                                                  "search"};

bool IsKnownUsageKey(std::string_view key, bool content_signal) {
  const auto contains = [&](const auto& keys) {
    return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
  };
  return content_signal ? contains(kContentSignalKeys) : contains(kContentUsageKeys);
}

std::optional<bool> ParseYesNo(std::string_view value) {
  if (SameToken(value, "yes") || SameToken(value, "y")) return true;
  if (SameToken(value, "no") || SameToken(value, "n")) return false;
  return std::nullopt;
}

// Why `key` is not a key of the directive, or "" when it is one.
std::string UnknownKeyProblem(const std::string& key, bool content_signal) {
  if (IsKnownUsageKey(key, content_signal)) return {};
  std::string problem = "unknown key \"" + key + "\"";
  if (IsKnownUsageKey(key, !content_signal)) {
    problem += content_signal ? " (a Content-Usage key)" : " (a Content-Signal key)";
  }
  return problem;
}

// One `key=value` member of the comma-separated preference list.
void AddUsagePreference(AiUsageLine& out, std::string_view member, bool content_signal) {
  // Structured-field parameters (";…") qualify a member but never change yes/no.
  member = core::TrimSpaces(member.substr(0, member.find(';')));
  if (member.empty()) return;
  const auto equals = member.find('=');
  std::string key = core::ToLowerAscii(core::TrimSpaces(member.substr(0, equals)));
  std::optional<bool> value;
  if (equals == std::string_view::npos) {
    out.problems.push_back("\"" + key + "\" has no value");
  } else {
    std::string_view raw = core::TrimSpaces(member.substr(equals + 1));
    if (raw.size() >= 2 && raw.front() == '"' && raw.back() == '"') {
      raw = raw.substr(1, raw.size() - 2);
    }
    value = ParseYesNo(raw);
    if (!value) {
      out.problems.push_back("\"" + key + "\" has the value \"" + std::string(raw) +
                             "\", not yes or no");
    }
  }
  if (std::string problem = UnknownKeyProblem(key, content_signal); !problem.empty()) {
    out.problems.push_back(std::move(problem));
  }
  const auto same_key = [&](const auto& preference) { return preference.first == key; };
  if (std::any_of(out.preferences.begin(), out.preferences.end(), same_key)) {
    out.problems.push_back("\"" + key + "\" is given more than once");
  }
  out.preferences.emplace_back(std::move(key), value);
}

// `Content-Signal: search=yes, ai-train=no` or `Content-Usage: /docs/ train-ai=n`.
AiUsageLine ParseAiUsageLine(std::string_view directive, std::string_view value, int number) {
  AiUsageLine out;
  out.directive = std::string(directive);
  out.line = number;
  const bool content_signal = SameToken(directive, "content-signal");
  if (value.starts_with('/') || value.starts_with('*')) {
    const auto space = value.find_first_of(kRobotsSpaces);
    out.scope = std::string(value.substr(0, space));
    value = space == std::string_view::npos ? std::string_view()
                                            : core::TrimSpaces(value.substr(space));
  }
  while (!value.empty()) {
    const auto comma = value.find(',');
    AddUsagePreference(out, value.substr(0, comma), content_signal);
    value = comma == std::string_view::npos ? std::string_view() : value.substr(comma + 1);
  }
  if (out.preferences.empty()) out.problems.push_back("no preferences");
  return out;
}

}  // namespace

// Feeds lines into groups, following RFC 9309 §2.1: a group is a run of user-agent lines and
// the rules after it; the next user-agent line after a rule starts the next group. Sitemap,
// AI usage and unknown lines do not end a group (as in Google's parser); Crawl-delay, which
// RFC 9309 does not define, counts as a rule (as in most parsers that read it).
class RobotsTxt::Builder {
 public:
  void Line(int number, std::string_view text) {
    text = core::TrimSpaces(text.substr(0, text.find('#')));
    if (text.empty()) return;
    const auto pair = SplitRobotsLine(text);
    if (!pair) return;
    switch (ClassifyRobotsKey(pair->key)) {
      case RobotsKey::kUserAgent:
        return UserAgent(pair->value);
      case RobotsKey::kAllow:
        return AddRule(true, pair->value, number);
      case RobotsKey::kDisallow:
        return AddRule(false, pair->value, number);
      case RobotsKey::kCrawlDelay:
        return CrawlDelay(pair->value);
      case RobotsKey::kSitemap:
        if (!pair->value.empty()) out_.sitemaps_.emplace_back(pair->value);
        return;
      case RobotsKey::kAiUsage:
        out_.ai_usage_.push_back(ParseAiUsageLine(pair->key, pair->value, number));
        ai_usage_groups_.push_back(out_.groups_.empty() ? -1 : int(out_.groups_.size()) - 1);
        return;
      case RobotsKey::kOther:
        return;
    }
  }

  RobotsTxt Finish() && {
    // Named only now: user-agent lines after an AI usage line still join its group.
    for (std::size_t i = 0; i < out_.ai_usage_.size(); ++i) {
      if (ai_usage_groups_[i] < 0) continue;
      std::string& names = out_.ai_usage_[i].group;
      for (const std::string& agent : out_.groups_[ai_usage_groups_[i]].agents) {
        names += (names.empty() ? "" : ", ") + agent;
      }
    }
    return std::move(out_);
  }

 private:
  void UserAgent(std::string_view value) {
    if (after_rule_) out_.groups_.emplace_back();
    after_rule_ = false;
    // An empty token still opens a group (its rules then bind to no one, not to the last group).
    if (const auto token = ProductToken(value); !token.empty()) {
      out_.groups_.back().agents.emplace_back(token);
    }
  }

  // Returns the group a rule line belongs to, nullptr before the first user-agent line.
  Group* RuleGroup() {
    if (out_.groups_.empty()) return nullptr;
    after_rule_ = true;
    return &out_.groups_.back();
  }

  void AddRule(bool allow, std::string_view pattern, int number) {
    Group* group = RuleGroup();
    if (group == nullptr || pattern.empty()) return;  // an empty rule matches nothing
    group->rules.push_back({{allow, std::string(pattern), number}, NormalizeRobotsPath(pattern)});
  }

  void CrawlDelay(std::string_view value) {
    Group* group = RuleGroup();
    if (group != nullptr && !group->crawl_delay) group->crawl_delay = ParseCrawlDelay(value);
  }

  RobotsTxt out_;
  std::vector<int> ai_usage_groups_;  // index into groups_ per AI usage line, -1 for none
  bool after_rule_ = true;
};

RobotsTxt RobotsTxt::Parse(std::string_view body) {
  body = CappedRobotsBody(body);
  Builder builder;
  int number = 1;
  std::size_t start = 0;
  while (start <= body.size()) {
    auto end = body.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = body.size();
    builder.Line(number++, body.substr(start, end - start));
    if (end < body.size() && body[end] == '\r' && end + 1 < body.size() && body[end + 1] == '\n') {
      ++end;
    }
    start = end + 1;
  }
  return std::move(builder).Finish();
}

RobotsTxt RobotsTxt::AllowAll() { return RobotsTxt(); }

RobotsTxt RobotsTxt::DisallowAll() {
  RobotsTxt robots;
  Group group;
  group.agents.push_back("*");
  group.rules.push_back({{false, "/", 0}, "/"});
  robots.groups_.push_back(std::move(group));
  return robots;
}

std::vector<const RobotsTxt::Group*> RobotsTxt::GroupsFor(std::string_view product_token,
                                                          std::string* name) const {
  std::vector<const Group*> out;
  const std::string_view token = ProductToken(product_token);
  for (const std::string_view wanted : {token, std::string_view("*")}) {
    if (wanted.empty() || (wanted == "*" && !out.empty())) continue;
    for (const Group& group : groups_) {
      const auto it = std::find_if(group.agents.begin(), group.agents.end(),
                                   [&](const std::string& a) { return SameToken(a, wanted); });
      if (it == group.agents.end()) continue;
      if (out.empty() && name != nullptr) *name = *it;
      out.push_back(&group);
    }
  }
  return out;
}

RobotsVerdict RobotsTxt::Check(std::string_view product_token,
                               std::string_view path_and_query) const {
  RobotsVerdict verdict;
  const auto groups = GroupsFor(product_token, &verdict.group);
  std::string_view path = path_and_query.substr(0, path_and_query.find('#'));
  if (path.empty()) path = "/";
  if (groups.empty() || path.substr(0, path.find('?')) == "/robots.txt") return verdict;
  const std::string normalized = NormalizeRobotsPath(path);
  const Rule* best = nullptr;
  for (const Group* group : groups) {
    for (const Rule& rule : group->rules) {
      if (!RobotsPatternMatches(rule.normalized, normalized)) continue;
      // RFC 9309 §2.2.2: the match with the most octets wins, and allow wins a tie.
      if (best == nullptr || rule.normalized.size() > best->normalized.size() ||
          (rule.normalized.size() == best->normalized.size() && rule.rule.allow &&
           !best->rule.allow)) {
        best = &rule;
      }
    }
  }
  if (best != nullptr) {
    verdict.allowed = best->rule.allow;
    verdict.rule = (best->rule.allow ? "Allow: " : "Disallow: ") + best->rule.pattern;
    verdict.line = best->rule.line;
  }
  return verdict;
}

bool RobotsTxt::IsAllowed(std::string_view product_token, std::string_view path_and_query) const {
  return Check(product_token, path_and_query).allowed;
}

std::optional<double> RobotsTxt::CrawlDelay(std::string_view product_token) const {
  for (const Group* group : GroupsFor(product_token, nullptr)) {
    if (group->crawl_delay) return group->crawl_delay;
  }
  return std::nullopt;
}

bool RobotsTxt::NamesAgent(std::string_view product_token) const {
  std::string name;
  return !GroupsFor(product_token, &name).empty() && name != "*";
}

std::vector<RobotsRule> RobotsTxt::RulesFor(std::string_view product_token) const {
  std::vector<RobotsRule> out;
  for (const Group* group : GroupsFor(product_token, nullptr)) {
    for (const Rule& rule : group->rules) out.push_back(rule.rule);
  }
  return out;
}

}  // namespace sightline::site_audit
