// Checks of what pages say about other URLs standing for them: canonicals (one, reachable,
// indexable, not circular) and hreflang alternates (answering 200 and naming the page back).
#include <algorithm>
#include <boost/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "site_audit/checks_context.h"

namespace sightline::site_audit::checks {
namespace {

namespace json = boost::json;

constexpr std::size_t kMaxCanonicalHops = 10;

// The canonical chain from `view` through pages that name a single other canonical, ending when
// it comes back to `view` (a loop: returns it) or goes anywhere else (returns an empty chain).
std::vector<std::string_view> CanonicalLoop(const CheckContext& context, const PageView& view,
                                            std::string_view target) {
  std::vector<std::string_view> chain{view.url(), target};
  const PageView* at = context.Find(target);
  while (at != nullptr && at->html && chain.size() <= kMaxCanonicalHops) {
    const std::vector<std::string_view> next = Canonicals(*at);
    if (next.size() != 1 || next.front() == at->url()) return {};
    chain.push_back(next.front());
    if (next.front() == view.url()) return chain;
    // A loop that does not pass through `view` is reported by its own members.
    if (std::find(chain.begin(), chain.end() - 1, next.front()) != chain.end() - 1) return {};
    at = context.Find(next.front());
  }
  return {};
}

void CheckTarget(CheckContext& context, const PageView& view, std::string_view target) {
  const PageView* t = context.Find(target);
  if (t == nullptr) return;  // never fetched: unknown
  const std::string& state = t->record->state;
  if (state == "blocked") {
    context.Add("canonical/target-not-indexable", view.url(),
                {{"canonical", target}, {"targetStatus", nullptr}, {"reason", "robots"}});
  } else if (state == "error" || (state == "done" && t->status != 200)) {
    json::object evidence{{"canonical", target}, {"targetStatus", StatusJson(t->status)}};
    if (t->redirect) evidence["redirectTo"] = StringAt(t->details, "redirectTo");
    context.Add("canonical/target-not-ok", view.url(), std::move(evidence));
  } else if (state == "done" && t->noindex) {
    context.Add("canonical/target-not-indexable", view.url(),
                {{"canonical", target}, {"targetStatus", t->status}, {"reason", "noindex"}});
  } else if (auto loop = CanonicalLoop(context, view, target); !loop.empty()) {
    context.Add("canonical/loop", view.url(), {{"chain", CappedStrings(loop)}});
  }
}

void CheckCanonicalOf(CheckContext& context, const PageView& view) {
  const std::vector<std::string_view> canonicals = Canonicals(view);
  if (canonicals.empty()) {
    if (!view.noindex) context.Add("canonical/missing", view.url(), {});
  } else if (canonicals.size() > 1) {
    // Search engines ignore them all, so the targets are not worth judging.
    context.Add("canonical/conflicting", view.url(), {{"canonicals", CappedStrings(canonicals)}});
  } else if (canonicals.front() != view.url()) {
    CheckTarget(context, view, canonicals.front());
  }
}

struct Alternate {
  std::string_view lang, href;
};

std::vector<Alternate> AlternatesOf(const PageView& view) {
  std::vector<Alternate> out;
  for (const json::value& v : ArrayAt(view.details, "hreflang")) {
    if (!v.is_object()) continue;
    const Alternate a{StringAt(v.get_object(), "lang"), StringAt(v.get_object(), "href")};
    if (!a.href.empty()) out.push_back(a);
  }
  return out;
}

void ReportAlternates(CheckContext& context, std::string_view rule_id, const PageView& view,
                      json::array& bad) {
  if (bad.empty()) return;
  json::object evidence = bad.front().as_object();  // the first one, flat, for a quick read
  evidence["count"] = bad.size();
  evidence["alternates"] = std::move(bad);
  context.Add(rule_id, view.url(), std::move(evidence));
}

using HrefSets = std::unordered_map<const PageView*, std::unordered_set<std::string_view>>;

void CheckHreflangOf(CheckContext& context, const PageView& view, const HrefSets& hrefs) {
  json::array not_reciprocal, not_ok;
  for (const Alternate& a : AlternatesOf(view)) {
    const PageView* t = a.href == view.url() ? nullptr : context.Find(a.href);
    if (t == nullptr) continue;
    const std::string& state = t->record->state;
    if (state == "error" || (state == "done" && t->status != 200)) {
      if (not_ok.size() < kMaxEvidence) {
        not_ok.push_back(json::object{
            {"hreflang", a.lang}, {"target", a.href}, {"targetStatus", StatusJson(t->status)}});
      }
    } else if (t->html) {
      auto listed = hrefs.find(t);
      const bool back = listed != hrefs.end() && listed->second.contains(view.url());
      if (!back && not_reciprocal.size() < kMaxEvidence) {
        not_reciprocal.push_back(json::object{{"hreflang", a.lang}, {"target", a.href}});
      }
    }
  }
  ReportAlternates(context, "hreflang/not-reciprocal", view, not_reciprocal);
  ReportAlternates(context, "hreflang/target-not-ok", view, not_ok);
}

}  // namespace

void CheckCanonicals(CheckContext& context) {
  HrefSets hrefs;
  for (const PageView& view : context.views()) {
    if (!view.html) continue;
    CheckCanonicalOf(context, view);
    for (const Alternate& a : AlternatesOf(view)) hrefs[&view].insert(a.href);
  }
  for (const PageView& view : context.views()) {
    if (view.html && hrefs.contains(&view)) CheckHreflangOf(context, view, hrefs);
  }
}

}  // namespace sightline::site_audit::checks
