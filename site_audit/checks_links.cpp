// Checks of what pages point at: broken and empty links, one finding per linking page, and the
// redirects a URL goes through before it answers.
#include <algorithm>
#include <boost/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "site_audit/checks_context.h"
#include "core/text.h"

namespace sightline::site_audit::checks {
namespace {

namespace json = boost::json;

constexpr std::size_t kMaxHops = 20;  // browsers give up at 20 redirects

// What one source page links to that is worth reporting.
struct LinkList {
  std::unordered_set<std::string_view> seen;  // hrefs, so a repeated link is listed once
  json::array links;
  std::size_t count = 0;
};

struct SourceLinks {
  LinkList internal, external, empty;
};

void Append(LinkList& list, std::string_view href, json::value entry) {
  if (!list.seen.insert(href).second) return;
  ++list.count;
  if (list.links.size() < kMaxEvidence) list.links.push_back(std::move(entry));
}

void Report(CheckContext& context, std::string_view rule_id, std::string_view from,
            LinkList& list) {
  if (list.count == 0) return;
  context.Add(rule_id, std::string(from),
              {{"links", std::move(list.links)}, {"count", list.count}});
}

void CheckLinkTargets(CheckContext& context) {
  std::unordered_map<std::string_view, SourceLinks> by_source;
  for (const storage::SiteAuditLinkRecord& link : context.input().links) {
    if (core::TrimSpaces(link.anchor).empty()) {
      Append(by_source[link.from_url].empty, link.to_url, json::string(link.to_url));
    }
    const PageView* target = context.Find(link.to_url);
    if (target == nullptr || !IsBrokenTarget(*target)) continue;
    SourceLinks& source = by_source[link.from_url];
    Append(target->record->internal ? source.internal : source.external, link.to_url,
           json::object{{"href", link.to_url},
                        {"status", StatusJson(target->status)},
                        {"anchor", link.anchor}});
  }
  for (auto& [from, source] : by_source) {
    Report(context, "links/broken-internal", from, source.internal);
    Report(context, "links/broken-external", from, source.external);
    Report(context, "links/empty-anchor", from, source.empty);
  }
}

struct RedirectWalk {
  std::vector<std::string_view> chain;  // the start URL, each target in turn
  bool loop = false;                    // the last URL of `chain` occurred before it
  const PageView* final = nullptr;      // where it ended; nullptr when never fetched
};

RedirectWalk Follow(const CheckContext& context, const PageView& start) {
  RedirectWalk walk{.chain = {start.url()}};
  const PageView* at = &start;
  while (at != nullptr && at->redirect && walk.chain.size() <= kMaxHops) {
    const std::string_view next = StringAt(at->details, "redirectTo");
    walk.loop = std::find(walk.chain.begin(), walk.chain.end(), next) != walk.chain.end();
    walk.chain.push_back(next);
    if (walk.loop) return walk;
    at = context.Find(next);
  }
  walk.final = at;
  return walk;
}

using Targets = std::unordered_set<std::string_view>;

// Where users and crawlers enter a chain: its head, or any URL linked, listed or started from.
bool IsEntry(const CheckContext& context, const Targets& targets, const PageView& view) {
  return !targets.contains(view.url()) || context.InboundOf(view.url()) ||
         view.record->in_sitemap || view.record->source == "start";
}

// Whether the loop `walk` starts on should be reported at its start although nothing enters it
// there: when nothing enters it anywhere, it is reported once, at its smallest URL.
bool IsLoopAnchor(const CheckContext& context, const Targets& targets, const RedirectWalk& walk) {
  if (walk.chain.back() != walk.chain.front()) return false;
  if (std::min_element(walk.chain.begin(), walk.chain.end()) != walk.chain.begin()) return false;
  return std::none_of(walk.chain.begin(), walk.chain.end(), [&](std::string_view url) {
    const PageView* member = context.Find(url);
    return member != nullptr && IsEntry(context, targets, *member);
  });
}

void CheckRedirects(CheckContext& context) {
  Targets targets;
  for (const PageView& view : context.views()) {
    if (view.redirect) targets.insert(StringAt(view.details, "redirectTo"));
  }
  for (const PageView& view : context.views()) {
    if (!view.redirect) continue;
    const bool entry = IsEntry(context, targets, view);
    const RedirectWalk walk = Follow(context, view);
    json::array chain = CappedStrings(walk.chain);
    const std::size_t hops = walk.chain.size() - 1;
    if (walk.loop && (entry || IsLoopAnchor(context, targets, walk))) {
      context.Add("redirects/loop", view.url(), {{"chain", std::move(chain)}, {"hops", hops}});
    } else if (!walk.loop && entry && hops > 1) {
      context.Add("redirects/chain", view.url(),
                  {{"chain", std::move(chain)},
                   {"hops", hops},
                   {"final", walk.chain.back()},
                   {"finalStatus", StatusJson(walk.final ? walk.final->status : 0)},
                   {"truncated", walk.final != nullptr && walk.final->redirect}});
    }
  }
}

}  // namespace

void CheckLinks(CheckContext& context) {
  CheckLinkTargets(context);
  CheckRedirects(context);
}

}  // namespace sightline::site_audit::checks
