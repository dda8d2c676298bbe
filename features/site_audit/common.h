// What the site-audit operation files share (an internal header of features/site_audit/): who
// may call them, the project they act in, the service they need, and their schema fragments.
#pragma once

#include "site_audit/site_audit_service.h"
#include "tools/operation.h"
#include "tools/paging.h"

namespace sightline::tools::site_audit {

// Signed-in users and the project's private API keys.
inline constexpr auto kCallers =
    identity::CredentialKind::kUserSession | identity::CredentialKind::kPrivateApiKey;

// The dispatcher resolved the path's project before the operation runs.
inline const std::string& ProjectId(const OperationContext& context) {
  return context.project->id;
}

// The server's site-audit service; SYS_002 on a server built without one (tests).
inline core::Result<const sightline::site_audit::SiteAuditService*> Service(const OperationContext& context) {
  if (context.services.site_audit == nullptr) {
    return core::Error(core::ErrorCode::kUnavailable, "This server does not run site audits.");
  }
  return context.services.site_audit;
}

}  // namespace sightline::tools::site_audit

// The start of a project-scoped input schema: `SIGHTLINE_AUDIT_SCOPE R"(, "more"], …`.
#define SIGHTLINE_AUDIT_SCOPE R"({"type": "object", "required": ["orgSlug", "projectId")"
// An id argument.
#define SIGHTLINE_AUDIT_ID(name) \
  R"(")" name R"(": {"type": "string", "minLength": 1, "maxLength": 64})"
#define SIGHTLINE_AUDIT_PAGING(default_limit)                                                 \
  SIGHTLINE_PAGE_PROPERTIES(default_limit, "500") ", " SIGHTLINE_LEGACY_OFFSET_PROPERTY("1000000")

// A JSON object whose keys vary (an issue's evidence, which depends on its check).
#define SIGHTLINE_AUDIT_FREE_OBJECT R"({"type": "object", "additionalProperties": true})"
#define SIGHTLINE_AUDIT_INT R"({"type": "integer"})"
#define SIGHTLINE_AUDIT_STR R"({"type": "string"})"
#define SIGHTLINE_AUDIT_BOOL R"({"type": "boolean"})"
#define SIGHTLINE_AUDIT_STRS R"({"type": "array", "items": {"type": "string"}})"

// What the crawl read of a page (site_audit/page_facts.cpp): the answer, then for an internal HTML
// page its head, links, images and structured data; for a page robots.txt kept the crawl from,
// only the deciding rule.
#define SIGHTLINE_AUDIT_PAGE_DETAILS_SCHEMA                                                     \
  R"({"type": "object", "properties": {"error": {"type": "string", "description": "Why )"       \
  R"(the fetch failed."}, "responseMs": )" SIGHTLINE_AUDIT_INT R"(, "truncated": )"            \
  SIGHTLINE_AUDIT_BOOL R"(, "hsts": )" SIGHTLINE_AUDIT_STR R"(, "xRobotsTag": )"                \
  SIGHTLINE_AUDIT_STRS R"(, "canonicals": )" SIGHTLINE_AUDIT_STRS R"(, "redirectTo": )"        \
  SIGHTLINE_AUDIT_STR R"(, "html": )" SIGHTLINE_AUDIT_BOOL R"(, "notModified": {"type": )"      \
  R"("boolean", "description": "304: the previous crawl's facts stand."}, "titles": )"         \
  SIGHTLINE_AUDIT_STRS R"(, "descriptions": )" SIGHTLINE_AUDIT_STRS R"(, "h1": )"               \
  SIGHTLINE_AUDIT_STRS R"(, "lang": {"type": "string", "nullable": true}, "viewport": )"        \
  SIGHTLINE_AUDIT_BOOL R"(, "metaRobots": )" SIGHTLINE_AUDIT_STRS R"(, "hreflang": {"type": )"  \
  R"("array", "items": {"type": "object", "required": ["lang", "href"], "properties": )"      \
  R"({"lang": {"type": "string"}, "href": {"type": "string"}}}}, "images": )"                  \
  SIGHTLINE_AUDIT_INT R"(, "imagesWithoutAlt": )" SIGHTLINE_AUDIT_STRS R"(, "mixedContent": )"  \
  SIGHTLINE_AUDIT_STRS R"(, "structuredData": {"type": "object", "required": ["blocks", )"     \
  R"("items", "errors"], "properties": {"blocks": {"type": "integer"}, "items": {"type": )"    \
  R"("array", "items": {"type": "object", "required": ["type", "missingRequired", )"          \
  R"("missingRecommended"], "properties": {"type": {"type": "string"}, "missingRequired": )"   \
  SIGHTLINE_AUDIT_STRS R"(, "missingRecommended": )" SIGHTLINE_AUDIT_STRS R"(}}}, "errors": )"  \
  SIGHTLINE_AUDIT_STRS R"(}}, "textBytes": )" SIGHTLINE_AUDIT_INT R"(, "parseProblems": )"      \
  SIGHTLINE_AUDIT_STRS R"(, "links": )" SIGHTLINE_AUDIT_INT R"(, "emptyAnchors": )"             \
  SIGHTLINE_AUDIT_INT R"(, "robotsRule": )" SIGHTLINE_AUDIT_STR R"(, "robotsLine": )"          \
  SIGHTLINE_AUDIT_INT R"(, "robotsGroup": )" SIGHTLINE_AUDIT_STR "}}"

// robots.txt as the crawl read it (site_audit/site_survey.cpp DescribeRobots).
#define SIGHTLINE_AUDIT_ROBOTS_SCHEMA                                                           \
  R"({"type": "object", "properties": {"url": {"type": "string"}, "status": {"type": )"        \
  R"("integer", "description": "0 when unreachable."}, "redirects": )" SIGHTLINE_AUDIT_INT     \
  R"(, "error": )" SIGHTLINE_AUDIT_STR R"(, "policy": {"type": "string", "enum": ["rules", )"  \
  R"("allow_all", "disallow_all"]}, "fromCache": )" SIGHTLINE_AUDIT_BOOL R"(, "fetchedAt": )"  \
  R"({"type": "integer", "description": "Unix milliseconds."}, "body": )" SIGHTLINE_AUDIT_STR \
  R"(, "sitemaps": )" SIGHTLINE_AUDIT_STRS R"(, "crawlDelay": {"type": "number", )"            \
  R"("nullable": true}, "aiUsage": {"type": "array", "items": {"type": "object", )"           \
  R"("properties": {"directive": {"type": "string"}, "line": {"type": "integer"}, "scope": )"  \
  R"({"type": "string"}, "group": {"type": "string"}, "preferences": {"type": "object", )"     \
  R"("description": "Each key's yes (true) or no (false); null when the value is not one.", )" \
  R"("additionalProperties": {"type": "boolean", "nullable": true}}, "problems": )"            \
  SIGHTLINE_AUDIT_STRS R"(}}}, "aiCrawlers": {"type": "array", "items": {"type": "object", )"  \
  R"("properties": {"name": {"type": "string"}, "purpose": {"type": "string"}, "access": )"    \
  R"({"type": "string", "enum": ["allowed", "partial", "disallowed"]}, "rule": {"type": )"     \
  R"("string"}, "line": {"type": "integer"}, "group": {"type": "string"}}}}, )"                \
  R"("contradictions": {"type": "array", "items": {"type": "object", "properties": {"key": )"  \
  R"({"type": "string"}, "message": {"type": "string"}, "lines": {"type": "array", "items": )"  \
  R"({"type": "integer"}}, "crawlers": )" SIGHTLINE_AUDIT_STRS "}}}}}"

// What the crawl read of the site before its pages (site_audit/site_survey.cpp SurveySite).
#define SIGHTLINE_AUDIT_SITE_SURVEY_SCHEMA                                                      \
  R"({"type": "object", "description": "Empty until the crawl has read the site.", )"         \
  R"("properties": {"robots": )" SIGHTLINE_AUDIT_ROBOTS_SCHEMA R"(, "sitemaps": {"type": )"    \
  R"("object", "properties": {"files": {"type": "array", "items": {"type": "object", )"       \
  R"("properties": {"url": {"type": "string"}, "status": {"type": "integer"}, "kind": )"       \
  R"({"type": "string", "enum": ["urlset", "index", "text", "invalid", "unreachable"]}, )"     \
  R"("listedInRobots": {"type": "boolean"}, "urls": {"type": "integer"}, "problems": )"        \
  SIGHTLINE_AUDIT_STRS R"(}}}, "urls": {"type": "integer"}, "truncated": {"type": )"           \
  R"("boolean"}}}, "llmsTxt": {"type": "object", "properties": {"url": {"type": "string"}, )"   \
  R"("blockedByRobots": {"type": "boolean", "description": "robots.txt keeps the crawl )"      \
  R"(from it; then only url is given."}, "status": {"type": "integer"}, "present": {"type": )"  \
  R"("boolean"}, "wellFormed": {"type": "boolean"}, "title": {"type": "string"}, )"            \
  R"("sections": )" SIGHTLINE_AUDIT_STRS R"(, "links": {"type": "integer"}, "problems": )"      \
  SIGHTLINE_AUDIT_STRS R"(}}, "https": {"type": "object", "required": ["startUrlHttps"], )"    \
  R"("properties": {"startUrlHttps": {"type": "boolean"}, "httpStatus": {"type": )"            \
  R"("integer"}, "httpRedirectsToHttps": {"type": "boolean"}}}}})"

#define SIGHTLINE_AUDIT_PROOFS_SCHEMA                                                          \
  R"({"type": "object", "description": "The three ways to prove ownership.", "properties": {)"  \
  R"("file": {"type": "object", "properties": {"url": {"type": "string"}, "content": )"        \
  R"({"type": "string"}}}, "meta": {"type": "object", "properties": {"tag": {"type":)"          \
  R"( "string"}}}, "dns": {"type": "object", "properties": {"name": {"type": "string"},)"       \
  R"( "type": {"type": "string"}, "value": {"type": "string"}}}}})"

#define SIGHTLINE_AUDIT_PAGE_COUNTS_PROPERTIES                                                 \
  R"("total": {"type": "integer"}, "done": {"type": "integer"}, "blocked": {"type":)"          \
  R"( "integer"}, "error": {"type": "integer"}, "skipped": {"type": "integer"})"

#define SIGHTLINE_AUDIT_COUNTS_SCHEMA                                                          \
  R"({"type": "object", "nullable": true, "description": "Once finished: issues in all, by)"   \
  R"( severity, new, still open and fixed since the previous crawl, and pages.",)"             \
  R"( "properties": {"issues": {"type": "integer"}, "bySeverity": {"type": "object",)"         \
  R"( "properties": {"error": {"type": "integer"}, "warning": {"type": "integer"},)"           \
  R"( "notice": {"type": "integer"}}}, "new": {"type": "integer"}, "open": {"type":)"           \
  R"( "integer"}, "fixed": {"type": "integer"}, "pages": {"type": "object", "properties": {)"   \
  SIGHTLINE_AUDIT_PAGE_COUNTS_PROPERTIES "}}}}"

#define SIGHTLINE_AUDIT_SITE_SCHEMA                                                            \
  R"({"type": "object", "required": ["id", "origin", "token", "verified", "proofs"],)"         \
  R"( "properties": {"id": {"type": "string"}, "origin": {"type": "string"},)"                 \
  R"( "token": {"type": "string"}, "verified": {"type": "boolean"},)"                          \
  R"( "verifiedMethod": {"type": "string", "nullable": true},)"                                \
  R"( "verifiedAt": {"type": "string", "format": "date-time", "nullable": true},)"             \
  R"( "checkedAt": {"type": "string", "format": "date-time", "nullable": true},)"              \
  R"( "checkProblem": {"type": "string"},)"                                                    \
  R"( "createdAt": {"type": "string", "format": "date-time"},)"                                \
  R"( "proofs": )" SIGHTLINE_AUDIT_PROOFS_SCHEMA "}}"

#define SIGHTLINE_AUDIT_CRAWL_SCHEMA                                                           \
  R"({"type": "object", "required": ["id", "siteId", "startUrl", "status", "limits",)"          \
  R"( "progress"], "properties": {"id": {"type": "string"}, "siteId": {"type": "string"},)"    \
  R"( "startUrl": {"type": "string"}, "status": {"type": "string", "enum": ["queued",)"        \
  R"( "running", "completed", "failed", "cancelled"]}, "limits": {"type": "object",)"          \
  R"( "properties": {"maxPages": {"type": "integer"}, "maxDepth": {"type": "integer"},)"       \
  R"( "maxDurationSeconds": {"type": "integer"}, "concurrency": {"type": "integer"},)"         \
  R"( "delayMs": {"type": "integer"}}},)"                                                      \
  R"( "createdAt": {"type": "string", "format": "date-time"},)"                                \
  R"( "startedAt": {"type": "string", "format": "date-time", "nullable": true},)"              \
  R"( "finishedAt": {"type": "string", "format": "date-time", "nullable": true},)"             \
  R"( "stopReason": {"type": "string"}, "error": {"type": "string"},)"                         \
  R"( "cancelRequested": {"type": "boolean"},)"                                                \
  R"( "previousCrawlId": {"type": "string", "nullable": true},)"                               \
  R"( "progress": {"type": "object", "properties": {"queued": {"type": "integer"}, )"         \
  SIGHTLINE_AUDIT_PAGE_COUNTS_PROPERTIES "}}, \"counts\": " SIGHTLINE_AUDIT_COUNTS_SCHEMA "}}"

#define SIGHTLINE_AUDIT_ISSUE_SCHEMA                                                           \
  R"({"type": "object", "required": ["ruleId", "severity", "url", "evidence", "state"],)"      \
  R"( "properties": {"ruleId": {"type": "string"}, "title": {"type": "string"},)"              \
  R"( "severity": {"type": "string", "enum": ["error", "warning", "notice"]},)"                \
  R"( "url": {"type": "string"}, "evidence": )" SIGHTLINE_AUDIT_FREE_OBJECT ","               \
  R"( "state": {"type": "string", "enum": ["new", "open", "fixed"]}}})"

#define SIGHTLINE_AUDIT_PAGE_PROPERTIES                                                        \
  R"("url": {"type": "string"},)"                                                              \
  R"( "depth": {"type": "integer"}, "source": {"type": "string"},)"                            \
  R"( "internal": {"type": "boolean"}, "inSitemap": {"type": "boolean"},)"                     \
  R"( "state": {"type": "string"}, "httpStatus": {"type": "integer", "nullable": true},)"      \
  R"( "contentType": {"type": "string"}, "bytes": {"type": "integer"},)"                       \
  R"( "ttfbMs": {"type": "integer"}, "title": {"type": "string"},)"                            \
  R"( "indexable": {"type": "boolean"},)"                                                      \
  R"( "fetchedAt": {"type": "string", "format": "date-time", "nullable": true})"

#define SIGHTLINE_AUDIT_PAGE_SCHEMA                                                            \
  R"({"type": "object", "required": ["url", "state"], "properties": {)"                        \
  SIGHTLINE_AUDIT_PAGE_PROPERTIES "}}"

#define SIGHTLINE_AUDIT_LINK_SCHEMA                                                            \
  R"({"type": "object", "properties": {"from": {"type": "string"}, "to": {"type": "string"},)" \
  R"( "anchor": {"type": "string"}, "nofollow": {"type": "boolean"}}})"
