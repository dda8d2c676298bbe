// The site audit's rule catalog as data: every check RunChecks (site_audit/checks.h) can report, with
// its severity, category and the words shown to a site owner. One explicit, sorted table (cf. the
// operation registry), so `GET /audit-rules`, the docs and the tests all read the same rows.
// Constant data; thread-safe.
#pragma once

#include <span>
#include <string_view>

namespace sightline::site_audit {

struct SiteAuditRule {
  std::string_view id;           // "category/name", stable: stored with each issue
  std::string_view severity;     // error | warning | notice
  std::string_view category;     // the part of `id` before the slash
  std::string_view title;        // a short label
  std::string_view description;  // what it means and how to fix it
};

// Every rule, sorted by id.
std::span<const SiteAuditRule> SiteAuditRules();

// The rule with `id`; nullptr when there is none.
const SiteAuditRule* FindAuditRule(std::string_view id);

}  // namespace sightline::site_audit
