// The sites a project audits: added by URL, proven to be the project's (a file, a meta tag or a
// DNS TXT record holding the site's token, checked by the server as search consoles do) before
// ServiceAuditBot crawls them; and the catalog of the checks a crawl runs.
#include "features/site_audit/operations.h"

#include "site_audit/rules.h"
#include "site_audit/crawl_url.h"
#include "core/crypto.h"
#include "storage/site_audit_repository.h"
#include "tools/audit_log.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "features/site_audit/common.h"
#include "features/site_audit/views.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::ErrorCode;
using core::Result;
using identity::Permission;
using site_audit::kCallers;
using site_audit::ProjectId;

// "https://Example.com:443/path?q" → "https://example.com"; VAL_003 for anything but an
// absolute http(s) URL with a host.
Result<std::string> SiteOrigin(const std::string& url) {
  auto normalized = sightline::site_audit::NormalizeUrl(url);
  const std::string origin = normalized ? sightline::site_audit::UrlOrigin(*normalized) : std::string();
  if (origin.empty() || !(origin.starts_with("http://") || origin.starts_with("https://"))) {
    return core::Error::Invalid("url", "url must be an absolute http or https URL of the site, "
                                       "e.g. https://www.example.com/.");
  }
  return origin;
}

Result<storage::SiteRecord> FindSite(storage::Transaction& tx,
                                          const OperationContext& context,
                                          const std::string& site_id) {
  auto site = tx.site_audit().FindAuditSite(ProjectId(context), site_id);
  if (!site) return site.error();
  if (!*site) return NotFound("site");
  return std::move(**site);
}

Result<json::value> RunListAuditSites(OperationContext& context, const json::object& args) {
  const ListSpec list{"list_audit_sites", "sites"};
  auto request = ReadPageArgs(args, list.name, list.shape, kWholeList);
  if (!request) return request.error();
  auto sites = context.store.Read([&](storage::Transaction& tx) {
    return tx.site_audit().ListAuditSites(ProjectId(context), KeysetOf(*request));
  });
  if (!sites) return sites.error();
  return AnswerPage(
      list, request->limit, std::move(*sites),
      [](const storage::SiteRecord& s) { return TimeIdKey(s.created_at, s.id); },
      [](const storage::SiteRecord& s) { return SiteView(s); });
}

Result<json::value> RunAddAuditSite(OperationContext& context, const json::object& args) {
  auto origin = SiteOrigin(RequiredString(args, "url"));
  if (!origin) return origin.error();
  storage::SiteRecord site;
  site.id = core::NewUuidV7(context.clock.NowMillis());
  site.project_id = ProjectId(context);
  site.origin = *origin;
  site.token = sightline::site_audit::NewVerificationToken();
  site.created_by = context.principal.user_id;
  site.created_at = context.clock.NowMillis();
  AuditEntry audit{"site_audit.site_add", "audit_site", site.id, {{"origin", site.origin}}};
  auto added = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    auto sites = tx.site_audit().ListAuditSites(site.project_id);
    if (!sites) return sites.error();
    for (const auto& existing : *sites) {
      if (existing.origin != site.origin) continue;
      core::Error error(ErrorCode::kAuditSiteExists,
                        "The project already audits " + site.origin + ".");
      error.mutable_details()["siteId"] = existing.id;
      return error;
    }
    return tx.site_audit().InsertAuditSite(site);
  });
  if (!added) return added.error();
  return json::value(SiteView(site));
}

Result<json::value> RunGetAuditSite(OperationContext& context, const json::object& args) {
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto site = FindSite(tx, context, RequiredString(args, "siteId"));
    if (!site) return site.error();
    return json::value(SiteView(*site));
  });
}

// Checks the proof now (outside any transaction: it fetches the site), then records the outcome
// either way, so the dashboard shows what the last check found.
Result<json::value> RunVerifyAuditSite(OperationContext& context, const json::object& args) {
  auto service = site_audit::Service(context);
  if (!service) return service.error();
  const std::string site_id = RequiredString(args, "siteId");
  auto site = context.store.Read(
      [&](storage::Transaction& tx) { return FindSite(tx, context, site_id); });
  if (!site) return site.error();
  auto check = (*service)->CheckOwnership(site->origin, site->token,
                                          OptionalString(args, "method").value_or(""));
  if (!check) return check.error();
  const std::int64_t now = context.clock.NowMillis();
  site->checked_at = now;
  site->check_problem = check->method ? "" : check->problem;
  if (check->method) {
    site->verified_method = check->method;
    site->verified_at = now;
  }
  AuditEntry audit{"site_audit.site_verify", "audit_site", site_id,
                   {{"proven", check->method.has_value()},
                    {"method", check->method.value_or("")}}};
  auto saved = AuditedWrite(context, audit, [&](storage::Transaction& tx) {
    return tx.site_audit().UpdateAuditSiteCheck(*site);
  });
  if (!saved) return saved.error();
  if (!check->method) {
    core::Error error(ErrorCode::kAuditSiteNotVerified,
                      "Ownership of " + site->origin + " is not proven: " + check->problem);
    error.mutable_details()["siteId"] = site_id;
    error.mutable_details()["problem"] = check->problem;
    return error;
  }
  return json::value(SiteView(*site));
}

Result<json::value> RunDeleteAuditSite(OperationContext& context, const json::object& args) {
  const std::string site_id = RequiredString(args, "siteId");
  AuditEntry audit{"site_audit.site_delete", "audit_site", site_id, {}};
  auto deleted = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    auto gone = tx.site_audit().DeleteAuditSite(ProjectId(context), site_id);
    if (!gone) return gone.error();
    if (!*gone) return NotFound("site");
    return {};
  });
  if (!deleted) return deleted.error();
  return NoContent();
}

Result<json::value> RunListAuditRules(OperationContext&, const json::object&) {
  json::array rules;
  for (const sightline::site_audit::SiteAuditRule& rule : sightline::site_audit::SiteAuditRules()) {
    rules.push_back(json::object{{"id", rule.id},
                                 {"title", rule.title},
                                 {"severity", rule.severity},
                                 {"category", rule.category},
                                 {"description", rule.description}});
  }
  // The catalog of checks, always whole: its page is the last.
  return json::value(json::object{{"rules", std::move(rules)}, {"nextCursor", nullptr}});
}

#define SITE_PATH "/{orgSlug}/projects/{projectId}/site-audit/sites"

}  // namespace

const OperationSpec kListAuditSites{
    .name = "list_audit_sites",
    .summary = "List the project's audited sites",
    .description = "The sites ServiceAuditBot may crawl for this project, each with its "
                   "ownership token, the three ways to publish it, and whether it is proven.",
    .tag = "Site audit",
    .method = core::HttpMethod::kGet,
    .path = SITE_PATH,
    .permission = Permission::kSiteAuditView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunListAuditSites,
};

const OperationSpec kAddAuditSite{
    .name = "add_audit_site",
    .summary = "Add a site to audit",
    .description = "Adds the site of `url` (its origin: scheme, host and port) and gives it a "
                   "token. Publish the token as a file, a meta tag or a DNS TXT record "
                   "(`proofs`), then call `verify_audit_site`; ServiceAuditBot crawls only "
                   "proven sites. 409 AUDIT_003 when the project already has the site.",
    .tag = "Site audit",
    .method = core::HttpMethod::kPost,
    .path = SITE_PATH,
    .permission = Permission::kSiteAuditManage,
    .effect = Effect::kWrite,
    .credentials = kCallers,
    .success_status = 201,
    .error_statuses = "409",
    .run = RunAddAuditSite,
};

const OperationSpec kGetAuditSite{
    .name = "get_audit_site",
    .summary = "An audited site",
    .description = "The site, its token and proofs, and what the last ownership check found.",
    .tag = "Site audit",
    .method = core::HttpMethod::kGet,
    .path = SITE_PATH "/{siteId}",
    .permission = Permission::kSiteAuditView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunGetAuditSite,
};

const OperationSpec kVerifyAuditSite{
    .name = "verify_audit_site",
    .summary = "Check a site's ownership proof",
    .description = "Fetches the proof now, as ServiceAuditBot: the file "
                   "/.well-known/sightline-verification.txt, the home page's "
                   "`<meta name=\"sightline-site-verification\">`, or the host's DNS TXT record "
                   "`sightline-site-verification=TOKEN` (`method` tries one; by default each in "
                   "turn). The site once proven, stays proven. 409 AUDIT_001 says what each way "
                   "found when none proves it.",
    .tag = "Site audit",
    .method = core::HttpMethod::kPost,
    .path = SITE_PATH "/{siteId}/verify",
    .permission = Permission::kSiteAuditManage,
    .effect = Effect::kWrite,
    .credentials = kCallers,
    .error_statuses = "409 503",
    .run = RunVerifyAuditSite,
};

const OperationSpec kDeleteAuditSite{
    .name = "delete_audit_site",
    .summary = "Remove an audited site",
    .description = "Removes the site with its crawls, pages and issues. A running crawl stops "
                   "at its next page.",
    .tag = "Site audit",
    .method = core::HttpMethod::kDelete,
    .path = SITE_PATH "/{siteId}",
    .permission = Permission::kSiteAuditManage,
    .effect = Effect::kDestructive,
    .credentials = kCallers,
    .success_status = 204,
    .run = RunDeleteAuditSite,
};

const OperationSpec kListAuditRules{
    .name = "list_audit_rules",
    .summary = "The site-audit checks",
    .description = "Every check a crawl runs: its id (stored with each issue), severity, "
                   "category, title and what it means and how to fix it.",
    .tag = "Site audit",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/site-audit/rules",
    .permission = Permission::kSiteAuditView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunListAuditRules,
};

}  // namespace sightline::tools
