#include "identity/bootstrap.h"

#include "core/crypto.h"
#include "core/text.h"
#include "identity/api_keys.h"
#include "identity/passwords.h"
#include "storage/account_repository.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace sightline::identity {
namespace {

using core::Error;
using core::ErrorCode;
using core::Result;
using storage::Transaction;

constexpr std::string_view kBootstrapKeyName = "bootstrap";
constexpr std::size_t kMaxSlugLength = 48;

// First path segments the server routes itself, under /api (the REST routes) and at the root
// (the dashboard's own views and files); an organization may not take them as a slug.
constexpr std::array<std::string_view, 28> kReservedSlugs = {
    "api",          "auth",        "users",         "bots",          "sdk",
    "ingest",       "mcp",         "public",        "oauth",         "admin",
    "healthz",      "openapi.json", "openapi.yaml", ".well-known",   "web-analytics",
    "static",       "docs",        "v2",            "organizations", "invitations",
    "authorize",    "assets",      "login",         "account",       "invite",
    "index.html",   "settings",    "cli"};


Result<storage::UserRecord> FindOrCreateUser(Transaction& tx, const BootstrapRequest& request,
                                             std::int64_t now, bool* created) {
  const std::string email = core::ToLowerAscii(request.email);
  auto existing = tx.accounts().FindUserByEmail(email);
  if (!existing) return existing.error();
  if (*existing) return std::move(**existing);
  auto hash = HashPassword(request.password);
  if (!hash) return hash.error();
  storage::UserRecord user{core::NewUuidV4(), email, *hash, "", "", now, now};
  auto inserted = tx.accounts().InsertUser(user);
  if (!inserted) return inserted.error();
  *created = true;
  return user;
}

Result<storage::OrganizationRecord> FindOrCreateOrganization(Transaction& tx,
                                                             const BootstrapRequest& request,
                                                             const std::string& user_id,
                                                             std::int64_t now) {
  const std::string slug = SlugFor(request.organization_name);
  auto existing = tx.accounts().FindOrganizationBySlug(slug);
  if (!existing) return existing.error();
  if (*existing) {
    auto membership = tx.accounts().FindMembership((*existing)->id, user_id);
    if (!membership) return membership.error();
    if (!*membership || (*membership)->role != "owner") {
      return Error(ErrorCode::kConflict,
                   "An organization with the slug '" + slug +
                       "' exists and this user is not its owner.");
    }
    return std::move(**existing);
  }
  storage::OrganizationRecord org{core::NewUuidV4(), slug, request.organization_name, false, now,
                                  now};
  auto inserted = tx.accounts().InsertOrganization(org);
  if (!inserted) return inserted.error();
  auto member = tx.accounts().PutMembership({org.id, user_id, "owner", now});
  if (!member) return member.error();
  return org;
}

Result<storage::ProjectRecord> FindOrCreateProject(Transaction& tx,
                                                   const std::string& organization_id,
                                                   const std::string& name, std::int64_t now) {
  auto existing = tx.accounts().FindProjectByName(organization_id, name);
  if (!existing) return existing.error();
  if (*existing) return std::move(**existing);
  storage::ProjectRecord project;
  project.id = core::NewUuidV4();
  project.organization_id = organization_id;
  project.name = name;
  project.created_at = project.updated_at = now;
  auto inserted = tx.accounts().InsertProject(project);
  if (!inserted) return inserted.error();
  return project;
}

Result<std::string> IssueKey(Transaction& tx, const storage::ProjectRecord& project,
                             storage::KeyKind kind, const std::string& user_id,
                             std::int64_t now) {
  NewKeySecret secret = GenerateKey(kind);
  const storage::ApiKeyRecord key =
      NewKeyRecord(project, kind, secret, std::string(kBootstrapKeyName), user_id, now);
  auto inserted = tx.accounts().InsertApiKey(key);
  if (!inserted) return inserted.error();
  return secret.secret;
}

Result<void> RevokeEarlierBootstrapKeys(Transaction& tx, const std::string& project_id,
                                        std::int64_t now) {
  auto keys = tx.accounts().ListApiKeys(project_id);
  if (!keys) return keys.error();
  for (const auto& key : *keys) {
    if (key.name != kBootstrapKeyName || key.revoked_at) continue;
    auto revoked = tx.accounts().RevokeApiKey(key.id, now);
    if (!revoked) return revoked.error();
  }
  return {};
}

Result<void> ValidateRequest(const BootstrapRequest& request) {
  if (!IsValidEmail(request.email)) return Error::Invalid("email", "A valid email is required.");
  if (request.organization_name.empty() || request.organization_name.size() > 200) {
    return Error::Invalid("org", "The organization name must be 1 to 200 characters.");
  }
  if (request.project_name.empty() || request.project_name.size() > 200) {
    return Error::Invalid("project", "The project name must be 1 to 200 characters.");
  }
  return {};
}

}  // namespace

bool IsValidEmail(std::string_view email) {
  const auto at = email.find('@');
  return email.size() <= 254 && at != std::string_view::npos && at > 0 &&
         email.find('.', at) != std::string_view::npos && email.back() != '.' &&
         email.find_first_of(" \t\r\n") == std::string_view::npos;
}

bool IsReservedSlug(std::string_view slug) {
  return std::find(kReservedSlugs.begin(), kReservedSlugs.end(), slug) != kReservedSlugs.end();
}

std::string SlugFor(std::string_view organization_name) {
  std::string slug;
  for (unsigned char c : organization_name) {
    if (std::isalnum(c)) {
      slug.push_back(static_cast<char>(std::tolower(c)));
    } else if (!slug.empty() && slug.back() != '-') {
      slug.push_back('-');
    }
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  if (slug.size() > kMaxSlugLength) slug.resize(kMaxSlugLength);
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  if (slug.empty()) slug = "org";
  if (IsReservedSlug(slug)) slug += "-org";
  return slug;
}

Result<BootstrapResult> Bootstrap(storage::Store& store, const core::Clock& clock,
                                  const BootstrapRequest& request) {
  auto valid = ValidateRequest(request);
  if (!valid) return valid.error();
  const std::int64_t now = clock.NowMillis();
  return store.Write([&](Transaction& tx) -> Result<BootstrapResult> {
    BootstrapResult result;
    auto user = FindOrCreateUser(tx, request, now, &result.user_created);
    if (!user) return user.error();
    auto org = FindOrCreateOrganization(tx, request, user->id, now);
    if (!org) return org.error();
    auto project = FindOrCreateProject(tx, org->id, request.project_name, now);
    if (!project) return project.error();
    auto revoked = RevokeEarlierBootstrapKeys(tx, project->id, now);
    if (!revoked) return revoked.error();
    auto sdk = IssueKey(tx, *project, storage::KeyKind::kSdk, user->id, now);
    if (!sdk) return sdk.error();
    auto private_key = IssueKey(tx, *project, storage::KeyKind::kPrivate, user->id, now);
    if (!private_key) return private_key.error();
    result.user_id = user->id;
    result.organization_slug = org->slug;
    result.project_id = project->id;
    result.sdk_key = std::move(*sdk);
    result.private_api_key = std::move(*private_key);
    return result;
  });
}

}  // namespace sightline::identity
