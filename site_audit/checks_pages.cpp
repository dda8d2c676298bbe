// Checks of one page at a time: its status, indexability, depth and speed, and its markup.
#include <boost/json.hpp>

#include "site_audit/checks_context.h"
#include "core/text.h"

namespace sightline::site_audit::checks {
namespace {

namespace json = boost::json;

constexpr std::int64_t kMaxDepth = 3;
constexpr std::int64_t kSlowTtfbMs = 1500;

// Where the failing URL is linked from, so the links can be fixed too.
json::object StatusEvidence(const CheckContext& context, const PageView& view) {
  json::object evidence{{"status", view.status}};
  const Inbound* inbound = context.InboundOf(view.url());
  evidence["linkedFrom"] = inbound ? CappedStrings(inbound->from) : json::array();
  evidence["inboundLinks"] = inbound ? inbound->count : 0;
  return evidence;
}

void CheckOneStatus(CheckContext& context, const PageView& view) {
  const storage::SiteAuditPageRecord& r = *view.record;
  if (r.internal && r.state == "error") {
    json::object evidence = StatusEvidence(context, view);
    evidence["status"] = nullptr;
    evidence["error"] = StringAt(view.details, "error");
    context.Add("status/unreachable", r.url, std::move(evidence));
  }
  if (!view.page) return;
  if (view.status >= 400 && view.status < 500) {
    context.Add("status/client-error", r.url, StatusEvidence(context, view));
  } else if (view.status >= 500) {
    context.Add("status/server-error", r.url, StatusEvidence(context, view));
  }
  if (view.status == 200 && view.noindex) {
    context.Add("indexability/noindex", r.url,
                {{"metaRobots", ArrayAt(view.details, "metaRobots")},
                 {"xRobotsTag", ArrayAt(view.details, "xRobotsTag")}});
  }
  if (view.status == 200 && r.depth > kMaxDepth) {
    context.Add("depth/too-deep", r.url, {{"depth", r.depth}, {"maxDepth", kMaxDepth}});
  }
  if (r.ttfb_ms > kSlowTtfbMs) {
    context.Add("performance/slow-response", r.url,
                {{"ttfbMs", r.ttfb_ms}, {"thresholdMs", kSlowTtfbMs}});
  }
}

void CheckStructuredData(CheckContext& context, const PageView& view) {
  const json::object& data = ObjectAt(view.details, "structuredData");
  if (!ArrayAt(data, "errors").empty()) {
    context.Add("structured-data/invalid", view.url(),
                {{"errors", ArrayAt(data, "errors")}, {"blocks", IntAt(data, "blocks")}});
  }
  json::array required, recommended;
  for (const json::value& v : ArrayAt(data, "items")) {
    if (!v.is_object()) continue;
    const json::object& item = v.get_object();
    const json::array& need = ArrayAt(item, "missingRequired");
    const json::array& nice = ArrayAt(item, "missingRecommended");
    if (!need.empty() && required.size() < kMaxEvidence) {
      required.push_back(json::object{{"type", StringAt(item, "type")}, {"missing", need}});
    }
    if (!nice.empty() && recommended.size() < kMaxEvidence) {
      recommended.push_back(json::object{{"type", StringAt(item, "type")}, {"missing", nice}});
    }
  }
  if (!required.empty()) {
    context.Add("structured-data/missing-required", view.url(), {{"items", std::move(required)}});
  }
  if (!recommended.empty()) {
    context.Add("structured-data/missing-recommended", view.url(),
                {{"items", std::move(recommended)}});
  }
}

void CheckOneMarkup(CheckContext& context, const PageView& view) {
  const json::object& d = view.details;
  if (core::TrimSpaces(StringAt(d, "lang")).empty())
    context.Add("html/lang-missing", view.url(), {});
  if (!BoolAt(d, "viewport")) context.Add("html/viewport-missing", view.url(), {});
  if (!view.noindex) {
    const json::array& h1 = ArrayAt(d, "h1");
    if (h1.empty()) context.Add("h1/missing", view.url(), {});
    if (h1.size() > 1) context.Add("h1/multiple", view.url(), {{"h1", h1}, {"count", h1.size()}});
  }
  if (const json::array& images = ArrayAt(d, "imagesWithoutAlt"); !images.empty()) {
    context.Add("images/missing-alt", view.url(),
                {{"images", images}, {"count", images.size()}, {"total", IntAt(d, "images")}});
  }
  const json::array& mixed = ArrayAt(d, "mixedContent");
  if (!mixed.empty() && view.url().starts_with("https://")) {
    context.Add("security/mixed-content", view.url(), {{"resources", mixed}});
  }
  CheckStructuredData(context, view);
}

}  // namespace

void CheckStatus(CheckContext& context) {
  for (const PageView& view : context.views()) CheckOneStatus(context, view);
}

void CheckMarkup(CheckContext& context) {
  for (const PageView& view : context.views()) {
    if (view.html) CheckOneMarkup(context, view);
  }
}

}  // namespace sightline::site_audit::checks
