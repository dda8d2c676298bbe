// Site-wide checks from the crawl's survey and start page: HTTPS (the start URL, the http://
// redirect, HSTS) and AI readiness (llms.txt, AI crawlers' robots.txt verdicts, AI usage lines).
#include <boost/json.hpp>

#include "site_audit/checks_context.h"
#include "core/text.h"

namespace sightline::site_audit::checks {
namespace {

namespace json = boost::json;

// max-age=0 tells browsers to forget the policy: as good as no header.
bool HstsEffective(std::string_view header) {
  const std::string lower = core::ToLowerAscii(header);
  for (const std::string& item : core::SplitList(lower, ';')) {
    if (!item.starts_with("max-age")) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) return false;
    std::string_view value = core::TrimSpaces(std::string_view(item).substr(eq + 1));
    if (value.starts_with('"')) value.remove_prefix(1);
    return !value.empty() && value.find_first_not_of('0') != std::string_view::npos &&
           value.front() >= '0' && value.front() <= '9';
  }
  return false;
}

const PageView* StartPage(const CheckContext& context) {
  for (const PageView& view : context.views()) {
    if (view.record->source == "start") return &view;
  }
  return context.Find(context.input().start_url);
}

void CheckHttps(CheckContext& context) {
  const std::string& start = context.input().start_url;
  if (start.starts_with("http://")) {
    context.Add("security/no-https", start, {{"startUrl", start}});
    return;
  }
  const json::object& https = ObjectAt(context.site(), "https");
  // An http:// that does not answer at all cannot serve anything unencrypted.
  if (BoolAt(https, "startUrlHttps") && IntAt(https, "httpStatus") != 0 &&
      !BoolAt(https, "httpRedirectsToHttps")) {
    context.Add("security/http-not-redirected", "",
                {{"httpUrl", "http://" + start.substr(std::string_view("https://").size())},
                 {"httpStatus", IntAt(https, "httpStatus")}});
  }
  const PageView* page = StartPage(context);
  if (page == nullptr || !page->page || !page->url().starts_with("https://")) return;
  const std::string_view hsts = StringAt(page->details, "hsts");
  if (!HstsEffective(hsts)) {
    context.Add("security/hsts-missing", page->url(),
                {{"header", hsts.empty() ? json::value(nullptr) : json::value(hsts)}});
  }
}

void CheckLlmsTxt(CheckContext& context) {
  const json::object& llms = ObjectAt(context.site(), "llmsTxt");
  if (llms.empty() || BoolAt(llms, "blockedByRobots")) return;
  const json::value status = StatusJson(static_cast<int>(IntAt(llms, "status")));
  if (!BoolAt(llms, "present")) {
    context.Add("ai/llms-txt-missing", "", {{"url", StringAt(llms, "url")}, {"status", status}});
  } else if (!BoolAt(llms, "wellFormed")) {
    context.Add("ai/llms-txt-malformed", "",
                {{"url", StringAt(llms, "url")}, {"problems", ArrayAt(llms, "problems")}});
  }
}

void CheckAiCrawlers(CheckContext& context, const json::object& robots) {
  json::array blocked;
  std::size_t count = 0;
  for (const json::value& v : ArrayAt(robots, "aiCrawlers")) {
    if (!v.is_object()) continue;
    const json::object& c = v.get_object();
    const std::string_view access = StringAt(c, "access");
    if (access != "disallowed" && access != "partial") continue;
    if (++count > kMaxEvidence) continue;
    blocked.push_back(json::object{{"name", StringAt(c, "name")},
                                   {"purpose", StringAt(c, "purpose")},
                                   {"access", access},
                                   {"rule", StringAt(c, "rule")},
                                   {"line", IntAt(c, "line")}});
  }
  if (count > 0) {
    context.Add("ai/crawler-blocked", "", {{"crawlers", std::move(blocked)}, {"count", count}});
  }
}

void CheckAiUsage(CheckContext& context, const json::object& robots) {
  for (const json::value& v : ArrayAt(robots, "contradictions")) {
    if (v.is_object()) context.Add("ai/usage-contradiction", "", v.get_object());
  }
  json::array invalid;
  for (const json::value& v : ArrayAt(robots, "aiUsage")) {
    if (!v.is_object() || ArrayAt(v.get_object(), "problems").empty()) continue;
    const json::object& line = v.get_object();
    if (invalid.size() < kMaxEvidence) {
      invalid.push_back(json::object{{"line", IntAt(line, "line")},
                                     {"directive", StringAt(line, "directive")},
                                     {"problems", ArrayAt(line, "problems")}});
    }
  }
  if (!invalid.empty()) context.Add("ai/usage-line-invalid", "", {{"lines", std::move(invalid)}});
}

}  // namespace

void CheckSite(CheckContext& context) {
  CheckHttps(context);
  CheckLlmsTxt(context);
  const json::object& robots = ObjectAt(context.site(), "robots");
  CheckAiCrawlers(context, robots);
  CheckAiUsage(context, robots);
}

}  // namespace sightline::site_audit::checks
