#include "site_audit/checks_context.h"

#include <algorithm>
#include <boost/json.hpp>

namespace sightline::site_audit::checks {
namespace {

namespace json = boost::json;

json::object ParseDetails(const std::string& text) {
  boost::system::error_code ec;
  json::value parsed = json::parse(text, ec);
  if (ec || !parsed.is_object()) return {};
  return std::move(parsed.as_object());
}

bool HasNoindex(const json::object& details) {
  for (std::string_view key : {"metaRobots", "xRobotsTag"}) {
    for (std::string_view directive : StringsAt(details, key)) {
      if (directive == "noindex" || directive == "none") return true;
    }
  }
  return false;
}

PageView MakeView(const storage::SiteAuditPageRecord& record) {
  PageView view{.record = &record, .details = ParseDetails(record.details)};
  view.status = static_cast<int>(record.http_status.value_or(0));
  view.page = record.internal && record.state == "done";
  view.html = view.page && view.status == 200 && BoolAt(view.details, "html");
  view.noindex = view.page && HasNoindex(view.details);
  view.redirect = view.page && view.status >= 300 && view.status < 400 &&
                  !StringAt(view.details, "redirectTo").empty();
  return view;
}

}  // namespace

CheckContext::CheckContext(const CheckInput& input) : input_(input) {
  views_.reserve(input.pages.size());
  by_url_.reserve(input.pages.size());
  for (const storage::SiteAuditPageRecord& record : input.pages) {
    // A URL is recorded once per crawl; should it repeat, the first record stands.
    if (by_url_.emplace(record.url, views_.size()).second) views_.push_back(MakeView(record));
  }
  for (const storage::SiteAuditLinkRecord& link : input.links) {
    if (link.from_url == link.to_url) continue;
    Inbound& inbound = inbound_[link.to_url];
    ++inbound.count;
    // Links arrive grouped by source page, so comparing with the last source dedupes cheaply;
    // the rare repeat further back is checked against at most kMaxSources entries.
    if (inbound.from.size() < kMaxSources &&
        std::find(inbound.from.begin(), inbound.from.end(), link.from_url) == inbound.from.end()) {
      inbound.from.push_back(link.from_url);
    }
  }
}

const PageView* CheckContext::Find(std::string_view url) const {
  auto found = by_url_.find(url);
  return found == by_url_.end() ? nullptr : &views_[found->second];
}

const Inbound* CheckContext::InboundOf(std::string_view url) const {
  auto found = inbound_.find(url);
  return found == inbound_.end() ? nullptr : &found->second;
}

void CheckContext::Add(std::string_view rule_id, std::string url, json::object evidence) {
  findings_.push_back({std::string(rule_id), std::move(url), std::move(evidence)});
}

std::string_view StringAt(const json::object& object, std::string_view key) {
  const json::value* v = object.if_contains(key);
  return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

const json::array& ArrayAt(const json::object& object, std::string_view key) {
  static const json::array kEmpty;
  const json::value* v = object.if_contains(key);
  return v && v->is_array() ? v->get_array() : kEmpty;
}

const json::object& ObjectAt(const json::object& object, std::string_view key) {
  static const json::object kEmpty;
  const json::value* v = object.if_contains(key);
  return v && v->is_object() ? v->get_object() : kEmpty;
}

bool BoolAt(const json::object& object, std::string_view key) {
  const json::value* v = object.if_contains(key);
  return v && v->is_bool() && v->get_bool();
}

std::int64_t IntAt(const json::object& object, std::string_view key) {
  const json::value* v = object.if_contains(key);
  if (v == nullptr) return 0;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<std::int64_t>(v->get_uint64());
  return 0;
}

std::vector<std::string_view> StringsAt(const json::object& object, std::string_view key) {
  std::vector<std::string_view> out;
  for (const json::value& v : ArrayAt(object, key)) {
    if (v.is_string()) out.emplace_back(v.get_string());
  }
  return out;
}

json::value StatusJson(int status) { return status == 0 ? json::value(nullptr) : status; }

json::array CappedStrings(const std::vector<std::string_view>& items, std::size_t max) {
  json::array out;
  for (std::size_t i = 0; i < items.size() && i < max; ++i) out.emplace_back(items[i]);
  return out;
}

std::vector<std::string_view> Canonicals(const PageView& view) {
  std::vector<std::string_view> out;
  for (std::string_view url : StringsAt(view.details, "canonicals")) {
    if (std::find(out.begin(), out.end(), url) == out.end()) out.push_back(url);
  }
  return out;
}

bool IsBrokenTarget(const PageView& target) {
  const storage::SiteAuditPageRecord& r = *target.record;
  if (r.state == "error") return true;
  if (r.state != "done") return false;  // queued, skipped, blocked: not known to be broken
  return target.status >= 500 || (target.status >= 400 && target.status != 429);
}

}  // namespace sightline::site_audit::checks

namespace sightline::site_audit {

std::vector<Finding> RunChecks(const CheckInput& input) {
  checks::CheckContext context(input);
  checks::CheckStatus(context);
  checks::CheckMarkup(context);
  checks::CheckTexts(context);
  checks::CheckLinks(context);
  checks::CheckCanonicals(context);
  checks::CheckSitemaps(context);
  checks::CheckSite(context);
  std::vector<Finding> findings = context.TakeFindings();
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return a.rule_id != b.rule_id ? a.rule_id < b.rule_id : a.url < b.url;
  });
  return findings;
}

}  // namespace sightline::site_audit
