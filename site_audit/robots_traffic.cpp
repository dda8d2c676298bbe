#include "site_audit/robots_traffic.h"

#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <map>
#include <set>

#include "site_audit/crawl_url.h"
#include "core/text.h"

namespace sightline::site_audit {
namespace {

namespace json = boost::json;
using Row = storage::SiteBotTrafficRow;
using Rows = std::span<const Row>;

// One bot's traffic in a period, its rows merged by path.
struct BotTraffic {
  std::string name;  // the first spelling met
  std::map<std::string, TrafficCounts> paths;
  TrafficCounts unchecked;  // rows without a path, and the folded rows
};
// By lowercased product token.
using TrafficIndex = std::map<std::string, BotTraffic>;

std::string TokenKey(std::string_view name) {
  name = core::TrimSpaces(name);
  return core::ToLowerAscii(name.substr(0, name.find_first_of("/ \t")));
}

void Add(TrafficCounts& counts, std::string_view classification, std::int64_t n) {
  counts.total += n;
  if (classification == "verified")
    counts.verified += n;
  else if (classification == "spoofed")
    counts.spoofed += n;
  else if (classification == "suspected")
    counts.suspected += n;
}

void AddAll(TrafficCounts& into, const TrafficCounts& from) {
  into.total += from.total;
  into.verified += from.verified;
  into.spoofed += from.spoofed;
  into.suspected += from.suspected;
}

TrafficIndex IndexTraffic(Rows rows) {
  TrafficIndex index;
  for (const Row& row : rows) {
    const std::string token = TokenKey(row.bot_name);
    if (token.empty() || row.requests <= 0) continue;
    BotTraffic& bot = index[token];
    if (bot.name.empty()) bot.name = std::string(core::TrimSpaces(row.bot_name));
    const bool unchecked = row.other_paths || row.path.empty();
    Add(unchecked ? bot.unchecked : bot.paths[row.path], row.classification, row.requests);
  }
  return index;
}

// What robots.txt is matched against for a stored path: "/…" as it is, the path and query of an
// http(s) URL; nullopt for anything else ("*", "page.html").
std::optional<std::string> TargetOf(const std::string& path) {
  if (path.front() == '/') return path;
  if (path.find("://") == std::string::npos) return std::nullopt;
  const auto url = NormalizeUrl(path);
  if (!url) return std::nullopt;
  return UrlTarget(*url);
}

bool MoreRequests(const DisallowedPathHits& a, const DisallowedPathHits& b) {
  if (a.requests.total != b.requests.total) return a.requests.total > b.requests.total;
  return a.path < b.path;
}

// The crawler's figures for one period; every disallowed path it fetched goes to `hits` too.
CrawlerTrafficFigures Judge(const RobotsTxt& robots, const std::string& name,
                            const BotTraffic* traffic, std::vector<DisallowedPathHits>& hits) {
  CrawlerTrafficFigures figures;
  if (traffic == nullptr) return figures;
  AddAll(figures.requests, traffic->unchecked);
  figures.unchecked = traffic->unchecked.total;
  for (const auto& [path, counts] : traffic->paths) {
    AddAll(figures.requests, counts);
    const auto target = TargetOf(path);
    if (!target) {
      figures.unchecked += counts.total;
      continue;
    }
    RobotsVerdict verdict = robots.Check(name, *target);
    if (verdict.allowed) continue;
    AddAll(figures.disallowed, counts);
    hits.push_back({path, counts, std::move(verdict.rule), verdict.line});
  }
  std::sort(hits.begin(), hits.end(), MoreRequests);
  const auto top = static_cast<std::ptrdiff_t>(std::min(hits.size(), kRobotsTrafficTopPaths));
  figures.top_disallowed.assign(hits.begin(), hits.begin() + top);
  return figures;
}

// ---- The sentence

std::string Pages(std::int64_t n) { return std::to_string(n) + (n == 1 ? " page" : " pages"); }

// " (380 verified, 32 spoofed)": the outcomes present; "" when none is.
std::string Breakdown(const TrafficCounts& counts) {
  std::vector<std::string> parts;
  if (counts.verified > 0) parts.push_back(std::to_string(counts.verified) + " verified");
  if (counts.spoofed > 0) parts.push_back(std::to_string(counts.spoofed) + " spoofed");
  if (counts.suspected > 0) parts.push_back(std::to_string(counts.suspected) + " suspected");
  if (parts.empty()) return "";
  return " (" + core::JoinStrings(parts, ", ") + ")";
}

std::string_view AccessWord(CrawlAccess access) {
  switch (access) {
    case CrawlAccess::kAllowed:
      return "allowed";
    case CrawlAccess::kPartial:
      return "partly disallowed";
    case CrawlAccess::kDisallowed:
      return "disallowed";
  }
  return "allowed";
}

// The figure a sentence leads with, and so the one compared with the previous period (the same
// measure in both): disallowed requests when robots.txt refuses the crawler anything and it came,
// else all its requests.
std::int64_t Headline(const CrawlerTrafficVerdict& c, const CrawlerTrafficFigures& f) {
  if (c.access == CrawlAccess::kAllowed || c.current.requests.total == 0) {
    return f.requests.total;
  }
  return f.disallowed.total;
}

std::string Comparison(std::int64_t now, std::int64_t before) {
  if (now == 0 && before == 0) return ", not in the previous period either";
  if (now == before) return ", as many as the previous period";
  const std::string from = before == 0 ? "none" : std::to_string(before);
  return (now > before ? ", up from " : ", down from ") + from + " the previous period";
}

// What the crawler did with what it was told, without the comparison.
std::string Body(const CrawlerTrafficVerdict& c) {
  const CrawlerTrafficFigures& f = c.current;
  const std::string head = c.name + " is " + std::string(AccessWord(c.access));
  if (f.requests.total == 0) return head + " and never came";
  const std::string fetched = " and fetched " + Pages(f.requests.total) + Breakdown(f.requests);
  if (c.access == CrawlAccess::kAllowed) return head + fetched;
  const std::string at_least = f.unchecked > 0 ? "at least " : "";
  const std::int64_t d = f.disallowed.total;
  if (d > 0 && c.access == CrawlAccess::kDisallowed) {
    return head + " and still fetched " + at_least + Pages(d) + Breakdown(f.disallowed);
  }
  if (d > 0) {
    return head + fetched + ", " + at_least + std::to_string(d) + " of them disallowed" +
           Breakdown(f.disallowed);
  }
  if (f.unchecked == 0) return head + fetched + ", none of them disallowed";
  return head + fetched + ", none of the " + std::to_string(f.requests.total - f.unchecked) +
         " checked disallowed";
}

std::string Statement(const CrawlerTrafficVerdict& c) {
  std::string sentence = Body(c);
  if (c.previous) {
    sentence += Comparison(Headline(c, c.current), Headline(c, *c.previous));
  }
  return sentence + ".";
}

// ---- The report

struct Candidate {
  AiCrawler crawler;
  bool listed = true;
};

// The listed crawlers once per product token, then the unlisted ones a group names.
std::vector<Candidate> Candidates(const RobotsTxt& robots, const std::vector<AiCrawler>& listed,
                                  const TrafficIndex& now, const TrafficIndex* before) {
  std::vector<Candidate> out;
  std::set<std::string> seen;
  for (const AiCrawler& crawler : listed) {
    if (seen.insert(TokenKey(crawler.name)).second) out.push_back({crawler, true});
  }
  std::vector<std::pair<std::int64_t, std::string>> unlisted;
  auto consider = [&](const std::string& token, const BotTraffic& bot) {
    if (!seen.insert(token).second || !robots.NamesAgent(bot.name)) return;
    const auto it = now.find(token);
    std::int64_t total = 0;
    if (it != now.end()) {
      for (const auto& [path, counts] : it->second.paths) total += counts.total;
      total += it->second.unchecked.total;
    }
    unlisted.emplace_back(-total, bot.name);
  };
  for (const auto& [token, bot] : now) consider(token, bot);
  if (before != nullptr) {
    for (const auto& [token, bot] : *before) consider(token, bot);
  }
  std::sort(unlisted.begin(), unlisted.end());
  for (auto& [minus_total, name] : unlisted) out.push_back({{std::move(name), ""}, false});
  return out;
}

const BotTraffic* Find(const TrafficIndex& index, const std::string& name) {
  const auto it = index.find(TokenKey(name));
  return it == index.end() ? nullptr : &it->second;
}

void AddBlockedPaths(std::map<std::string, BlockedPathHits>& blocked, const std::string& name,
                     const std::vector<DisallowedPathHits>& hits) {
  for (const DisallowedPathHits& hit : hits) {
    BlockedPathHits& path = blocked[hit.path];
    path.path = hit.path;
    AddAll(path.requests, hit.requests);
    path.crawlers.push_back(name);
  }
}

// Most requested first; each path's crawlers by their requests to it.
std::vector<BlockedPathHits> RankBlockedPaths(
    std::map<std::string, BlockedPathHits> blocked,
    const std::map<std::pair<std::string, std::string>, std::int64_t>& by_crawler) {
  std::vector<BlockedPathHits> out;
  for (auto& entry : blocked) {
    const std::string& path = entry.first;
    std::sort(entry.second.crawlers.begin(), entry.second.crawlers.end(),
              [&](const std::string& a, const std::string& b) {
                const std::int64_t na = by_crawler.at({path, a}), nb = by_crawler.at({path, b});
                return na != nb ? na > nb : a < b;
              });
    out.push_back(std::move(entry.second));
  }
  std::sort(out.begin(), out.end(), [](const BlockedPathHits& a, const BlockedPathHits& b) {
    return a.requests.total != b.requests.total ? a.requests.total > b.requests.total
                                                : a.path < b.path;
  });
  if (out.size() > kRobotsTrafficBlockedPaths) out.resize(kRobotsTrafficBlockedPaths);
  return out;
}

}  // namespace

RobotsTrafficReport CompareRobotsWithTraffic(const RobotsTxt& robots,
                                             const std::vector<AiCrawler>& crawlers, Rows current,
                                             std::optional<Rows> previous) {
  const TrafficIndex now = IndexTraffic(current);
  const std::optional<TrafficIndex> before =
      previous ? std::optional<TrafficIndex>(IndexTraffic(*previous)) : std::nullopt;
  RobotsTrafficReport report;
  if (before) report.previous_requests = report.previous_disallowed = TrafficCounts{};
  std::map<std::string, BlockedPathHits> blocked;
  std::map<std::pair<std::string, std::string>, std::int64_t> by_crawler;
  for (Candidate& candidate : Candidates(robots, crawlers, now, before ? &*before : nullptr)) {
    AiCrawlerAccess access = std::move(SiteAiUsage(robots, {candidate.crawler}).crawlers.front());
    CrawlerTrafficVerdict c{access.name, access.purpose, candidate.listed, access.access,
                            std::move(access.root)};
    std::vector<DisallowedPathHits> hits;
    c.current = Judge(robots, c.name, Find(now, c.name), hits);
    AddBlockedPaths(blocked, c.name, hits);
    for (const DisallowedPathHits& hit : hits) by_crawler[{hit.path, c.name}] = hit.requests.total;
    AddAll(report.requests, c.current.requests);
    AddAll(report.disallowed, c.current.disallowed);
    if (before) {
      std::vector<DisallowedPathHits> earlier;
      c.previous = Judge(robots, c.name, Find(*before, c.name), earlier);
      AddAll(*report.previous_requests, c.previous->requests);
      AddAll(*report.previous_disallowed, c.previous->disallowed);
    }
    c.statement = Statement(c);
    report.crawlers.push_back(std::move(c));
  }
  report.blocked_paths = RankBlockedPaths(std::move(blocked), by_crawler);
  return report;
}

// ---- JSON

namespace {

std::string_view AccessName(CrawlAccess access) {
  switch (access) {
    case CrawlAccess::kAllowed:
      return "allowed";
    case CrawlAccess::kPartial:
      return "partial";
    case CrawlAccess::kDisallowed:
      return "disallowed";
  }
  return "allowed";
}

json::object CountsJson(const TrafficCounts& c) {
  return {{"total", c.total},
          {"verified", c.verified},
          {"spoofed", c.spoofed},
          {"suspected", c.suspected}};
}

json::value OptionalCountsJson(const std::optional<TrafficCounts>& c) {
  if (!c) return nullptr;
  return CountsJson(*c);
}

json::object FiguresJson(const CrawlerTrafficFigures& f) {
  json::array paths;
  for (const DisallowedPathHits& hit : f.top_disallowed) {
    paths.push_back(json::object{{"path", hit.path},
                                 {"requests", CountsJson(hit.requests)},
                                 {"rule", hit.rule},
                                 {"line", hit.line}});
  }
  return {{"requests", CountsJson(f.requests)},
          {"disallowedRequests", CountsJson(f.disallowed)},
          {"uncheckedRequests", f.unchecked},
          {"topDisallowedPaths", std::move(paths)}};
}

json::object ChangeJson(std::int64_t now, std::int64_t before) {
  json::value percent = nullptr;
  if (before != 0) {
    const double change = 100.0 * static_cast<double>(now - before) / static_cast<double>(before);
    percent = std::round(change * 100.0) / 100.0;
  }
  return {{"absoluteChange", now - before}, {"percentageChange", std::move(percent)}};
}

json::object CrawlerJson(const CrawlerTrafficVerdict& c) {
  json::object out{{"name", c.name},
                   {"purpose", c.purpose},
                   {"listed", c.listed},
                   {"access", AccessName(c.access)},
                   {"root", json::object{{"allowed", c.root.allowed},
                                         {"rule", c.root.rule},
                                         {"line", c.root.line},
                                         {"group", c.root.group}}},
                   {"statement", c.statement},
                   {"current", FiguresJson(c.current)},
                   {"previous", nullptr},
                   {"change", nullptr}};
  if (c.previous) {
    out["previous"] = FiguresJson(*c.previous);
    out["change"] =
        json::object{{"requests", ChangeJson(c.current.requests.total, c.previous->requests.total)},
                     {"disallowedRequests",
                      ChangeJson(c.current.disallowed.total, c.previous->disallowed.total)}};
  }
  return out;
}

}  // namespace

json::object RobotsTrafficJson(const RobotsTrafficReport& report) {
  json::array crawlers;
  for (const CrawlerTrafficVerdict& c : report.crawlers) crawlers.push_back(CrawlerJson(c));
  json::array blocked;
  for (const BlockedPathHits& path : report.blocked_paths) {
    json::array names;
    for (const std::string& name : path.crawlers) names.emplace_back(name);
    blocked.push_back(json::object{{"path", path.path},
                                   {"requests", CountsJson(path.requests)},
                                   {"crawlers", std::move(names)}});
  }
  return {
      {"crawlers", std::move(crawlers)},
      {"blockedPaths", std::move(blocked)},
      {"totals", json::object{{"requests", CountsJson(report.requests)},
                              {"disallowedRequests", CountsJson(report.disallowed)},
                              {"previousRequests", OptionalCountsJson(report.previous_requests)},
                              {"previousDisallowedRequests",
                               OptionalCountsJson(report.previous_disallowed)}}}};
}

}  // namespace sightline::site_audit
