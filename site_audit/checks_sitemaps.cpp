// Checks of robots.txt and the sitemaps against the pages: whether the files could be read,
// which linked or listed URLs robots.txt blocks, and whether the sitemaps list exactly the
// site's linked, indexable pages.
#include <boost/json.hpp>
#include <unordered_set>

#include "site_audit/checks_context.h"

namespace sightline::site_audit::checks {
namespace {

namespace json = boost::json;

constexpr std::size_t kMaxRedirectHops = 20;
constexpr std::size_t kMaxLinkedFrom = 5;

bool IsSitemapKind(std::string_view kind) {
  return kind == "urlset" || kind == "index" || kind == "text";
}

// URLs reached from the site's navigation: linked from a crawled page, the start URL, or where
// the redirects of such a URL lead.
class Reachable {
 public:
  explicit Reachable(const CheckContext& context) : context_(context) {
    for (const PageView& view : context.views()) {
      if (view.redirect && LinkedOrStart(view.url())) Follow(view);
    }
  }
  bool Contains(std::string_view url) const {
    return LinkedOrStart(url) || redirected_.contains(url);
  }

 private:
  bool LinkedOrStart(std::string_view url) const {
    return url == context_.input().start_url || context_.InboundOf(url) != nullptr;
  }
  void Follow(const PageView& view) {
    const PageView* at = &view;
    for (std::size_t hop = 0; at != nullptr && at->redirect && hop < kMaxRedirectHops; ++hop) {
      const std::string_view next = StringAt(at->details, "redirectTo");
      if (!redirected_.insert(next).second) return;
      at = context_.Find(next);
    }
  }
  const CheckContext& context_;
  std::unordered_set<std::string_view> redirected_;
};

json::array LinkedFrom(const CheckContext& context, std::string_view url, std::size_t max) {
  const Inbound* inbound = context.InboundOf(url);
  return inbound ? CappedStrings(inbound->from, max) : json::array();
}

void CheckRobots(CheckContext& context) {
  const json::object& robots = ObjectAt(context.site(), "robots");
  const bool disallow_all = StringAt(robots, "policy") == "disallow_all";
  if (disallow_all) {
    context.Add("robots/unreachable", "",
                {{"url", StringAt(robots, "url")},
                 {"status", StatusJson(static_cast<int>(IntAt(robots, "status")))},
                 {"error", StringAt(robots, "error")}});
    return;  // every URL is blocked: the finding above says it once
  }
  for (const PageView& view : context.views()) {
    const storage::SiteAuditPageRecord& r = *view.record;
    if (!r.internal || r.state != "blocked") continue;
    const Inbound* inbound = context.InboundOf(r.url);
    if (inbound == nullptr && !r.in_sitemap) continue;
    context.Add("robots/blocked-url", r.url,
                {{"robotsRule", StringAt(view.details, "robotsRule")},
                 {"robotsLine", IntAt(view.details, "robotsLine")},
                 {"linkedFrom", LinkedFrom(context, r.url, kMaxSources)},
                 {"inSitemap", r.in_sitemap}});
  }
}

// Unlisted files are guesses (/sitemap.xml): one that is not a sitemap at all (an HTML error
// page, a 403) only means the site has none there.
void CheckSitemapFiles(CheckContext& context, const json::array& files) {
  bool any = false;
  for (const json::value& v : files) {
    if (!v.is_object()) continue;
    const json::object& file = v.get_object();
    const bool listed = BoolAt(file, "listedInRobots");
    const bool usable = IsSitemapKind(StringAt(file, "kind"));
    any = any || usable || listed;
    if ((listed && !usable) || (usable && !ArrayAt(file, "problems").empty())) {
      context.Add("sitemap/invalid", std::string(StringAt(file, "url")),
                  {{"status", StatusJson(static_cast<int>(IntAt(file, "status")))},
                   {"kind", StringAt(file, "kind")},
                   {"listedInRobots", listed},
                   {"problems", ArrayAt(file, "problems")}});
    }
  }
  if (!any) context.Add("sitemap/none", "", {});
}

std::string_view NonIndexableReason(const PageView& view) {
  const std::string& state = view.record->state;
  if (state == "blocked") return "robots";
  if (state == "error") return "unreachable";
  if (state != "done") return "";
  if (view.status >= 300 && view.status < 400) return "redirect";
  if (view.status != 200) return "status";
  return view.noindex ? "noindex" : "";
}

bool IsSelfCanonical(const PageView& view) {
  const std::vector<std::string_view> canonicals = Canonicals(view);
  return canonicals.empty() || (canonicals.size() == 1 && canonicals.front() == view.url());
}

void CheckSitemapUrl(CheckContext& context, const PageView& view, const Reachable& reachable) {
  const std::string& url = view.url();
  if (const std::string_view reason = NonIndexableReason(view); !reason.empty()) {
    json::object evidence{{"reason", reason}, {"status", StatusJson(view.status)}};
    if (view.redirect) evidence["redirectTo"] = StringAt(view.details, "redirectTo");
    context.Add("sitemap/non-indexable-url", url, std::move(evidence));
  }
  if (url != context.input().start_url && !reachable.Contains(url)) {
    context.Add("sitemap/orphan", url,
                {{"status", StatusJson(view.status)}, {"state", view.record->state}});
  }
}

void CheckSitemapCoverage(CheckContext& context) {
  const json::object& sitemaps = ObjectAt(context.site(), "sitemaps");
  bool has_sitemap = IntAt(sitemaps, "urls") > 0;
  for (const PageView& view : context.views()) has_sitemap = has_sitemap || view.record->in_sitemap;
  const Reachable reachable(context);
  // With a truncated sitemap, a page missing from what was read may be in the rest.
  const bool judge_missing = has_sitemap && !BoolAt(sitemaps, "truncated");
  for (const PageView& view : context.views()) {
    const storage::SiteAuditPageRecord& r = *view.record;
    if (!r.internal) continue;
    if (r.in_sitemap) {
      CheckSitemapUrl(context, view, reachable);
    } else if (judge_missing && view.html && !view.noindex && IsSelfCanonical(view) &&
               reachable.Contains(r.url)) {
      context.Add("sitemap/not-in-sitemap", r.url,
                  {{"linkedFrom", LinkedFrom(context, r.url, kMaxLinkedFrom)}});
    }
  }
}

}  // namespace

void CheckSitemaps(CheckContext& context) {
  if (!context.site().empty()) {
    CheckRobots(context);
    if (const json::value* sitemaps = context.site().if_contains("sitemaps");
        sitemaps && sitemaps->is_object()) {
      CheckSitemapFiles(context, ArrayAt(sitemaps->get_object(), "files"));
    }
  }
  CheckSitemapCoverage(context);
}

}  // namespace sightline::site_audit::checks
