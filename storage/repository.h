// Data access for every record kind, written once over SqlSession and run unchanged on SQLite
// and PostgreSQL. A Repository lives for one transaction (see Store::Read / Store::Write) and
// is used by one thread. Lookups return nullopt for "not there"; errors are storage failures,
// or ErrorCode::kConflict for a unique-key clash.
#pragma once

#include "core/result.h"
#include "storage/records.h"
#include "storage/sql.h"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace sightline::storage {

class Repository {
 public:
  explicit Repository(SqlSession& session) : session_(session) {}

  core::Result<void> InsertUser(const UserRecord& user);
  core::Result<std::optional<UserRecord>> FindUserById(std::string_view id);
  core::Result<std::optional<UserRecord>> FindUserByEmail(std::string_view email);

  core::Result<void> InsertOrganization(const OrganizationRecord& org);
  core::Result<std::optional<OrganizationRecord>> FindOrganizationBySlug(std::string_view slug);
  core::Result<std::optional<OrganizationRecord>> FindOrganizationById(std::string_view id);

  // Inserts or replaces the member's role.
  core::Result<void> PutMembership(const MembershipRecord& membership);
  core::Result<std::optional<MembershipRecord>> FindMembership(std::string_view organization_id,
                                                               std::string_view user_id);

  core::Result<void> InsertProject(const ProjectRecord& project);
  core::Result<std::optional<ProjectRecord>> FindProject(std::string_view project_id);
  // The organization with `slug` and, when it belongs to that organization, the project with
  // `project_id`, in one query.
  core::Result<std::pair<std::optional<OrganizationRecord>, std::optional<ProjectRecord>>>
  FindOrganizationAndProject(std::string_view slug, std::string_view project_id);
  // Writes name, settings and updated_at of an existing project; false when it is gone.
  core::Result<bool> UpdateProject(const ProjectRecord& project);
  core::Result<std::optional<ProjectRecord>> FindProjectByName(std::string_view organization_id,
                                                               std::string_view name);

  core::Result<void> InsertApiKey(const ApiKeyRecord& key);
  core::Result<std::optional<ApiKeyRecord>> FindApiKeyByHash(std::string_view secret_hash);
  core::Result<std::optional<CredentialGrant>> FindCredentialGrant(std::string_view secret_hash);
  core::Result<std::vector<ApiKeyRecord>> ListApiKeys(std::string_view project_id);
  // Marks the key revoked at `at`; returns false when it was unknown or already revoked.
  core::Result<bool> RevokeApiKey(std::string_view key_id, std::int64_t at);

  core::Result<void> InsertEvents(std::span<const EventRecord> events);
  // Newest first (occurred_at, then id, descending).
  core::Result<std::vector<EventRecord>> ListRecentEvents(std::string_view project_id,
                                                          std::size_t limit);
  core::Result<void> InsertBotRequests(std::span<const BotRequestRecord> rows);
  core::Result<std::vector<BotRequestRecord>> ListRecentBotRequests(std::string_view project_id,
                                                                    std::size_t limit);

 private:
  SqlSession& session_;
};

}  // namespace sightline::storage
