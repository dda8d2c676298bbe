// Storage conformance: every test body runs unchanged against each backend (SQLite, PostgreSQL),
// plus a LevelDB-style randomized test that replays seeded operations against the store and an
// in-memory model and compares every answer. The fixture is in store_fixture.h (how to point it
// at PostgreSQL is written there); SIGHTLINE_TEST_SEED=<n> replays the randomized test with
// another seed.
#include "store_fixture.h"
#include "storage/account_repository.h"
#include "storage/agent_repository.h"
#include "storage/event_repository.h"
#include "storage/oauth_repository.h"
#include "storage/report_repository.h"
#include "storage/second_factor_repository.h"

#include <latch>
#include <map>
#include <mutex>
#include <numeric>
#include <random>
#include <regex>
#include <set>
#include <thread>
#include <tuple>

namespace sightline::storage {
namespace {

using namespace conformance;  // NOLINT: the fixture and its helpers

using Footprint = std::vector<std::size_t>;
const Footprint kFullOrganization = {1, 1, 1, 1, 2};
const Footprint kFullProject = {1, 1, 1, 1, 2};  // marks: an events hour, a bots hour

INSTANTIATE_TEST_SUITE_P(Sqlite, StoreConformance, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, StoreConformance, testing::Values(Backend::kPostgres));

// ---- Schema and identity rows --------------------------------------------------------------

TEST_P(StoreConformance, MigrateIsIdempotent) {
  auto again = store().Migrate();
  ASSERT_TRUE(Ok(again));
  EXPECT_EQ(*again, 0);
  auto version = store().SchemaVersion();
  ASSERT_TRUE(Ok(version));
  EXPECT_EQ(*version, Store::LatestSchemaVersion());
}

TEST_P(StoreConformance, UsersInsertFindAndRejectDuplicates) {
  const UserRecord user = MakeUser("u-1", "ada@example.com");
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.accounts().InsertUser(user); })));

  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindUserById("u-1"); }),
             std::optional(user));
  ExpectSame(
      ReadOk([](Transaction& tx) { return tx.accounts().FindUserByEmail("ada@example.com"); }),
      std::optional(user));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindUserById("u-2"); }));
  EXPECT_FALSE(
      ReadOk([](Transaction& tx) { return tx.accounts().FindUserByEmail("bob@example.com"); }));

  const UserRecord same_email = MakeUser("u-2", "ada@example.com");
  EXPECT_TRUE(IsError(Write([&](Transaction& tx) { return tx.accounts().InsertUser(same_email); }),
                      ErrorCode::kConflict));
  const UserRecord same_id = MakeUser("u-1", "other@example.com");
  EXPECT_TRUE(IsError(Write([&](Transaction& tx) { return tx.accounts().InsertUser(same_id); }),
                      ErrorCode::kConflict));
}

TEST_P(StoreConformance, OrganizationSlugIsUnique) {
  OrganizationRecord org = MakeOrg("o-1", "acme");
  org.require_two_factor = true;
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.accounts().InsertOrganization(org); })));
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindOrganizationBySlug("acme"); }),
             std::optional(org));
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindOrganizationById("o-1"); }),
             std::optional(org));

  const OrganizationRecord clash = MakeOrg("o-2", "acme");
  EXPECT_TRUE(
      IsError(Write([&](Transaction& tx) { return tx.accounts().InsertOrganization(clash); }),
              ErrorCode::kConflict));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindOrganizationById("o-2"); }));
}

TEST_P(StoreConformance, PutMembershipUpsertsTheRole) {
  SeedProject();
  ASSERT_TRUE(Ok(Write([](Transaction& tx) {
    return tx.accounts().PutMembership({"o-1", "u-1", "analyst", 1000});
  })));
  ASSERT_TRUE(Ok(Write([](Transaction& tx) {
    return tx.accounts().PutMembership({"o-1", "u-1", "admin", 5000});
  })));

  // The upsert changes the role only; the membership keeps its creation time.
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindMembership("o-1", "u-1"); }),
             std::optional(MembershipRecord{"o-1", "u-1", "admin", 1000}));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindMembership("o-1", "u-2"); }));
}

TEST_P(StoreConformance, ProjectsKeepDefaultsAndAreFoundByName) {
  SeedProject();
  auto found = Read([](Transaction& tx) { return tx.accounts().FindProject("p-1"); });
  ASSERT_TRUE(Ok(found));
  ASSERT_TRUE(found->has_value());
  const ProjectRecord& project = **found;
  EXPECT_EQ(project.reporting_timezone, "UTC");
  EXPECT_TRUE(project.bot_detection);
  EXPECT_TRUE(project.event_storage);
  EXPECT_FALSE(project.ip_logging);
  ExpectSame(*found, std::optional(MakeProject("p-1", "o-1", "Website")));

  ExpectSame(
      ReadOk([](Transaction& tx) { return tx.accounts().FindProjectByName("o-1", "Website"); }),
      *found);
  EXPECT_FALSE(
      ReadOk([](Transaction& tx) { return tx.accounts().FindProjectByName("o-1", "Shop"); }));
  EXPECT_FALSE(
      ReadOk([](Transaction& tx) { return tx.accounts().FindProjectByName("o-2", "Website"); }));
}

TEST_P(StoreConformance, ApiKeysInsertFindListAndRevokeOnce) {
  SeedProject();
  const ProjectRecord project = MakeProject("p-1", "o-1", "Website");
  ApiKeyRecord late = MakeKey("k-1", project, "hash-late", 3000);
  late.created_by = "u-1";
  const ApiKeyRecord early = MakeKey("k-2", project, "hash-early", 2000);
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().InsertApiKey(late); !r) return r;
    return tx.accounts().InsertApiKey(early);
  })));

  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindApiKeyByHash("hash-late"); }),
             std::optional(late));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindApiKeyByHash("hash-none"); }));
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().ListApiKeys("p-1"); }),
             std::vector{early, late});

  const ApiKeyRecord clash = MakeKey("k-3", project, "hash-late", 4000);
  EXPECT_TRUE(IsError(Write([&](Transaction& tx) { return tx.accounts().InsertApiKey(clash); }),
                      ErrorCode::kConflict));

  auto revoke = [&](std::int64_t at) {
    return Write([&](Transaction& tx) { return tx.accounts().RevokeApiKey("k-1", at); });
  };
  EXPECT_TRUE(revoke(5000).value());
  EXPECT_FALSE(revoke(6000).value());
  EXPECT_FALSE(
      Write([](Transaction& tx) { return tx.accounts().RevokeApiKey("k-9", 7000); }).value());
  auto revoked =
      ReadOk([](Transaction& tx) { return tx.accounts().FindApiKeyByHash("hash-late"); });
  ASSERT_TRUE(revoked.has_value());
  EXPECT_EQ(revoked->revoked_at, std::optional<std::int64_t>(5000));
}

TEST_P(StoreConformance, CredentialGrantCarriesTheCreatorsLiveRole) {
  SeedProject();
  const ProjectRecord project = MakeProject("p-1", "o-1", "Website");
  ApiKeyRecord key = MakeKey("k-1", project, "hash-1", 3000);
  key.created_by = "u-1";
  const ApiKeyRecord orphan = MakeKey("k-2", project, "hash-2", 4000);  // no creator
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().InsertApiKey(key); !r) return r;
    if (auto r = tx.accounts().InsertApiKey(orphan); !r) return r;
    return tx.accounts().PutMembership({"o-1", "u-1", "analyst", 1000});
  })));
  auto grant = ReadOk([](Transaction& tx) { return tx.accounts().FindCredentialGrant("hash-1"); });
  ASSERT_TRUE(grant.has_value());
  ExpectSame(std::optional(grant->key), std::optional(key));
  EXPECT_EQ(grant->creator_role, std::optional<std::string>("analyst"));

  ASSERT_TRUE(Ok(Write([](Transaction& tx) {
    return tx.accounts().PutMembership({"o-1", "u-1", "admin", 1000});
  })));
  EXPECT_EQ(ReadOk([](Transaction& tx) {
              return tx.accounts().FindCredentialGrant("hash-1");
            })->creator_role,
            std::optional<std::string>("admin"));
  EXPECT_EQ(ReadOk([](Transaction& tx) {
              return tx.accounts().FindCredentialGrant("hash-2");
            })->creator_role,
            std::nullopt);
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindCredentialGrant("hash-9"); }));
}

TEST_P(StoreConformance, OrganizationAndProjectAreFoundTogetherOnlyWhenTheyBelong) {
  SeedProject();
  ASSERT_TRUE(Ok(Write([](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().InsertOrganization(MakeOrg("o-2", "globex")); !r) return r;
    return tx.accounts().InsertProject(MakeProject("p-2", "o-2", "Shop"));
  })));
  auto both = ReadOk(
      [](Transaction& tx) { return tx.accounts().FindOrganizationAndProject("acme", "p-1"); });
  ASSERT_TRUE(both.first && both.second);
  EXPECT_EQ(both.first->id, "o-1");
  ExpectSame(both.second, std::optional(MakeProject("p-1", "o-1", "Website")));
  auto foreign = ReadOk(
      [](Transaction& tx) { return tx.accounts().FindOrganizationAndProject("acme", "p-2"); });
  EXPECT_TRUE(foreign.first.has_value());
  EXPECT_FALSE(foreign.second.has_value()) << "a project of another organization must not match";
  auto none = ReadOk(
      [](Transaction& tx) { return tx.accounts().FindOrganizationAndProject("nope", "p-1"); });
  EXPECT_FALSE(none.first.has_value());
  EXPECT_FALSE(none.second.has_value());
}

TEST_P(StoreConformance, UpdateProjectWritesSettings) {
  SeedProject();
  ProjectRecord changed = MakeProject("p-1", "o-1", "Renamed");
  changed.reporting_timezone = "Asia/Kolkata";
  changed.bot_detection = false;
  changed.event_storage = false;
  changed.ip_logging = true;
  changed.updated_at = 9000;
  EXPECT_TRUE(Write([&](Transaction& tx) { return tx.accounts().UpdateProject(changed); }).value());
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindProject("p-1"); }),
             std::optional(changed));
  changed.id = "p-missing";
  EXPECT_FALSE(
      Write([&](Transaction& tx) { return tx.accounts().UpdateProject(changed); }).value());
}

TEST_P(StoreConformance, UserNamesAndTwoFactorFlagRoundTrip) {
  UserRecord user = MakeUser("u-1", "ada@example.com");
  user.two_factor_enabled = true;
  WriteOk([&](Transaction& tx) { return tx.accounts().InsertUser(user); });
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindUserById("u-1"); }),
             std::optional(user));

  user.first_name = "Grace";
  user.last_name = "Hopper ✓";
  user.updated_at = 3000;
  EXPECT_TRUE(WriteOk([&](Transaction& tx) { return tx.accounts().UpdateUserNames(user); }));
  EXPECT_TRUE(WriteOk(
      [](Transaction& tx) { return tx.accounts().UpdateUserTwoFactor("u-1", false, 4000); }));
  user.two_factor_enabled = false;
  user.updated_at = 4000;
  ExpectSame(
      ReadOk([](Transaction& tx) { return tx.accounts().FindUserByEmail("ada@example.com"); }),
      std::optional(user));
  EXPECT_TRUE(WriteOk(
      [](Transaction& tx) { return tx.accounts().UpdateUserTwoFactor("u-1", true, 5000); }));
  EXPECT_TRUE(ReadOk([](Transaction& tx) {
                return tx.accounts().FindUserById("u-1");
              })->two_factor_enabled);

  user.id = "u-missing";
  EXPECT_FALSE(WriteOk([&](Transaction& tx) { return tx.accounts().UpdateUserNames(user); }));
  EXPECT_FALSE(
      WriteOk([](Transaction& tx) { return tx.accounts().UpdateUserTwoFactor("u-9", true, 1); }));
}

TEST_P(StoreConformance, UpdateOrganizationKeepsTheSlug) {
  WriteOk([](Transaction& tx) { return tx.accounts().InsertOrganization(MakeOrg("o-1", "acme")); });
  OrganizationRecord changed = MakeOrg("o-1", "ignored-slug");
  changed.name = "Acme Renamed";
  changed.require_two_factor = true;
  changed.updated_at = 7000;
  EXPECT_TRUE(WriteOk([&](Transaction& tx) { return tx.accounts().UpdateOrganization(changed); }));
  changed.slug = "acme";
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindOrganizationById("o-1"); }),
             std::optional(changed));
  changed.id = "o-missing";
  EXPECT_FALSE(WriteOk([&](Transaction& tx) { return tx.accounts().UpdateOrganization(changed); }));
}

TEST_P(StoreConformance, OrganizationsOfUserAreOrderedByNameThenIdWithRoles) {
  std::vector<OrganizationRecord> orgs = {MakeOrg("o-3", "c"), MakeOrg("o-2", "b"),
                                          MakeOrg("o-1", "a"), MakeOrg("o-4", "d")};
  orgs[0].name = "Beta";
  orgs[1].name = orgs[2].name = "Alpha";  // equal names: ordered by id
  orgs[3].name = "Aardvark";              // u-1 is not a member
  WriteOk([&](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().InsertUser(MakeUser("u-1", "one@example.com")); !r) return r;
    if (auto r = tx.accounts().InsertUser(MakeUser("u-2", "two@example.com")); !r) return r;
    for (const auto& org : orgs) {
      if (auto r = tx.accounts().InsertOrganization(org); !r) return r;
    }
    if (auto r = tx.accounts().PutMembership({"o-3", "u-1", "owner", 1000}); !r) return r;
    if (auto r = tx.accounts().PutMembership({"o-2", "u-1", "analyst", 1000}); !r) return r;
    if (auto r = tx.accounts().PutMembership({"o-1", "u-1", "admin", 1000}); !r) return r;
    return tx.accounts().PutMembership({"o-4", "u-2", "owner", 1000});
  });
  ExpectSame(
      ReadOk([](Transaction& tx) { return tx.accounts().ListOrganizationsOfUser("u-1"); }),
      std::vector<MembershipOfUser>{{orgs[2], "admin"}, {orgs[1], "analyst"}, {orgs[0], "owner"}});
  EXPECT_TRUE(
      ReadOk([](Transaction& tx) { return tx.accounts().ListOrganizationsOfUser("u-9"); }).empty());
}

TEST_P(StoreConformance, MembersAreListedCountedAndDeleted) {
  std::vector<UserRecord> users;
  for (int i = 1; i <= 4; ++i) {
    users.push_back(MakeUser("u-" + std::to_string(i), std::to_string(i) + "@example.com"));
  }
  users[2].two_factor_enabled = true;
  WriteOk([&](Transaction& tx) -> Result<void> {
    for (const auto& user : users) {
      if (auto r = tx.accounts().InsertUser(user); !r) return r;
    }
    if (auto r = tx.accounts().InsertOrganization(MakeOrg("o-1", "acme")); !r) return r;
    if (auto r = tx.accounts().InsertOrganization(MakeOrg("o-2", "globex")); !r) return r;
    if (auto r = tx.accounts().PutMembership({"o-1", "u-3", "owner", 2000}); !r) return r;
    if (auto r = tx.accounts().PutMembership({"o-1", "u-2", "owner", 1000}); !r) return r;
    if (auto r = tx.accounts().PutMembership({"o-1", "u-1", "analyst", 2000}); !r) return r;
    return tx.accounts().PutMembership({"o-2", "u-4", "owner", 500});
  });
  // joined_at, then user id.
  ExpectSame(
      ReadOk([](Transaction& tx) { return tx.accounts().ListMembers("o-1"); }),
      std::vector<MemberRecord>{
          {users[1], "owner", 1000}, {users[0], "analyst", 2000}, {users[2], "owner", 2000}});
  auto count = [&](const char* org, const char* role) {
    return ReadOk([&](Transaction& tx) { return tx.accounts().CountMembersWithRole(org, role); });
  };
  EXPECT_EQ(count("o-1", "owner"), 2);
  EXPECT_EQ(count("o-1", "analyst"), 1);
  EXPECT_EQ(count("o-1", "support"), 0);
  EXPECT_EQ(count("o-2", "owner"), 1);

  EXPECT_TRUE(
      WriteOk([](Transaction& tx) { return tx.accounts().DeleteMembership("o-1", "u-3"); }));
  EXPECT_FALSE(
      WriteOk([](Transaction& tx) { return tx.accounts().DeleteMembership("o-1", "u-3"); }));
  EXPECT_FALSE(
      WriteOk([](Transaction& tx) { return tx.accounts().DeleteMembership("o-1", "u-4"); }));
  EXPECT_EQ(count("o-1", "owner"), 1);
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.accounts().ListMembers("o-1"); }).size(), 2u);
  EXPECT_TRUE(
      ReadOk([](Transaction& tx) { return tx.accounts().FindUserById("u-3"); }).has_value());
}

TEST_P(StoreConformance, ProjectsAreListedByCreationThenId) {
  SeedProject();  // p-1 "Website" at 1000 in o-1
  const std::vector<ProjectRecord> more = {MakeProject("p-3", "o-1", "Shop", 500),
                                           MakeProject("p-0", "o-1", "Blog", 1000),
                                           MakeProject("p-2", "o-1", "Docs", 3000)};
  WriteOk([&](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().InsertOrganization(MakeOrg("o-2", "globex")); !r) return r;
    if (auto r = tx.accounts().InsertProject(MakeProject("p-9", "o-2", "Other", 1)); !r) return r;
    for (const auto& p : more) {
      if (auto r = tx.accounts().InsertProject(p); !r) return r;
    }
    return {};
  });
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().ListProjects("o-1"); }),
             std::vector{more[0], more[1], MakeProject("p-1", "o-1", "Website"), more[2]});
  EXPECT_TRUE(ReadOk([](Transaction& tx) { return tx.accounts().ListProjects("o-9"); }).empty());
}

TEST_P(StoreConformance, ApiKeyIsFoundById) {
  SeedProject();
  ApiKeyRecord key = MakeKey("k-1", MakeProject("p-1", "o-1", "Website"), "hash-1", 3000);
  key.created_by = "u-1";
  WriteOk([&](Transaction& tx) { return tx.accounts().InsertApiKey(key); });
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindApiKey("k-1"); }),
             std::optional(key));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindApiKey("hash-1"); }));
}

TEST_P(StoreConformance, DeleteOrganizationRemovesEverythingItOwnsAndNothingElse) {
  SeedTenant("1");
  SeedTenant("2");
  ASSERT_EQ(OrganizationFootprint("1"), kFullOrganization);
  ASSERT_EQ(ProjectFootprint("1-a"), kFullProject);

  EXPECT_TRUE(WriteOk([](Transaction& tx) { return tx.accounts().DeleteOrganization("o-1"); }));
  EXPECT_EQ(OrganizationFootprint("1"), (Footprint{0, 0, 0, 0, 0}));
  EXPECT_EQ(ProjectFootprint("1-a"), (Footprint{0, 0, 0, 0, 0}));
  EXPECT_EQ(ProjectFootprint("1-b"), (Footprint{0, 0, 0, 0, 0}));
  EXPECT_FALSE(
      ReadOk([](Transaction& tx) { return tx.accounts().FindInvitationByTokenHash("tok-1"); }));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindApiKeyByHash("h-1-a"); }));
  EXPECT_TRUE(ReadOk([](Transaction& tx) { return tx.accounts().FindUserById("u-1"); }).has_value())
      << "users outlive their organizations";

  EXPECT_EQ(OrganizationFootprint("2"), kFullOrganization);
  EXPECT_EQ(ProjectFootprint("2-a"), kFullProject);
  EXPECT_EQ(ProjectFootprint("2-b"), kFullProject);
  EXPECT_FALSE(WriteOk([](Transaction& tx) { return tx.accounts().DeleteOrganization("o-1"); }));
}

TEST_P(StoreConformance, DeleteProjectRemovesItsKeysEventsAndBotRequestsOnly) {
  SeedTenant("1");
  SeedTenant("2");
  EXPECT_TRUE(WriteOk([](Transaction& tx) { return tx.accounts().DeleteProject("p-1-a"); }));
  EXPECT_EQ(ProjectFootprint("1-a"), (Footprint{0, 0, 0, 0, 0}));
  EXPECT_EQ(ProjectFootprint("1-b"), kFullProject);
  EXPECT_EQ(OrganizationFootprint("1"), (Footprint{1, 1, 1, 1, 1}));
  EXPECT_EQ(OrganizationFootprint("2"), kFullOrganization);
  EXPECT_EQ(ProjectFootprint("2-a"), kFullProject);
  EXPECT_FALSE(WriteOk([](Transaction& tx) { return tx.accounts().DeleteProject("p-1-a"); }));
  EXPECT_FALSE(WriteOk([](Transaction& tx) { return tx.accounts().DeleteProject("o-1"); }));
}

// ---- Sessions and refresh tokens -----------------------------------------------------------

TEST_P(StoreConformance, SessionsRoundTripAndRevokeOnce) {
  SeedProject();
  SessionRecord full{"s-1", "u-1", "session", 1000, 9000, std::nullopt, "Mozilla/5.0 ✓"};
  SessionRecord setup{"s-2", "u-1", "two_factor_setup", 1000, 2000, std::nullopt, std::nullopt};
  WriteOk([&](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().InsertSession(full); !r) return r;
    return tx.accounts().InsertSession(setup);
  });
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindSession("s-1"); }),
             std::optional(full));
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindSession("s-2"); }),
             std::optional(setup));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindSession("s-9"); }));

  EXPECT_TRUE(WriteOk([](Transaction& tx) { return tx.accounts().RevokeSession("s-1", 5000); }));
  EXPECT_FALSE(WriteOk([](Transaction& tx) { return tx.accounts().RevokeSession("s-1", 6000); }));
  EXPECT_FALSE(WriteOk([](Transaction& tx) { return tx.accounts().RevokeSession("s-9", 6000); }));
  full.revoked_at = 5000;
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindSession("s-1"); }),
             std::optional(full));

  EXPECT_TRUE(IsError(Write([&](Transaction& tx) { return tx.accounts().InsertSession(full); }),
                      ErrorCode::kConflict));
  const SessionRecord orphan{"s-3", "u-missing", "session", 1, 2, std::nullopt, std::nullopt};
  EXPECT_FALSE(Write([&](Transaction& tx) { return tx.accounts().InsertSession(orphan); }))
      << "a session of an unknown user was accepted";
}

TEST_P(StoreConformance, McpSessionsRoundTripUpdateAndEndOnce) {
  McpSessionRecord session{"hash-1", "key:k-1", "2025-11-25", "Claude ✓", "1.2",
                           "info", 1000, 1000, std::nullopt};
  const McpSessionRecord anonymous{"hash-2", "key:k-2", "2025-03-26", std::nullopt, std::nullopt,
                                   "info", 1500, 1500, std::nullopt};
  WriteOk([&](Transaction& tx) -> Result<void> {
    if (auto r = tx.oauth().InsertMcpSession(session); !r) return r;
    return tx.oauth().InsertMcpSession(anonymous);
  });
  ExpectSame(ReadOk([](Transaction& tx) { return tx.oauth().FindMcpSession("hash-1"); }),
             std::optional(session));
  ExpectSame(ReadOk([](Transaction& tx) { return tx.oauth().FindMcpSession("hash-2"); }),
             std::optional(anonymous));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.oauth().FindMcpSession("hash-9"); }));

  EXPECT_TRUE(WriteOk(
      [](Transaction& tx) { return tx.oauth().UpdateMcpSession("hash-1", 4000, "debug"); }));
  session.last_used_at = 4000;
  session.log_level = "debug";
  ExpectSame(ReadOk([](Transaction& tx) { return tx.oauth().FindMcpSession("hash-1"); }),
             std::optional(session));

  EXPECT_TRUE(WriteOk([](Transaction& tx) { return tx.oauth().EndMcpSession("hash-1", 5000); }));
  EXPECT_FALSE(WriteOk([](Transaction& tx) { return tx.oauth().EndMcpSession("hash-1", 6000); }));
  EXPECT_FALSE(WriteOk([](Transaction& tx) { return tx.oauth().EndMcpSession("hash-9", 6000); }));
  EXPECT_FALSE(
      WriteOk([](Transaction& tx) { return tx.oauth().UpdateMcpSession("hash-1", 7000, "info"); }))
      << "an ended session was updated";
  session.ended_at = 5000;
  ExpectSame(ReadOk([](Transaction& tx) { return tx.oauth().FindMcpSession("hash-1"); }),
             std::optional(session));
  EXPECT_TRUE(IsError(Write([&](Transaction& tx) { return tx.oauth().InsertMcpSession(session); }),
                      ErrorCode::kConflict));

  // Stale sessions go per credential: ended or unused before the cut-off.
  const McpSessionRecord fresh{"hash-3", "key:k-1", "2025-11-25", {}, {}, "info", 8000, 8000, {}};
  WriteOk([&](Transaction& tx) { return tx.oauth().InsertMcpSession(fresh); });
  EXPECT_EQ(
      WriteOk([](Transaction& tx) { return tx.oauth().DeleteStaleMcpSessions("key:k-1", 6000); }),
      1);  // hash-1 (ended at 5000); hash-3 is fresh; hash-2 is another key's
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.oauth().FindMcpSession("hash-1"); }));
  EXPECT_TRUE(ReadOk([](Transaction& tx) { return tx.oauth().FindMcpSession("hash-3"); }));
  EXPECT_TRUE(ReadOk([](Transaction& tx) { return tx.oauth().FindMcpSession("hash-2"); }));
  EXPECT_EQ(
      WriteOk([](Transaction& tx) { return tx.oauth().DeleteStaleMcpSessions("key:k-2", 1600); }),
      1);  // hash-2, last used at 1500
}

TEST_P(StoreConformance, OAuthGrantsCodesAndTokensAreClaimedOnceAndRevokedTogether) {
  SeedProject();
  WriteOk([](Transaction& tx) {
    return tx.accounts().PutMembership({"o-1", "u-1", "admin", 1000});
  });
  const OAuthClientRecord client{"mcpc_1", "registered", "Claude ✓", R"(["http://127.0.0.1/cb"])",
                                 "none", std::nullopt, R"({"client_name":"Claude ✓"})", 1000,
                                 1000};
  OAuthGrantRecord grant;
  grant = {"g-1", "mcpc_1", "u-1", "o-1", "p-1", "analytics.view bots.view", true,
           "https://a.example/mcp", "http://127.0.0.1:5/cb", "code-hash", "challenge", 9000,
           std::nullopt, 1000, std::nullopt, std::nullopt};
  WriteOk([&](Transaction& tx) -> Result<void> {
    if (auto r = tx.oauth().UpsertOAuthClient(client); !r) return r;
    return tx.oauth().InsertOAuthGrant(grant);
  });
  auto stored_client = ReadOk([](Transaction& tx) { return tx.oauth().FindOAuthClient("mcpc_1"); });
  ASSERT_TRUE(stored_client);
  EXPECT_EQ(stored_client->name, "Claude ✓");
  EXPECT_FALSE(stored_client->secret_hash);
  OAuthClientRecord renamed = client;
  renamed.name = "Claude 2";
  renamed.fetched_at = 5000;
  WriteOk([&](Transaction& tx) { return tx.oauth().UpsertOAuthClient(renamed); });
  // An old registration nobody connected goes; one with a grant stays.
  const OAuthClientRecord abandoned{"mcpc_2", "registered", "Spam", "[]", "none", std::nullopt,
                                    "{}", 500, 500};
  WriteOk([&](Transaction& tx) { return tx.oauth().UpsertOAuthClient(abandoned); });
  EXPECT_EQ(WriteOk([](Transaction& tx) { return tx.oauth().DeleteUnusedOAuthClients(1500); }), 1);
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.oauth().FindOAuthClient("mcpc_2"); }));
  stored_client = ReadOk([](Transaction& tx) { return tx.oauth().FindOAuthClient("mcpc_1"); });
  EXPECT_EQ(stored_client->name, "Claude 2");
  EXPECT_EQ(stored_client->fetched_at, 5000);
  EXPECT_EQ(stored_client->created_at, 1000);

  auto by_code =
      ReadOk([](Transaction& tx) { return tx.oauth().FindOAuthGrantByCode("code-hash"); });
  ASSERT_TRUE(by_code);
  EXPECT_EQ(by_code->id, "g-1");
  EXPECT_TRUE(by_code->read_only);
  EXPECT_EQ(by_code->permissions, "analytics.view bots.view");
  EXPECT_EQ(by_code->code_expires_at, 9000);
  EXPECT_TRUE(WriteOk([](Transaction& tx) { return tx.oauth().ClaimOAuthCode("g-1", 2000); }));
  EXPECT_FALSE(WriteOk([](Transaction& tx) { return tx.oauth().ClaimOAuthCode("g-1", 2001); }));
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.oauth().FindOAuthGrant("g-1"); })->code_used_at,
            2000);

  const OAuthTokenRecord access{"at-hash", "g-1", "access", 2000, 5600000};
  const OAuthTokenRecord refresh{"rt-hash", "g-1", "refresh", 2000, 90000000};
  WriteOk([&](Transaction& tx) -> Result<void> {
    if (auto r = tx.oauth().InsertOAuthToken(access); !r) return r;
    return tx.oauth().InsertOAuthToken(refresh);
  });
  auto found = ReadOk([](Transaction& tx) { return tx.oauth().FindOAuthToken("at-hash"); });
  ASSERT_TRUE(found);
  EXPECT_EQ(found->token.kind, "access");
  EXPECT_EQ(found->grant.project_id, "p-1");
  EXPECT_EQ(found->role, std::optional<std::string>("admin"));
  EXPECT_TRUE(WriteOk([](Transaction& tx) { return tx.oauth().ClaimOAuthToken("rt-hash", 3000); }));
  EXPECT_FALSE(
      WriteOk([](Transaction& tx) { return tx.oauth().ClaimOAuthToken("rt-hash", 3001); }));
  WriteOk([](Transaction& tx) { return tx.oauth().SetOAuthTokenSuccessor("rt-hash", "rt-next"); });
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.oauth().FindOAuthToken("rt-hash"); })
                ->token.replaced_by,
            std::optional<std::string>("rt-next"));
  // Spent and expired tokens are forgotten; live ones stay.
  const OAuthTokenRecord expired{"old-at", "g-1", "access", 1000, 1500};
  WriteOk([&](Transaction& tx) { return tx.oauth().InsertOAuthToken(expired); });
  const auto forget = [&](std::int64_t spent_before) {
    return WriteOk([&](Transaction& tx) {
      return tx.oauth().DeleteSpentOAuthTokens("g-1", 2500, spent_before);
    });
  };
  EXPECT_EQ(forget(2900), 1);  // old-at; rt-hash was spent at 3000, after the cut
  EXPECT_EQ(forget(3001), 1);  // rt-hash
  const OAuthTokenRecord refresh_again{"rt-hash", "g-1", "refresh", 2000, 90000000};
  WriteOk([&](Transaction& tx) { return tx.oauth().InsertOAuthToken(refresh_again); });

  const auto listed =
      ReadOk([](Transaction& tx) { return tx.oauth().ListOAuthGrantsOfUser("u-1"); });
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].client_name, "Claude 2");
  EXPECT_EQ(listed[0].organization_slug, "acme");
  EXPECT_EQ(listed[0].project_name, "Website");

  // Revoking the grant revokes its tokens with it, once.
  EXPECT_TRUE(WriteOk([](Transaction& tx) { return tx.oauth().RevokeOAuthGrant("g-1", 4000); }));
  EXPECT_FALSE(WriteOk([](Transaction& tx) { return tx.oauth().RevokeOAuthGrant("g-1", 4001); }));
  found = ReadOk([](Transaction& tx) { return tx.oauth().FindOAuthToken("at-hash"); });
  EXPECT_EQ(found->token.revoked_at, 4000);
  EXPECT_EQ(found->grant.revoked_at, 4000);
  EXPECT_TRUE(
      ReadOk([](Transaction& tx) { return tx.oauth().ListOAuthGrantsOfUser("u-1"); }).empty());
  EXPECT_FALSE(
      WriteOk([](Transaction& tx) { return tx.oauth().RevokeOAuthToken("at-hash", 5000); }));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.oauth().FindOAuthToken("nope"); }));
  // Deleting the project takes its grants and their tokens with it.
  EXPECT_TRUE(WriteOk([](Transaction& tx) { return tx.accounts().DeleteProject("p-1"); }));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.oauth().FindOAuthGrant("g-1"); }));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.oauth().FindOAuthToken("at-hash"); }));
}

TEST_P(StoreConformance, AgentConversationsKeepOrderedMessagesAndDeleteWithThem) {
  SeedProject();
  const AgentConversationRecord mine{"c-1", "o-1", "p-1", "u-1", std::nullopt, "First", "idle",
                                     std::nullopt, 1000, 1000};
  const AgentConversationRecord shared{"c-2", "o-1", "p-1", "u-1", "weekly", "Weekly", "idle",
                                       std::nullopt, 2000, 2000};
  const AgentConversationRecord other{"c-3", "o-1", "p-1", "u-2", "weekly", "Theirs", "idle",
                                      std::nullopt, 3000, 3000};
  WriteOk([&](Transaction& tx) -> Result<void> {
    for (const auto* c : {&mine, &shared, &other}) {
      if (auto r = tx.agent().InsertAgentConversation(*c); !r) return r;
    }
    return {};
  });
  // The same workflow for the same user and project twice is refused by the store itself.
  AgentConversationRecord duplicate = shared;
  duplicate.id = "c-4";
  EXPECT_FALSE(
      Ok(Write([&](Transaction& tx) { return tx.agent().InsertAgentConversation(duplicate); })));

  for (const char* text : {"Which bots?", "GPTBot, mostly."}) {
    WriteOk([&](Transaction& tx) -> Result<void> {
      auto appended = tx.agent().AppendAgentMessage(
          {"c-1", 0, std::string("m-") + text, "user", text, std::nullopt, std::nullopt,
           std::nullopt, 7, 5000});
      if (!appended) return appended.error();
      return {};
    });
  }
  const auto messages = ReadOk([](Transaction& tx) { return tx.agent().ListAgentMessages("c-1"); });
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].seq, 1);
  EXPECT_EQ(messages[1].seq, 2);
  EXPECT_EQ(messages[1].content, "GPTBot, mostly.");
  EXPECT_EQ(messages[1].output_tokens, 7);
  EXPECT_FALSE(messages[1].input_tokens);

  // Appending touched the conversation: it is now the most recent.
  auto listed = ReadOk([](Transaction& tx) {
    return tx.agent().ListAgentConversations("p-1", "u-1", std::nullopt, 10);
  });
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].id, "c-1");
  EXPECT_EQ(listed[0].updated_at, 5000);
  listed = ReadOk([](Transaction& tx) {
    return tx.agent().ListAgentConversations("p-1", "u-1", std::string("weekly"), 10);
  });
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].id, "c-2");
  EXPECT_EQ(ReadOk([](Transaction& tx) {
              return tx.agent().FindAgentConversationByWorkflow("p-1", "u-2", "weekly");
            })->id,
            "c-3");

  EXPECT_EQ(WriteOk([](Transaction& tx) {
              return tx.agent().DeleteAgentConversations("p-1", "u-1", std::string("weekly"));
            }),
            1);
  EXPECT_EQ(WriteOk([](Transaction& tx) {
              return tx.agent().DeleteAgentConversations("p-1", "u-1", std::nullopt);
            }),
            1);
  EXPECT_TRUE(ReadOk([](Transaction& tx) { return tx.agent().ListAgentMessages("c-1"); }).empty());
  EXPECT_TRUE(ReadOk([](Transaction& tx) { return tx.agent().FindAgentConversation("c-3"); }));
  // Deleting the project takes its conversations with it.
  EXPECT_TRUE(WriteOk([](Transaction& tx) { return tx.accounts().DeleteProject("p-1"); }));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.agent().FindAgentConversation("c-3"); }));
}

TEST_P(StoreConformance, AgentAnswersClaimTheConversationAndProposedCallsWaitForADecision) {
  SeedProject();
  const AgentConversationRecord conversation{
      "c-1",  "o-1",        "p-1", "u-1", std::nullopt, "New conversation",
      "idle", std::nullopt, 1000,  1000};
  WriteOk([&](Transaction& tx) { return tx.agent().InsertAgentConversation(conversation); });
  auto claim = [&](std::int64_t now, std::int64_t stale_before) {
    return WriteOk([&](Transaction& tx) {
      return tx.agent().ClaimAgentConversation("c-1", now, stale_before);
    });
  };
  EXPECT_TRUE(claim(2000, 0));
  EXPECT_FALSE(claim(2100, 0)) << "one answer at a time";
  EXPECT_TRUE(WriteOk([](Transaction& tx) { return tx.agent().RequestAgentCancel("c-1"); }));
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.agent().FindAgentConversation("c-1"); })->status,
            "canceling");
  EXPECT_FALSE(claim(2200, 0)) << "still stopping";
  EXPECT_TRUE(claim(9000, 2001)) << "an answer older than the limit died with its node";
  WriteOk([](Transaction& tx) {
    return tx.agent().SetAgentConversationStatus("c-1", "awaiting_approval", 9500);
  });
  auto found = ReadOk([](Transaction& tx) { return tx.agent().FindAgentConversation("c-1"); });
  EXPECT_EQ(found->status, "awaiting_approval");
  EXPECT_FALSE(found->run_started_at);
  EXPECT_FALSE(WriteOk([](Transaction& tx) { return tx.agent().RequestAgentCancel("c-1"); }));

  AgentMessageRecord call{"c-1", 0, "m-1", "tool_call", "{}", "call-1", "update_project"};
  call.created_at = 9400;
  call.approval = "pending";
  WriteOk([&](Transaction& tx) -> Result<void> {
    auto appended = tx.agent().AppendAgentMessage(call);
    if (!appended) return appended.error();
    return {};
  });
  EXPECT_FALSE(WriteOk(
      [](Transaction& tx) { return tx.agent().DecideAgentToolCall("c-1", "call-2", "approved"); }));
  EXPECT_TRUE(WriteOk(
      [](Transaction& tx) { return tx.agent().DecideAgentToolCall("c-1", "call-1", "approved"); }));
  EXPECT_FALSE(WriteOk([](Transaction& tx) {
    return tx.agent().DecideAgentToolCall("c-1", "call-1", "rejected");
  })) << "decided once";
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.agent().ListAgentMessages("c-1"); })[0].approval,
            "approved");
  EXPECT_TRUE(claim(9600, 0)) << "a decision lets the answer go on";

  // Only an untitled conversation takes a title.
  WriteOk([](Transaction& tx) {
    return tx.agent().TitleAgentConversation("c-1", "Top pages?", "New conversation");
  });
  WriteOk([](Transaction& tx) {
    return tx.agent().TitleAgentConversation("c-1", "Something else", "New conversation");
  });
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.agent().FindAgentConversation("c-1"); })->title,
            "Top pages?");

  // A message for a conversation deleted meanwhile is refused (its transaction rolls back).
  WriteOk([](Transaction& tx) {
    return tx.agent().DeleteAgentConversations("p-1", "u-1", std::nullopt);
  });
  AgentMessageRecord late{"c-1", 0, "m-2", "assistant", "too late"};
  EXPECT_FALSE(Ok(Write([&](Transaction& tx) { return tx.agent().AppendAgentMessage(late); })));
  EXPECT_TRUE(ReadOk([](Transaction& tx) { return tx.agent().ListAgentMessages("c-1"); }).empty());
}

TEST_P(StoreConformance, TwoFactorSecretsStepsAndBackupCodes) {
  SeedProject();
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.second_factors().FindTwoFactor("u-1"); }));
  WriteOk([](Transaction& tx) {
    return tx.second_factors().BeginTwoFactorSetup("u-1", "FIRST", {"h-a", "h-b"}, 1000);
  });
  // A second setup replaces the pending secret and its codes.
  WriteOk([](Transaction& tx) {
    return tx.second_factors().BeginTwoFactorSetup("u-1", "SECOND", {"h-1", "h-2", "h-3"}, 2000);
  });
  auto pending = ReadOk([](Transaction& tx) { return tx.second_factors().FindTwoFactor("u-1"); });
  EXPECT_EQ(pending->pending_secret, "SECOND");
  EXPECT_FALSE(pending->secret);
  EXPECT_EQ(
      ReadOk([](Transaction& tx) { return tx.second_factors().CountUnusedBackupCodes("u-1"); }), 0)
      << "pending codes do not count";
  EXPECT_FALSE(WriteOk([](Transaction& tx) {
    return tx.second_factors().AdvanceTotpStep("u-1", 5);
  })) << "no step before it is enabled";

  WriteOk([](Transaction& tx) { return tx.second_factors().EnableTwoFactor("u-1", 100, 3000); });
  auto enabled = ReadOk([](Transaction& tx) { return tx.second_factors().FindTwoFactor("u-1"); });
  EXPECT_EQ(enabled->secret, "SECOND");
  EXPECT_FALSE(enabled->pending_secret);
  EXPECT_EQ(enabled->enabled_at, 3000);
  EXPECT_EQ(enabled->last_step, 100);
  EXPECT_TRUE(ReadOk([](Transaction& tx) {
                return tx.accounts().FindUserById("u-1");
              })->two_factor_enabled);
  EXPECT_EQ(
      ReadOk([](Transaction& tx) { return tx.second_factors().CountUnusedBackupCodes("u-1"); }), 3);

  EXPECT_FALSE(
      WriteOk([](Transaction& tx) { return tx.second_factors().AdvanceTotpStep("u-1", 100); }));
  EXPECT_TRUE(
      WriteOk([](Transaction& tx) { return tx.second_factors().AdvanceTotpStep("u-1", 101); }));
  EXPECT_FALSE(
      WriteOk([](Transaction& tx) { return tx.second_factors().AdvanceTotpStep("u-1", 100); }));

  EXPECT_FALSE(WriteOk(
      [](Transaction& tx) { return tx.second_factors().UseBackupCode("u-1", "h-a", 4000); }));
  EXPECT_TRUE(WriteOk(
      [](Transaction& tx) { return tx.second_factors().UseBackupCode("u-1", "h-1", 4000); }));
  EXPECT_FALSE(WriteOk(
      [](Transaction& tx) { return tx.second_factors().UseBackupCode("u-1", "h-1", 4001); }));
  EXPECT_EQ(
      ReadOk([](Transaction& tx) { return tx.second_factors().CountUnusedBackupCodes("u-1"); }), 2);
  WriteOk([](Transaction& tx) { return tx.second_factors().ReplaceBackupCodes("u-1", {"h-x"}); });
  EXPECT_FALSE(WriteOk(
      [](Transaction& tx) { return tx.second_factors().UseBackupCode("u-1", "h-2", 4002); }));
  EXPECT_EQ(
      ReadOk([](Transaction& tx) { return tx.second_factors().CountUnusedBackupCodes("u-1"); }), 1);

  WriteOk([](Transaction& tx) { return tx.second_factors().DisableTwoFactor("u-1", 5000); });
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.second_factors().FindTwoFactor("u-1"); }));
  EXPECT_FALSE(ReadOk([](Transaction& tx) {
                 return tx.accounts().FindUserById("u-1");
               })->two_factor_enabled);
  EXPECT_EQ(
      ReadOk([](Transaction& tx) { return tx.second_factors().CountUnusedBackupCodes("u-1"); }), 0);
}

// Turning TOTP off and deleting the last passkey, in two sessions at once: each locks the user
// first (LockSecondFactors) and then checks what is left, so the second waits for the first
// and sees its result, and one second factor always stays. Without the lock, the second
// transaction (PostgreSQL, read committed) read the factors from before the first committed.
TEST_P(StoreConformance, SecondFactorChangesOfOneUserRunOneAfterTheOther) {
  SeedProject();
  WriteOk([](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().UpdateUserTwoFactor("u-1", true, 1000); !r) return r.error();
    return tx.second_factors().InsertPasskey(
        {"pk-1", "u-1", "cred-1", "key", -7, 0, "00", "Laptop", "internal", 1000, std::nullopt});
  });
  std::latch first_checked(1);
  std::jthread disable_totp([&] {
    WriteOk([&](Transaction& tx) -> Result<void> {
      EXPECT_TRUE(tx.second_factors().LockSecondFactors("u-1").value());
      const bool passkey_left = !tx.second_factors().ListPasskeys("u-1").value().empty();
      first_checked.count_down();
      // The other session tries now, while this one has checked and not yet written.
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      if (passkey_left) {
        if (auto r = tx.accounts().UpdateUserTwoFactor("u-1", false, 2000); !r) return r.error();
      }
      return {};
    });
  });
  first_checked.wait();
  WriteOk([&](Transaction& tx) -> Result<void> {
    EXPECT_TRUE(tx.second_factors().LockSecondFactors("u-1").value());
    auto user = tx.accounts().FindUserById("u-1").value();
    EXPECT_FALSE(user->two_factor_enabled) << "the lock waited for the other session's commit";
    if (user->two_factor_enabled) {
      if (auto r = tx.second_factors().DeletePasskey("pk-1", "u-1"); !r) return r.error();
    }
    return {};
  });
  disable_totp.join();
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.second_factors().ListPasskeys("u-1"); }).size(), 1u)
      << "the passkey stays: it is the last second factor";
  EXPECT_FALSE(WriteOk([](Transaction& tx) { return tx.second_factors().LockSecondFactors("nobody"); }));
}

TEST_P(StoreConformance, PasskeysAndSingleUseChallenges) {
  SeedProject();
  const PasskeyRecord passkey{"pk-1", "u-1", "cred-1", "key", -7, 0, "00", "Laptop", "internal",
                              1000, std::nullopt};
  WriteOk([&](Transaction& tx) { return tx.second_factors().InsertPasskey(passkey); });
  PasskeyRecord same_credential = passkey;
  same_credential.id = "pk-2";
  EXPECT_FALSE(Ok(Write([&](Transaction& tx) {
    return tx.second_factors().InsertPasskey(same_credential);
  }))) << "a credential id is registered once";
  EXPECT_EQ(ReadOk([](Transaction& tx) {
              return tx.second_factors().FindPasskeyByCredential("cred-1");
            })->id,
            "pk-1");
  EXPECT_FALSE(WriteOk(
      [](Transaction& tx) { return tx.second_factors().RenamePasskey("pk-1", "u-2", "Mine"); }));
  EXPECT_TRUE(WriteOk(
      [](Transaction& tx) { return tx.second_factors().RenamePasskey("pk-1", "u-1", "Desk"); }));
  EXPECT_TRUE(WriteOk(
      [](Transaction& tx) { return tx.second_factors().RecordPasskeyUse("pk-1", 0, 5, 2000); }));
  EXPECT_FALSE(WriteOk([](Transaction& tx) {
    return tx.second_factors().RecordPasskeyUse("pk-1", 0, 6, 2001);
  })) << "a sign-in that read the old counter loses";
  const auto listed =
      ReadOk([](Transaction& tx) { return tx.second_factors().ListPasskeys("u-1"); });
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].label, "Desk");
  EXPECT_EQ(listed[0].sign_count, 5);
  EXPECT_EQ(listed[0].last_used_at, 2000);
  EXPECT_FALSE(
      WriteOk([](Transaction& tx) { return tx.second_factors().DeletePasskey("pk-1", "u-2"); }));
  EXPECT_TRUE(
      WriteOk([](Transaction& tx) { return tx.second_factors().DeletePasskey("pk-1", "u-1"); }));

  WriteOk([](Transaction& tx) {
    return tx.second_factors().InsertWebAuthnChallenge(
        {"ch-1", std::string("u-1"), "register", "abc", 5000});
  });
  WriteOk([](Transaction& tx) {
    return tx.second_factors().InsertWebAuthnChallenge(
        {"ch-old", std::nullopt, "authenticate", "def", 100});
  });
  const auto taken = WriteOk(
      [](Transaction& tx) { return tx.second_factors().TakeWebAuthnChallenge("ch-1", 1000); });
  ASSERT_TRUE(taken);
  EXPECT_EQ(taken->challenge, "abc");
  EXPECT_EQ(taken->user_id, "u-1");
  EXPECT_FALSE(WriteOk([](Transaction& tx) {
    return tx.second_factors().TakeWebAuthnChallenge("ch-1", 1000);
  })) << "used once";
  EXPECT_FALSE(WriteOk([](Transaction& tx) {
    return tx.second_factors().TakeWebAuthnChallenge("ch-old", 1000);
  })) << "expired ones were pruned";
}

TEST_P(StoreConformance, RefreshTokenIsClaimedOnce) {
  SeedProject();
  const RefreshTokenRecord token{"rt-hash-1", "s-1", 1000, std::nullopt};
  WriteOk([&](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().InsertSession({"s-1", "u-1", "session", 1000, 9000, {}, {}}); !r)
      return r;
    return tx.accounts().InsertRefreshToken(token);
  });
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindRefreshToken("rt-hash-1"); }),
             std::optional(token));
  EXPECT_TRUE(
      WriteOk([](Transaction& tx) { return tx.accounts().ClaimRefreshToken("rt-hash-1", 2000); }));
  EXPECT_FALSE(
      WriteOk([](Transaction& tx) { return tx.accounts().ClaimRefreshToken("rt-hash-1", 3000); }));
  EXPECT_FALSE(
      WriteOk([](Transaction& tx) { return tx.accounts().ClaimRefreshToken("rt-none", 3000); }));
  EXPECT_EQ(
      ReadOk([](Transaction& tx) { return tx.accounts().FindRefreshToken("rt-hash-1"); })->used_at,
      std::optional<std::int64_t>(2000));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindRefreshToken("rt-none"); }));
  const RefreshTokenRecord orphan{"rt-hash-2", "s-missing", 1000, std::nullopt};
  EXPECT_FALSE(Write([&](Transaction& tx) { return tx.accounts().InsertRefreshToken(orphan); }))
      << "a token of an unknown session was accepted";
}

TEST_P(StoreConformance, ConcurrentRefreshTokenClaimsHaveOneWinner) {
  SeedProject();
  constexpr int kThreads = 4;
  constexpr int kTokens = 20;
  WriteOk([&](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().InsertSession({"s-1", "u-1", "session", 1000, 9000, {}, {}}); !r)
      return r;
    for (int i = 0; i < kTokens; ++i) {
      if (auto r = tx.accounts().InsertRefreshToken({"rt-" + std::to_string(i), "s-1", 1000, {}});
          !r) {
        return r;
      }
    }
    return {};
  });
  std::mutex mutex;
  std::vector<int> winners(kTokens, 0);
  std::vector<std::string> errors;
  std::latch start(kThreads);
  {
    std::vector<std::jthread> claimers;
    for (int t = 0; t < kThreads; ++t) {
      claimers.emplace_back([&, t] {
        start.arrive_and_wait();
        for (int i = 0; i < kTokens; ++i) {
          auto won = Write([&](Transaction& tx) {
            return tx.accounts().ClaimRefreshToken("rt-" + std::to_string(i), 2000 + t);
          });
          std::lock_guard lock(mutex);
          if (won) {
            winners[i] += *won ? 1 : 0;
          } else {
            errors.push_back(Ok(won).message());
          }
        }
      });
    }
  }
  EXPECT_TRUE(errors.empty()) << errors.size() << " failed claims, first: " << errors.front();
  EXPECT_EQ(winners, std::vector<int>(kTokens, 1));
}

// ---- Invitations ---------------------------------------------------------------------------

TEST_P(StoreConformance, InvitationsRoundTripNewestFirst) {
  SeedProject();
  InvitationRecord first = MakeInvitation("i-1", "o-1", "tok-1", 1000);
  first.invited_by = "u-1";
  first.expires_at = 1500;
  const InvitationRecord second = MakeInvitation("i-2", "o-1", "tok-2", 2000);
  const InvitationRecord tied = MakeInvitation("i-3", "o-1", "tok-3", 2000);
  WriteOk([&](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().InsertOrganization(MakeOrg("o-2", "globex")); !r) return r;
    if (auto r = tx.accounts().InsertInvitation(MakeInvitation("i-9", "o-2", "tok-9", 5000)); !r)
      return r;
    for (const auto& i : {second, first, tied}) {
      if (auto r = tx.accounts().InsertInvitation(i); !r) return r;
    }
    return {};
  });
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().ListInvitations("o-1"); }),
             std::vector{tied, second, first});
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().FindInvitation("i-1"); }),
             std::optional(first));
  ExpectSame(
      ReadOk([](Transaction& tx) { return tx.accounts().FindInvitationByTokenHash("tok-2"); }),
      std::optional(second));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindInvitation("i-0"); }));
  EXPECT_FALSE(
      ReadOk([](Transaction& tx) { return tx.accounts().FindInvitationByTokenHash("tok-0"); }));

  const InvitationRecord clash = MakeInvitation("i-4", "o-1", "tok-1", 3000);
  EXPECT_TRUE(IsError(Write([&](Transaction& tx) { return tx.accounts().InsertInvitation(clash); }),
                      ErrorCode::kConflict));
  const InvitationRecord orphan = MakeInvitation("i-5", "o-missing", "tok-5", 3000);
  EXPECT_FALSE(Write([&](Transaction& tx) { return tx.accounts().InsertInvitation(orphan); }));
}

TEST_P(StoreConformance, InvitationsAreAcceptedOrRevokedOnlyOnce) {
  SeedProject();
  WriteOk([](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().InsertInvitation(MakeInvitation("i-1", "o-1", "tok-1", 1000)); !r)
      return r;
    return tx.accounts().InsertInvitation(MakeInvitation("i-2", "o-1", "tok-2", 1000));
  });
  auto accept = [&](const char* id, std::int64_t at) {
    return WriteOk(
        [&](Transaction& tx) { return tx.accounts().MarkInvitationAccepted(id, "u-1", at); });
  };
  auto revoke = [&](const char* id, std::int64_t at) {
    return WriteOk([&](Transaction& tx) { return tx.accounts().RevokeInvitation(id, at); });
  };
  EXPECT_TRUE(accept("i-1", 2000));
  EXPECT_FALSE(accept("i-1", 3000));
  EXPECT_FALSE(revoke("i-1", 3000)) << "an accepted invitation cannot be revoked";
  EXPECT_TRUE(revoke("i-2", 2500));
  EXPECT_FALSE(revoke("i-2", 3000));
  EXPECT_FALSE(accept("i-2", 3000)) << "a revoked invitation cannot be accepted";
  EXPECT_FALSE(accept("i-9", 3000));
  EXPECT_FALSE(revoke("i-9", 3000));

  InvitationRecord accepted = MakeInvitation("i-1", "o-1", "tok-1", 1000);
  accepted.accepted_at = 2000;
  accepted.accepted_by = "u-1";
  InvitationRecord revoked = MakeInvitation("i-2", "o-1", "tok-2", 1000);
  revoked.revoked_at = 2500;
  ExpectSame(ReadOk([](Transaction& tx) { return tx.accounts().ListInvitations("o-1"); }),
             std::vector{revoked, accepted});
}

// ---- Audit log -----------------------------------------------------------------------------

// What ListAudit should return, computed over every row inserted.
std::vector<AuditRecord> ExpectedAudit(std::vector<AuditRecord> rows, const AuditQuery& q) {
  std::erase_if(rows, [&](const AuditRecord& a) {
    return a.organization_id != q.organization_id ||
           (q.actor_user_id && a.actor_user_id != q.actor_user_id) ||
           (q.action && a.action != *q.action) || (q.from && a.created_at < *q.from) ||
           (q.to && a.created_at >= *q.to) ||
           (q.before &&
            std::tie(a.created_at, a.id) >= std::tie(q.before->first, q.before->second));
  });
  std::sort(rows.begin(), rows.end(), [](const AuditRecord& a, const AuditRecord& b) {
    return std::tie(a.created_at, a.id) > std::tie(b.created_at, b.id);
  });
  rows.resize(std::min(q.limit, rows.size()));
  return rows;
}

std::vector<AuditRecord> AuditRows() {
  std::vector<AuditRecord> rows;
  for (int i = 0; i < 25; ++i) {
    char id[8];
    std::snprintf(id, sizeof id, "a-%02d", (i * 7) % 25);  // ids not in insertion order
    AuditRecord a = MakeAudit(id, i == 24 ? "o-2" : "o-1", 1000 + (i % 9) * 10);  // time ties
    if (i % 3 != 0) a.actor_user_id = i % 2 == 0 ? "u-1" : "u-2";
    if (i % 4 == 0) a.action = "member.remove";
    if (i % 5 == 0) {
      a.project_id = "p-1", a.credential_kind = "private_api_key", a.credential_id = "k-1";
      a.target_type = "project", a.target_id = "p-1", a.request_id = "req-" + std::to_string(i);
      a.details_json = R"({"changed":["name"],"name":"Café ✓"})";
    }
    rows.push_back(std::move(a));
  }
  return rows;
}

TEST_P(StoreConformance, AuditLogFiltersOrdersAndPaginates) {
  const std::vector<AuditRecord> rows = AuditRows();
  WriteOk([&](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().InsertOrganization(MakeOrg("o-1", "acme")); !r) return r;
    if (auto r = tx.accounts().InsertOrganization(MakeOrg("o-2", "globex")); !r) return r;
    for (const auto& a : rows) {
      if (auto r = tx.accounts().InsertAudit(a); !r) return r;
    }
    return {};
  });
  AuditQuery all{.organization_id = "o-1"};
  std::vector<AuditQuery> queries = {all, {.organization_id = "o-2"}};
  queries.push_back({.organization_id = "o-1", .actor_user_id = "u-1"});
  queries.push_back({.organization_id = "o-1", .action = "member.remove"});
  queries.push_back({.organization_id = "o-1", .from = 1030, .to = 1060});
  queries.push_back({.organization_id = "o-1", .actor_user_id = "u-2", .action = "project.update"});
  queries.push_back(
      {.organization_id = "o-1", .before = std::pair<std::int64_t, std::string>(1040, "a-13")});
  queries.push_back({.organization_id = "o-1", .limit = 5});
  queries.push_back({.organization_id = "o-9"});
  for (const AuditQuery& q : queries) {
    SCOPED_TRACE(q.organization_id + " " + q.actor_user_id.value_or("-") + " " +
                 q.action.value_or("-") + " limit " + std::to_string(q.limit));
    ExpectSame(ReadOk([&](Transaction& tx) { return tx.accounts().ListAudit(q); }),
               ExpectedAudit(rows, q));
  }
  ASSERT_EQ(ExpectedAudit(rows, all).size(), 24u);

  // Walking the cursor page by page visits every row once, in order, with or without a filter.
  for (AuditQuery q : {all, AuditQuery{.organization_id = "o-1", .actor_user_id = "u-2"}}) {
    const std::vector<AuditRecord> expected = ExpectedAudit(rows, q);
    q.limit = 7;
    std::vector<AuditRecord> walked;
    for (int page = 0; page < 10; ++page) {
      auto rows_of_page = ReadOk([&](Transaction& tx) { return tx.accounts().ListAudit(q); });
      if (rows_of_page.empty()) break;
      q.before = {rows_of_page.back().created_at, rows_of_page.back().id};
      walked.insert(walked.end(), rows_of_page.begin(), rows_of_page.end());
    }
    ExpectSame(walked, expected);
  }
}

// ---- Rate limits and server secrets --------------------------------------------------------

TEST_P(StoreConformance, RateLimitCountsPerBucketAndWindow) {
  auto hit = [&](const char* bucket, std::int64_t window) {
    return WriteOk([&](Transaction& tx) { return tx.accounts().HitRateLimit(bucket, window); });
  };
  EXPECT_EQ(hit("ip:1", 60'000), 1);
  EXPECT_EQ(hit("ip:1", 60'000), 2);
  EXPECT_EQ(hit("ip:1", 60'000), 3);
  EXPECT_EQ(hit("ip:2", 60'000), 1);
  EXPECT_EQ(hit("ip:1", 120'000), 1);
  EXPECT_EQ(hit("ip:1", 0), 1);

  EXPECT_EQ(WriteOk([](Transaction& tx) { return tx.accounts().PruneRateLimits(120'000); }), 3);
  EXPECT_EQ(WriteOk([](Transaction& tx) { return tx.accounts().PruneRateLimits(120'000); }), 0);
  EXPECT_EQ(hit("ip:1", 120'000), 2) << "the current window survives pruning";
  EXPECT_EQ(hit("ip:1", 60'000), 1) << "a pruned window starts over";
}

TEST_P(StoreConformance, RateLimitCountsEveryConcurrentHit) {
  constexpr int kThreads = 4;
  constexpr int kHitsPerThread = 50;
  std::mutex mutex;
  std::vector<std::int64_t> counts;
  std::vector<std::string> errors;
  std::latch start(kThreads);
  {
    std::vector<std::jthread> hitters;
    for (int t = 0; t < kThreads; ++t) {
      hitters.emplace_back([&] {
        start.arrive_and_wait();
        for (int i = 0; i < kHitsPerThread; ++i) {
          auto count =
              Write([](Transaction& tx) { return tx.accounts().HitRateLimit("key:k-1", 0); });
          std::lock_guard lock(mutex);
          if (count) {
            counts.push_back(*count);
          } else {
            errors.push_back(Ok(count).message());
          }
        }
      });
    }
  }
  EXPECT_TRUE(errors.empty()) << errors.size() << " failed hits, first: " << errors.front();
  // Each hit saw a distinct count, so none was lost: exactly 1..200.
  std::sort(counts.begin(), counts.end());
  std::vector<std::int64_t> expected(kThreads * kHitsPerThread);
  std::iota(expected.begin(), expected.end(), 1);
  EXPECT_EQ(counts, expected);
  EXPECT_EQ(WriteOk([](Transaction& tx) { return tx.accounts().HitRateLimit("key:k-1", 0); }),
            kThreads * kHitsPerThread + 1);
}

TEST_P(StoreConformance, ServerSecretKeepsTheFirstValue) {
  auto get = [&](const char* name, const char* candidate) {
    return WriteOk(
        [&](Transaction& tx) { return tx.accounts().GetOrCreateSecret(name, candidate, 1000); });
  };
  EXPECT_EQ(get("jwt_signing_key", "first"), "first");
  EXPECT_EQ(get("jwt_signing_key", "second"), "first");
  EXPECT_EQ(get("other", "third"), "third");

  // Racing nodes all end up with one of the candidates, and the same one.
  constexpr int kThreads = 4;
  std::mutex mutex;
  std::set<std::string> seen;
  std::latch start(kThreads);
  {
    std::vector<std::jthread> nodes;
    for (int t = 0; t < kThreads; ++t) {
      nodes.emplace_back([&, t] {
        start.arrive_and_wait();
        auto value = Write([&](Transaction& tx) {
          return tx.accounts().GetOrCreateSecret("raced", "candidate-" + std::to_string(t), 2000);
        });
        std::lock_guard lock(mutex);
        seen.insert(value ? *value : std::string("error: ") + Ok(value).message());
      });
    }
  }
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_TRUE(seen.begin()->starts_with("candidate-")) << *seen.begin();
}

// ---- Transactions --------------------------------------------------------------------------

TEST_P(StoreConformance, FailedWriteLeavesNothingBehind) {
  SeedProject();
  const ApiKeyRecord key = MakeKey("k-1", MakeProject("p-1", "o-1", "Website"), "hash-1", 2000);
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.accounts().InsertApiKey(key); })));
  const std::vector<EventRecord> events = {SparseEvent("e-1", "p-1", 1000)};
  auto failed = Write([&](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().InsertOrganization(MakeOrg("o-9", "half")); !r) return r;
    if (auto r = tx.accounts().InsertUser(MakeUser("u-9", "fresh@example.com")); !r) return r;
    if (auto r = tx.accounts().RevokeApiKey("k-1", 5000); !r) return r.error();
    if (auto r = tx.events().InsertEvents(events); !r) return r;
    return tx.accounts().InsertUser(MakeUser("u-10", "owner@example.com"));  // clashes with u-1
  });
  EXPECT_TRUE(IsError(failed, ErrorCode::kConflict));
  // A body may also refuse without any failing statement.
  auto refused = Write([](Transaction& tx) -> Result<void> {
    if (auto r = tx.accounts().InsertOrganization(MakeOrg("o-8", "refused")); !r) return r;
    return core::Error(ErrorCode::kValInvalidParameter, "changed my mind");
  });
  EXPECT_TRUE(IsError(refused, ErrorCode::kValInvalidParameter));

  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindOrganizationById("o-9"); }));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindOrganizationById("o-8"); }));
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindUserById("u-9"); }));
  EXPECT_TRUE(
      ReadOk([](Transaction& tx) { return tx.events().ListRecentEvents("p-1", 10); }).empty());
  auto stored = ReadOk([](Transaction& tx) { return tx.accounts().FindApiKeyByHash("hash-1"); });
  ASSERT_TRUE(stored.has_value());
  EXPECT_FALSE(stored->revoked_at) << "the revocation was rolled back";
}

// Exceptions are for bugs (style guide, section 5): a backend rolls back and lets them through,
// and never turns them into an Error.
TEST_P(StoreConformance, ThrowingWriteRollsBackAndRethrows) {
  EXPECT_THROW(Write([](Transaction& tx) -> Result<void> {
                 if (auto r = tx.accounts().InsertOrganization(MakeOrg("o-7", "thrown")); !r)
                   return r;
                 throw std::runtime_error("a bug in the transaction body");
               }),
               std::runtime_error);
  EXPECT_FALSE(ReadOk([](Transaction& tx) { return tx.accounts().FindOrganizationById("o-7"); }));
}

TEST_P(StoreConformance, ConcurrentWritesAllLand) {
  constexpr int kThreads = 4;
  constexpr int kWritesPerThread = 200;
  std::mutex mutex;
  std::vector<std::string> errors;
  {
    std::vector<std::jthread> writers;
    for (int t = 0; t < kThreads; ++t) {
      writers.emplace_back([&, t] {
        for (int i = 0; i < kWritesPerThread; ++i) {
          const EventRecord e = SparseEvent(std::to_string(t) + "-" + std::to_string(i), "p-1", i);
          auto done = Write([&](Transaction& tx) { return tx.events().InsertEvents({&e, 1}); });
          if (done) continue;
          std::lock_guard lock(mutex);
          errors.push_back(Ok(done).message());
        }
      });
    }
  }
  EXPECT_TRUE(errors.empty()) << errors.size() << " failed writes, first: " << errors.front();
  auto rows = Read([](Transaction& tx) { return tx.events().ListRecentEvents("p-1", 10'000); });
  ASSERT_TRUE(Ok(rows));
  std::set<std::string> ids;
  for (const auto& row : *rows) ids.insert(row.id);
  EXPECT_EQ(rows->size(), std::size_t{kThreads * kWritesPerThread});
  EXPECT_EQ(ids.size(), rows->size());
}

// A read is one snapshot: a write committed between two of its statements is not seen by the
// second (a report lists the current rollup blocks, then reads their rows; a rebuild committed
// in between must not leave it reading a block that is gone).
TEST_P(StoreConformance, ReadSeesOneSnapshotWhileAWriteCommits) {
  ASSERT_TRUE(Ok(Write([](Transaction& tx) {
    return tx.accounts().InsertUser(MakeUser("u-before", "before@example.com"));
  })));
  auto seen = Read([&](Transaction& tx) -> Result<std::pair<bool, bool>> {
    auto before = tx.accounts().FindUserById("u-before");  // the snapshot starts here
    if (!before) return before.error();
    std::thread([&] {
      auto inserted = Write([](Transaction& other) {
        return other.accounts().InsertUser(MakeUser("u-during", "during@example.com"));
      });
      EXPECT_TRUE(Ok(inserted));
    }).join();
    auto during = tx.accounts().FindUserById("u-during");
    if (!during) return during.error();
    return std::pair(before->has_value(), during->has_value());
  });
  ASSERT_TRUE(Ok(seen));
  EXPECT_TRUE(seen->first);
  EXPECT_FALSE(seen->second) << "the read saw a write committed after its first statement";
  EXPECT_TRUE(ReadOk([](Transaction& tx) { return tx.accounts().FindUserById("u-during"); }));
}

// ---- Events and bot requests ---------------------------------------------------------------

TEST_P(StoreConformance, EventsRoundTripEveryFieldNewestFirst) {
  const std::vector<EventRecord> rows = {
      FullEvent("e-b", "p-1", 3000), SparseEvent("e-a", "p-1", 1000),
      FullEvent("e-c", "p-1", 3000),  // same time as e-b: ordered by id
      SparseEvent("e-d", "p-1", 2000), FullEvent("e-z", "p-2", 9000)};
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().InsertEvents(rows); })));

  for (std::size_t limit : {10, 3}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    auto listed = Read([&](Transaction& tx) { return tx.events().ListRecentEvents("p-1", limit); });
    ASSERT_TRUE(Ok(listed));
    ExpectSame(*listed, NewestFirst(rows, "p-1", limit));
  }
}

TEST_P(StoreConformance, BotRequestsRoundTripEveryFieldNewestFirst) {
  const std::vector<BotRequestRecord> rows = {
      FullBot("b-b", "p-1", 3000), MinimalBot("b-a", "p-1", 1000), FullBot("b-c", "p-1", 3000),
      MinimalBot("b-d", "p-1", 2000), FullBot("b-z", "p-2", 9000)};
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().InsertBotRequests(rows); })));

  for (std::size_t limit : {10, 3}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    auto listed =
        Read([&](Transaction& tx) { return tx.events().ListRecentBotRequests("p-1", limit); });
    ASSERT_TRUE(Ok(listed));
    ExpectSame(*listed, NewestFirst(rows, "p-1", limit));
  }
}

// ---- Sessions, identities, usage, notifications, the events feed ---------------------------

constexpr std::int64_t kInactivityMs = 30 * 60 * 1000;

TEST_P(StoreConformance, DailyVisitorSaltsAreCreatedOnceAndKeptTwoDays) {
  auto salt = [&](std::int64_t day, const char* candidate) {
    return WriteOk([&](Transaction& tx) { return tx.events().DailyVisitorSalt(day, candidate); });
  };
  EXPECT_EQ(salt(20000, "first"), "first") << "the first caller's candidate is stored";
  EXPECT_EQ(salt(20000, "second"), "first") << "a later caller (another node) reads it";
  EXPECT_EQ(salt(20001, "next"), "next") << "every day has its own";
  EXPECT_EQ(salt(20000, "again"), "first") << "yesterday's is still kept";
  // Two days later the salt of day 20000 is deleted (it lived 48 hours): asking for that day
  // again would make a new one, unrelated to the first.
  EXPECT_EQ(salt(20002, "third"), "third");
  EXPECT_EQ(salt(20001, "x"), "next");
  EXPECT_EQ(salt(20000, "fresh"), "fresh");
}

TEST_P(StoreConformance, EventsKeepTheirSourceChannelAndDailyVisitor) {
  SeedTwoProjects();
  EventRecord e = SparseEvent("e-1", "p-1", 1'763'000'000'000);
  e.traffic_source = "ChatGPT";
  e.traffic_channel = "AI Assistants";
  e.daily_visitor = "0123456789abcdef0123456789abcdef";
  const std::vector<EventRecord> inserted = {e};
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().InsertEvents(inserted); })));
  const auto rows = ReadOk([](Transaction& tx) {
    return tx.reports().ListRollupEvents("p-1", 1'762'000'000'000, 1'764'000'000'000);
  });
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].source, "ChatGPT");
  EXPECT_EQ(rows[0].channel, "AI Assistants");
  EXPECT_EQ(rows[0].visitor, *e.daily_visitor) << "the daily id counts as the visitor";
}

TEST_P(StoreConformance, VisitorSessionContinuesWithinTheWindowAndRestartsAfterIt) {
  SeedTwoProjects();
  auto touch = [&](const char* project, const char* visitor, const char* candidate,
                   std::int64_t at) {
    return WriteOk([&](Transaction& tx) {
      return tx.events().TouchVisitorSession(project, visitor, candidate, at, kInactivityMs);
    });
  };
  const std::int64_t t0 = 1'763'000'000'000;
  EXPECT_EQ(touch("p-1", "v-1", "s-1", t0), "s-1") << "a first touch starts the candidate";
  EXPECT_EQ(touch("p-1", "v-1", "s-2", t0 + kInactivityMs - 1), "s-1");
  // Within the window of the previous touch but not of t0: last_seen moved forward.
  const std::int64_t later = t0 + 2 * kInactivityMs - 2;
  EXPECT_EQ(touch("p-1", "v-1", "s-3", later), "s-1") << "last_seen did not move forward";
  // A gap of exactly the inactivity window is inactivity: the candidate takes over.
  const std::int64_t restart = later + kInactivityMs;
  EXPECT_EQ(touch("p-1", "v-1", "s-4", restart), "s-4");
  EXPECT_EQ(touch("p-1", "v-1", "s-5", restart), "s-4") << "the same instant continues it";

  // Out of order: older touches (one far older than the window) keep the current session...
  EXPECT_EQ(touch("p-1", "v-1", "s-6", restart - 1), "s-4");
  EXPECT_EQ(touch("p-1", "v-1", "s-7", restart - 5 * kInactivityMs), "s-4");
  // ...and leave last_seen where it was: measured from `restart - 1` this gap would be a window.
  EXPECT_EQ(touch("p-1", "v-1", "s-8", restart + kInactivityMs - 1), "s-4")
      << "an out-of-order touch moved last_seen backwards";

  // Other visitors (keys compare bytewise) and other projects have their own sessions.
  const std::int64_t now = restart + kInactivityMs;
  EXPECT_EQ(touch("p-1", "v-2", "s-9", now), "s-9");
  EXPECT_EQ(touch("p-1", "V-1", "s-10", now), "s-10");
  EXPECT_EQ(touch("p-2", "v-1", "s-11", now), "s-11");
  EXPECT_EQ(touch("p-2", "v-1", "s-12", now + 1), "s-11");
  EXPECT_EQ(touch("p-1", "v-2", "s-13", now + 2), "s-9");
  EXPECT_EQ(touch("p-1", "v-1", "s-14", now), "s-4") << "the other touches disturbed v-1";
}

TEST_P(StoreConformance, PutVisitorSessionOverwritesSessionAndLastSeen) {
  SeedTwoProjects();
  auto touch = [&](const char* project, const char* visitor, const char* candidate,
                   std::int64_t at) {
    return WriteOk([&](Transaction& tx) {
      return tx.events().TouchVisitorSession(project, visitor, candidate, at, kInactivityMs);
    });
  };
  auto put = [&](const char* visitor, const char* session, std::int64_t last_seen) {
    EXPECT_TRUE(Ok(Write([&](Transaction& tx) {
      return tx.events().PutVisitorSession("p-1", visitor, session, last_seen);
    })));
  };

  put("v-1", "forced-1", 10'000);  // a visitor never touched: inserted
  EXPECT_EQ(touch("p-1", "v-1", "c-1", 10'000 + kInactivityMs - 1), "forced-1");

  // As the event writer does it: touch, then set the outcome, in one transaction.
  auto touched = Write([&](Transaction& tx) -> Result<std::string> {
    auto session = tx.events().TouchVisitorSession("p-1", "v-1", "c-2", 20'000, kInactivityMs);
    if (!session) return session;
    if (auto r = tx.events().PutVisitorSession("p-1", "v-1", "forced-2", 500'000); !r)
      return r.error();
    return session;
  });
  ASSERT_TRUE(Ok(touched));
  EXPECT_EQ(*touched, "forced-1");
  EXPECT_EQ(touch("p-1", "v-1", "c-3", 500'000 + kInactivityMs - 1), "forced-2");
  EXPECT_EQ(touch("p-1", "v-1", "c-4", 500'000 + 2 * kInactivityMs - 1), "c-4")
      << "the window counts from the last touch";

  // Outright, even backwards in time: the next touch measures from the value put.
  put("v-1", "forced-3", 1'000);
  EXPECT_EQ(touch("p-1", "v-1", "c-5", 1'000 + kInactivityMs), "c-5");
  put("v-1", "forced-4", 1'000);
  EXPECT_EQ(touch("p-1", "v-1", "c-6", 1'000 + kInactivityMs - 1), "forced-4");

  // Per visitor and per project.
  put("v-2", "forced-5", 1'000);
  EXPECT_EQ(touch("p-2", "v-2", "c-7", 1'000), "c-7");
  EXPECT_EQ(touch("p-1", "v-2", "c-8", 1'000), "forced-5");
}

TEST_P(StoreConformance, ConcurrentTouchesOfOneVisitorAgreeOnTheSession) {
  SeedProject();
  constexpr int kThreads = 4;
  constexpr int kVisitors = 25;
  std::mutex mutex;
  // seen[v]: the sessions returned for visitor v, through Write and through WriteOne.
  std::vector<std::set<std::string>> seen(kVisitors), seen_autocommit(kVisitors);
  std::vector<std::string> errors;
  std::latch start(kThreads);
  {
    std::vector<std::jthread> touchers;
    for (int t = 0; t < kThreads; ++t) {
      touchers.emplace_back([&, t] {
        start.arrive_and_wait();
        for (int v = 0; v < kVisitors; ++v) {
          const std::string candidate = "s-" + std::to_string(v) + "-" + std::to_string(t);
          auto body = [&](const std::string& visitor) {
            return [&, visitor](Transaction& tx) {
              return tx.events().TouchVisitorSession("p-1", visitor, candidate, 1000 + t,
                                                     kInactivityMs);
            };
          };
          auto session = Write(body("v-" + std::to_string(v)));
          auto autocommit = store().WriteOne(body("w-" + std::to_string(v)));
          std::lock_guard lock(mutex);
          for (auto [result, sessions] :
               {std::pair(&session, &seen), {&autocommit, &seen_autocommit}}) {
            if (*result) {
              (*sessions)[v].insert(**result);
            } else {
              errors.push_back(Ok(*result).message());
            }
          }
        }
      });
    }
  }
  ASSERT_TRUE(errors.empty()) << errors.size() << " failed touches, first: " << errors.front();
  for (int v = 0; v < kVisitors; ++v) {
    for (const auto* sessions : {&seen, &seen_autocommit}) {
      const std::string visitor = (sessions == &seen ? "v-" : "w-") + std::to_string(v);
      SCOPED_TRACE(visitor);
      ASSERT_EQ((*sessions)[v].size(), 1u) << "the touches disagree";
      const std::string session = *(*sessions)[v].begin();
      EXPECT_TRUE(session.starts_with("s-" + std::to_string(v) + "-")) << session;
      EXPECT_EQ(WriteOk([&](Transaction& tx) {
                  return tx.events().TouchVisitorSession("p-1", visitor, "later", 2000,
                                                         kInactivityMs);
                }),
                session);
    }
  }
}

TEST_P(StoreConformance, IdentityLastWriteWinsPerProject) {
  SeedTwoProjects();
  auto put = [&](const IdentityRecord& identity) {
    EXPECT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().PutIdentity(identity); })));
  };
  auto find = [&](const char* project, const char* anonymous_id) {
    return ReadOk([&](Transaction& tx) { return tx.events().FindIdentity(project, anonymous_id); });
  };
  const IdentityRecord first{"p-1", "anon-1", "user-1", R"({"plan":"free","name":"Zoë ✓"})",
                             1000, 1000};
  const IdentityRecord elsewhere{"p-2", "anon-1", "user-9", R"({"plan":"team"})", 1500, 1500};
  IdentityRecord defaults;  // traits keep the record's "{}"
  defaults.project_id = "p-1", defaults.anonymous_id = "anon-2", defaults.user_id = "user-2";
  defaults.created_at = defaults.updated_at = 1200;
  put(first);
  put(elsewhere);
  put(defaults);
  ExpectSame(find("p-1", "anon-1"), std::optional(first));
  ExpectSame(find("p-2", "anon-1"), std::optional(elsewhere));
  ExpectSame(find("p-1", "anon-2"), std::optional(defaults));
  EXPECT_EQ(find("p-1", "anon-2")->traits_json, "{}");

  // The link is replaced (user_id, traits, updated_at); the row keeps its first created_at.
  const IdentityRecord second{"p-1", "anon-1", "user-3", R"({"plan":"pro"})", 5000, 5000};
  put(second);
  IdentityRecord expected = second;
  expected.created_at = first.created_at;
  ExpectSame(find("p-1", "anon-1"), std::optional(expected));
  // The last write wins even with an older timestamp: the store does not compare them.
  const IdentityRecord third{"p-1", "anon-1", "user-4", "{}", 4000, 4000};
  put(third);
  expected = third;
  expected.created_at = first.created_at;
  ExpectSame(find("p-1", "anon-1"), std::optional(expected));

  ExpectSame(find("p-2", "anon-1"), std::optional(elsewhere));  // another project's identity
  ExpectSame(find("p-1", "anon-2"), std::optional(defaults));
  EXPECT_FALSE(find("p-1", "anon-3"));
  EXPECT_FALSE(find("p-1", "ANON-1"));
  EXPECT_FALSE(find("p-9", "anon-1"));
  EXPECT_FALSE(find("p-2", "anon-2"));
}

TEST_P(StoreConformance, BotRangeListsKeepTheLastGoodCopyPerList) {
  auto put = [&](const BotRangeListRecord& list) {
    EXPECT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().PutBotRangeList(list); })));
  };
  auto lists = [&] {
    return ReadOk([](Transaction& tx) { return tx.events().ListBotRangeLists(); });
  };
  EXPECT_TRUE(lists().empty());
  put({"gptbot", R"({"prefixes":[]})", 1000});
  put({"bingbot", R"({"prefixes":[{"ipv4Prefix":"157.55.39.0/24"}]})", 2000});
  put({"gptbot", R"({"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]})", 3000});
  const auto stored = lists();
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_EQ(stored[0].list_id, "bingbot");
  EXPECT_EQ(stored[1].list_id, "gptbot");
  EXPECT_EQ(stored[1].body, R"({"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]})") << "replaced";
  EXPECT_EQ(stored[1].fetched_at, 3000);
}

TEST_P(StoreConformance, UsageAccumulatesPerProjectAndMonthNewestFirst) {
  SeedTwoProjects();
  auto add = [&](const UsageRecord& delta) {
    EXPECT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().AddUsage(delta); })));
  };
  auto list = [&](const char* project) {
    return ReadOk([&](Transaction& tx) { return tx.events().ListUsage(project); });
  };
  EXPECT_TRUE(list("p-1").empty());
  add({"p-1", "2026-11", 3, 1});
  add({"p-1", "2026-11", 2, 5});
  add({"p-1", "2026-09", 1, 0});
  add({"p-2", "2026-11", 10, 20});
  add({"p-1", "2027-01", 0, 0});  // creates the month at zero
  add({"p-1", "2026-12", 0, 7});
  add({"p-1", "2026-11", 0, 0});
  // Several deltas in one transaction add up too.
  ASSERT_TRUE(Ok(Write([](Transaction& tx) -> Result<void> {
    if (auto r = tx.events().AddUsage({"p-1", "2026-09", 4, 4}); !r) return r;
    return tx.events().AddUsage({"p-1", "2026-09", 5, 0});
  })));

  ExpectSame(list("p-1"), std::vector<UsageRecord>{{"p-1", "2027-01", 0, 0},
                                                   {"p-1", "2026-12", 0, 7},
                                                   {"p-1", "2026-11", 5, 6},
                                                   {"p-1", "2026-09", 10, 4}});
  ExpectSame(list("p-2"), std::vector<UsageRecord>{{"p-2", "2026-11", 10, 20}});
  EXPECT_TRUE(list("p-9").empty());
}

NotificationRecord MakeNotification(std::string id, std::string project_id,
                                    std::int64_t created_at) {
  NotificationRecord n;
  n.id = std::move(id);
  n.project_id = std::move(project_id);
  n.event_id = "e-" + n.id;
  n.event = "Signed Up";
  n.channel = "signups";
  n.created_at = created_at;
  return n;
}

// What ListNotifications (newest first, before the cursor) should return.
std::vector<NotificationRecord> ExpectedNotifications(
    std::vector<NotificationRecord> rows, std::string_view project_id,
    std::optional<std::pair<std::int64_t, std::string>> before, std::size_t limit) {
  std::erase_if(rows, [&](const NotificationRecord& n) {
    return n.project_id != project_id ||
           (before && std::tie(n.created_at, n.id) >= std::tie(before->first, before->second));
  });
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return std::tie(a.created_at, a.id) > std::tie(b.created_at, b.id);
  });
  rows.resize(std::min(limit, rows.size()));
  return rows;
}

// What ListNotificationsAfter (oldest first, after the cursor) should return.
std::vector<NotificationRecord> ExpectedNotificationsAfter(
    std::vector<NotificationRecord> rows, std::string_view project_id,
    const std::pair<std::int64_t, std::string>& after, std::size_t limit) {
  std::erase_if(rows, [&](const NotificationRecord& n) {
    return n.project_id != project_id ||
           std::tie(n.created_at, n.id) <= std::tie(after.first, after.second);
  });
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return std::tie(a.created_at, a.id) < std::tie(b.created_at, b.id);
  });
  rows.resize(std::min(limit, rows.size()));
  return rows;
}

std::vector<std::string> Ids(const auto& rows) {
  std::vector<std::string> ids;
  for (const auto& row : rows) ids.push_back(row.id);
  return ids;
}

TEST_P(StoreConformance, NotificationsPageNewestFirstAndStreamOldestFirst) {
  SeedTwoProjects();
  // Seven in p-1 with ties on created_at (ids not in time order), two in p-2: nine rows, so
  // the insert takes an 8-row and a 1-row statement.
  std::vector<NotificationRecord> rows = {
      MakeNotification("n-4", "p-1", 1000), MakeNotification("n-2", "p-1", 2000),
      MakeNotification("n-7", "p-1", 2000), MakeNotification("n-8", "p-2", 2500),
      MakeNotification("n-1", "p-1", 2000), MakeNotification("n-5", "p-1", 3000),
      MakeNotification("n-3", "p-1", 1000), MakeNotification("n-9", "p-2", 5000),
      MakeNotification("n-6", "p-1", 4000)};
  rows[1].icon = "🚀", rows[1].description = "Ünïcode \"quoted\"\nline";
  rows[1].user_id = "u-7";
  rows[4].user_id = "u-8";
  rows[6].channel = "payments", rows[6].event = "Checkout ✓";
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().InsertNotifications(rows); })));

  using Cursor = std::pair<std::int64_t, std::string>;
  auto list = [&](const char* project, std::optional<Cursor> before, std::size_t limit) {
    return ReadOk(
        [&](Transaction& tx) { return tx.events().ListNotifications(project, before, limit); });
  };
  auto after = [&](const char* project, const Cursor& cursor, std::size_t limit) {
    return ReadOk([&](Transaction& tx) {
      return tx.events().ListNotificationsAfter(project, cursor, limit);
    });
  };

  const auto newest_first = ExpectedNotifications(rows, "p-1", std::nullopt, 100);
  ASSERT_EQ(Ids(newest_first),
            (std::vector<std::string>{"n-6", "n-5", "n-7", "n-2", "n-1", "n-4", "n-3"}));
  ExpectSame(list("p-1", std::nullopt, 100), newest_first);
  ExpectSame(list("p-2", std::nullopt, 100), ExpectedNotifications(rows, "p-2", std::nullopt, 100));
  EXPECT_TRUE(list("p-9", std::nullopt, 100).empty());
  ExpectSame(list("p-1", std::nullopt, 3), ExpectedNotifications(rows, "p-1", std::nullopt, 3));

  // Paging by 3 splits the 2000 and the 1000 ties across pages and visits each row once.
  std::vector<NotificationRecord> walked;
  std::vector<std::size_t> page_sizes;
  std::optional<Cursor> before;
  for (int page = 0; page < 10; ++page) {
    auto rows_of_page = list("p-1", before, 3);
    ExpectSame(rows_of_page, ExpectedNotifications(rows, "p-1", before, 3));
    page_sizes.push_back(rows_of_page.size());
    if (rows_of_page.empty()) break;
    before = Cursor{rows_of_page.back().created_at, rows_of_page.back().id};
    walked.insert(walked.end(), rows_of_page.begin(), rows_of_page.end());
  }
  EXPECT_EQ(page_sizes, (std::vector<std::size_t>{3, 3, 1, 0}));
  ExpectSame(walked, newest_first);
  // A cursor between rows of equal created_at, and one that is no row at all.
  ExpectSame(list("p-1", Cursor{2000, "n-2"}, 100),
             ExpectedNotifications(rows, "p-1", Cursor{2000, "n-2"}, 100));
  EXPECT_EQ(Ids(list("p-1", Cursor{2000, "n-3"}, 100)),
            (std::vector<std::string>{"n-2", "n-1", "n-4", "n-3"}));

  // The stream: oldest first, strictly after (created_at, id).
  const auto oldest_first = ExpectedNotificationsAfter(rows, "p-1", {0, ""}, 100);
  ASSERT_EQ(Ids(oldest_first),
            (std::vector<std::string>{"n-3", "n-4", "n-1", "n-2", "n-7", "n-5", "n-6"}));
  ExpectSame(after("p-1", {0, ""}, 100), oldest_first);
  EXPECT_EQ(Ids(after("p-1", {2000, "n-1"}, 3)), (std::vector<std::string>{"n-2", "n-7", "n-5"}));
  EXPECT_EQ(Ids(after("p-1", {2000, "n-7"}, 100)), (std::vector<std::string>{"n-5", "n-6"}));
  EXPECT_EQ(Ids(after("p-1", {1500, "zzz"}, 100)),
            (std::vector<std::string>{"n-1", "n-2", "n-7", "n-5", "n-6"}));
  EXPECT_TRUE(after("p-1", {4000, "n-6"}, 100).empty());
  ExpectSame(after("p-2", {0, ""}, 100), ExpectedNotificationsAfter(rows, "p-2", {0, ""}, 100));
  EXPECT_TRUE(after("p-9", {0, ""}, 100).empty());
  Cursor cursor{0, ""};
  walked.clear();
  for (int poll = 0; poll < 10; ++poll) {
    auto next = after("p-1", cursor, 3);
    ExpectSame(next, ExpectedNotificationsAfter(rows, "p-1", cursor, 3));
    if (next.empty()) break;
    cursor = {next.back().created_at, next.back().id};
    walked.insert(walked.end(), next.begin(), next.end());
  }
  ExpectSame(walked, oldest_first);

  // Notification ids are unique; a clash fails the whole batch.
  const std::vector<NotificationRecord> clash = {MakeNotification("n-10", "p-1", 6000),
                                                 MakeNotification("n-1", "p-1", 6000)};
  EXPECT_TRUE(
      IsError(Write([&](Transaction& tx) { return tx.events().InsertNotifications(clash); }),
              ErrorCode::kConflict));
  ExpectSame(list("p-1", std::nullopt, 100), newest_first);
}

// What ListEvents should return, computed over every row inserted.
std::vector<EventRecord> ExpectedEvents(std::vector<EventRecord> rows, const EventQuery& q) {
  std::erase_if(rows, [&](const EventRecord& e) {
    return e.project_id != q.project_id || (q.channel && e.channel != *q.channel) ||
           (q.event && e.event != *q.event) || (q.user_id && e.user_id != q.user_id) ||
           (q.from && e.occurred_at < *q.from) || (q.to && e.occurred_at >= *q.to) ||
           (q.before &&
            std::tie(e.occurred_at, e.id) >= std::tie(q.before->first, q.before->second));
  });
  return NewestFirst(std::move(rows), q.project_id, q.limit);
}

// 30 events with tied times, two channels and event names, some users: 27 in p-1 and 3 in
// p-2 of the same shapes (one of p-2's with a user no p-1 event has).
std::vector<EventRecord> FeedRows() {
  std::vector<EventRecord> rows;
  for (int i = 0; i < 30; ++i) {
    char id[8];
    // Ids not in time order, some upper case: ties order bytewise ("E-.." before "e-..").
    std::snprintf(id, sizeof id, i % 4 == 1 ? "E-%02d" : "e-%02d", (i * 11) % 30);
    const std::string project = i % 10 == 9 ? "p-2" : "p-1";
    const std::int64_t at = 1000 + (i % 7) * 10;
    EventRecord e = i % 5 == 0 ? FullEvent(id, project, at) : SparseEvent(id, project, at);
    e.channel = i % 3 == 0 ? "payments" : "signups";
    e.event = i % 2 == 0 ? "Upgraded" : "Signed Up";
    e.user_id = i % 4 == 0 ? std::nullopt : std::optional("u-" + std::to_string(i % 3));
    if (i == 29) e.user_id = "u-elsewhere";
    rows.push_back(std::move(e));
  }
  return rows;
}

std::string QueryText(const EventQuery& q) {
  std::string out = q.project_id;
  for (const auto& [name, value] : {std::pair("channel", q.channel), {"event", q.event},
                                    {"user_id", q.user_id}}) {
    if (value) out += std::string(" ") + name + "=" + *value;
  }
  if (q.from) out += " from=" + std::to_string(*q.from);
  if (q.to) out += " to=" + std::to_string(*q.to);
  if (q.before) out += " before=" + std::to_string(q.before->first) + "/" + q.before->second;
  return out + " limit=" + std::to_string(q.limit);
}

TEST_P(StoreConformance, EventsFeedFiltersOrdersAndPaginates) {
  SeedTwoProjects();
  const std::vector<EventRecord> rows = FeedRows();
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().InsertEvents(rows); })));
  using Cursor = std::pair<std::int64_t, std::string>;
  const EventQuery all{.project_id = "p-1"};
  std::vector<EventQuery> queries = {all, {.project_id = "p-2"}, {.project_id = "p-9"}};
  queries.push_back({.project_id = "p-1", .channel = "payments"});
  queries.push_back({.project_id = "p-1", .event = "Signed Up"});
  queries.push_back({.project_id = "p-1", .user_id = "u-1"});
  queries.push_back({.project_id = "p-1", .user_id = "u-elsewhere"});  // only in p-2
  queries.push_back({.project_id = "p-2", .user_id = "u-elsewhere"});
  queries.push_back({.project_id = "p-1", .channel = "nope"});
  queries.push_back({.project_id = "p-1", .from = 1030});  // inclusive: rows at 1030 exist
  queries.push_back({.project_id = "p-1", .to = 1030});    // exclusive
  queries.push_back({.project_id = "p-1", .from = 1010, .to = 1050});
  queries.push_back({.project_id = "p-1", .from = 1030, .to = 1030});
  queries.push_back({.project_id = "p-1", .before = Cursor(1030, "e-11")});
  queries.push_back({.project_id = "p-1", .before = Cursor(1030, "a")});  // "E-07" < "a"
  queries.push_back({.project_id = "p-1", .limit = 5});
  queries.push_back({.project_id = "p-1", .channel = "signups", .event = "Upgraded"});
  queries.push_back({.project_id = "p-1",
                     .channel = "signups",
                     .event = "Signed Up",
                     .user_id = "u-2",
                     .from = 1010,
                     .to = 1060,
                     .before = Cursor(1050, "e-99"),
                     .limit = 3});
  queries.push_back(
      {.project_id = "p-1", .channel = "payments", .before = Cursor(1030, "e-11"), .limit = 2});
  for (const EventQuery& q : queries) {
    SCOPED_TRACE(QueryText(q));
    ExpectSame(ReadOk([&](Transaction& tx) { return tx.events().ListEvents(q); }),
               ExpectedEvents(rows, q));
  }
  // The model itself: the filters select what they say (and the queries are not vacuous).
  ASSERT_EQ(ExpectedEvents(rows, all).size(), 27u);
  auto count = [&](EventQuery q) { return ExpectedEvents(rows, q).size(); };
  EXPECT_GT(count({.project_id = "p-1", .from = 1030, .to = 1040}), 0u) << "no row at 1030";
  EXPECT_EQ(count({.project_id = "p-1", .user_id = "u-elsewhere"}), 0u);
  EXPECT_EQ(count({.project_id = "p-2", .user_id = "u-elsewhere"}), 1u);
  EXPECT_GT(count({.project_id = "p-1",
                   .channel = "signups",
                   .event = "Signed Up",
                   .user_id = "u-2",
                   .from = 1010,
                   .to = 1060}),
            1u);

  // Walking the cursor visits every row once, in order, with or without filters; the pages
  // end inside groups of equal occurred_at.
  for (EventQuery q : {all, EventQuery{.project_id = "p-1", .channel = "signups"},
                       EventQuery{.project_id = "p-1", .user_id = "u-1", .from = 1010}}) {
    SCOPED_TRACE(QueryText(q));
    const std::vector<EventRecord> expected = ExpectedEvents(rows, q);
    q.limit = 4;
    std::vector<EventRecord> walked;
    for (int page = 0; page < 20; ++page) {
      auto rows_of_page = ReadOk([&](Transaction& tx) { return tx.events().ListEvents(q); });
      if (rows_of_page.empty()) break;
      q.before = Cursor{rows_of_page.back().occurred_at, rows_of_page.back().id};
      walked.insert(walked.end(), rows_of_page.begin(), rows_of_page.end());
    }
    ExpectSame(walked, expected);
  }
}

TEST_P(StoreConformance, InsertEventsWritesEveryRowOfALargeBatch) {
  SeedTwoProjects();
  // 300 = 2×128 + 32 + 8 + 4×1: every statement shape of the multi-row insert, rows of both
  // projects mixed, full and sparse rows alternating.
  constexpr int kRows = 300;
  std::vector<EventRecord> rows;
  for (int i = 0; i < kRows; ++i) {
    char id[8];
    std::snprintf(id, sizeof id, "e-%03d", (i * 7) % kRows);
    const std::string project = i % 10 == 0 ? "p-2" : "p-1";
    const std::int64_t at = 1000 + i % 50;
    rows.push_back(i % 2 == 1 ? FullEvent(id, project, at) : SparseEvent(id, project, at));
  }
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().InsertEvents(rows); })));

  auto list = [&](const char* project) {
    return ReadOk([&](Transaction& tx) {
      return tx.events().ListEvents({.project_id = project, .limit = 10'000});
    });
  };
  const std::vector<EventRecord> listed = list("p-1");
  EXPECT_EQ(listed.size(), 270u);
  EXPECT_EQ(list("p-2").size(), 30u);
  ExpectSame(listed, NewestFirst(rows, "p-1", 10'000));  // every field of every row
  // The last row went in alone (the 1-row statement): a full one, every field as written.
  const EventRecord& last = rows.back();
  ASSERT_EQ(last.ip, std::optional<std::string>("2001:db8::1")) << "not a FullEvent";
  auto stored = std::find_if(listed.begin(), listed.end(),
                             [&](const EventRecord& e) { return e.id == last.id; });
  ASSERT_NE(stored, listed.end());
  ExpectSame(std::optional(*stored), std::optional(FullEvent(last.id, "p-1", last.occurred_at)));

  // A batch that clashes in its last (1-row) statement leaves none of its 300 rows behind.
  std::vector<EventRecord> again;
  for (int i = 0; i < kRows; ++i) {
    again.push_back(SparseEvent("f-" + std::to_string(i), "p-1", 5000 + i));
  }
  again.back().id = rows.front().id;
  EXPECT_TRUE(IsError(Write([&](Transaction& tx) { return tx.events().InsertEvents(again); }),
                      ErrorCode::kConflict));
  EXPECT_EQ(list("p-1").size(), 270u);
}

// ---- Bootstrap -----------------------------------------------------------------------------

void ExpectWellFormedKeys(const identity::BootstrapResult& result) {
  EXPECT_TRUE(std::regex_match(result.sdk_key, std::regex("pk_service_[0-9A-Za-z]{32}")))
      << result.sdk_key;
  EXPECT_TRUE(std::regex_match(result.private_api_key, std::regex("sk_service_[0-9A-Za-z]{32}")))
      << result.private_api_key;
}

TEST_P(StoreConformance, BootstrapIsIdempotentAndRotatesKeys) {
  core::ManualClock clock(1'763'000'000'000);
  const identity::BootstrapRequest request{"Owner@Example.com", "correct horse battery staple",
                                           "Acme Inc.", "Website"};
  auto first = identity::Bootstrap(store(), clock, request);
  ASSERT_TRUE(Ok(first));
  clock.Advance(std::chrono::minutes(5));
  auto second = identity::Bootstrap(store(), clock, request);
  ASSERT_TRUE(Ok(second));

  EXPECT_TRUE(first->user_created);
  EXPECT_FALSE(second->user_created);
  EXPECT_EQ(second->user_id, first->user_id);
  EXPECT_EQ(second->organization_slug, "acme-inc");
  EXPECT_EQ(second->organization_slug, first->organization_slug);
  EXPECT_EQ(second->project_id, first->project_id);
  EXPECT_NE(second->sdk_key, first->sdk_key);
  EXPECT_NE(second->private_api_key, first->private_api_key);
  ExpectWellFormedKeys(*first);
  ExpectWellFormedKeys(*second);

  auto user =
      ReadOk([](Transaction& tx) { return tx.accounts().FindUserByEmail("owner@example.com"); });
  ASSERT_TRUE(user.has_value()) << "the email is stored lowercased";
  EXPECT_EQ(user->id, first->user_id);

  const std::int64_t rotated_at = clock.NowMillis();
  const std::vector<std::tuple<std::string, KeyKind, std::optional<std::int64_t>>> expected = {
      {first->sdk_key, KeyKind::kSdk, rotated_at},
      {first->private_api_key, KeyKind::kPrivate, rotated_at},
      {second->sdk_key, KeyKind::kSdk, std::nullopt},
      {second->private_api_key, KeyKind::kPrivate, std::nullopt}};
  for (const auto& [key, kind, revoked_at] : expected) {
    SCOPED_TRACE(identity::DisplayPrefix(key));
    const std::string hash = identity::HashKey(key);
    auto stored = ReadOk([&](Transaction& tx) { return tx.accounts().FindApiKeyByHash(hash); });
    ASSERT_TRUE(stored.has_value());
    EXPECT_NE(stored->secret_hash, key);
    EXPECT_EQ(stored->kind, kind);
    EXPECT_EQ(stored->name, "bootstrap");
    EXPECT_EQ(stored->project_id, first->project_id);
    EXPECT_EQ(stored->revoked_at, revoked_at);
  }
  EXPECT_EQ(
      ReadOk([&](Transaction& tx) { return tx.accounts().ListApiKeys(first->project_id); }).size(),
      4u);
}

// ---- Randomized, against a model -----------------------------------------------------------

template <class Map, class Pred>
std::optional<typename Map::mapped_type> FindIf(const Map& map, Pred pred) {
  for (const auto& [key, row] : map) {
    if (pred(row)) return row;
  }
  return std::nullopt;
}

template <class Map>
std::optional<typename Map::mapped_type> Get(const Map& map, const typename Map::key_type& key) {
  auto found = map.find(key);
  if (found == map.end()) return std::nullopt;
  return found->second;
}

// The identity tables as plain maps, with the store's unique keys, upsert and ordering rules.
struct ModelStore {
  std::map<std::string, UserRecord> users;
  std::map<std::string, OrganizationRecord> orgs;
  std::map<std::pair<std::string, std::string>, MembershipRecord> members;
  std::map<std::string, ProjectRecord> projects;
  std::map<std::string, ApiKeyRecord> keys;

  // Each Insert returns false for a unique-key clash and then changes nothing.
  bool InsertUser(const UserRecord& u) {
    if (users.contains(u.id) || FindIf(users, [&](auto& x) { return x.email == u.email; })) {
      return false;
    }
    return users.emplace(u.id, u).second;
  }
  bool InsertOrg(const OrganizationRecord& o) {
    if (orgs.contains(o.id) || FindIf(orgs, [&](auto& x) { return x.slug == o.slug; })) {
      return false;
    }
    return orgs.emplace(o.id, o).second;
  }
  bool InsertKey(const ApiKeyRecord& k) {
    if (keys.contains(k.id) ||
        FindIf(keys, [&](auto& x) { return x.secret_hash == k.secret_hash; })) {
      return false;
    }
    return keys.emplace(k.id, k).second;
  }
  void PutMembership(const MembershipRecord& m) {
    auto [it, inserted] = members.try_emplace({m.organization_id, m.user_id}, m);
    if (!inserted) it->second.role = m.role;
  }
  bool RevokeKey(const std::string& id, std::int64_t at) {
    auto it = keys.find(id);
    if (it == keys.end() || it->second.revoked_at) return false;
    it->second.revoked_at = at;
    return true;
  }
  std::optional<ProjectRecord> FindProjectByName(const std::string& org_id,
                                                 const std::string& name) const {
    std::optional<ProjectRecord> first;
    for (const auto& [id, p] : projects) {
      if (p.organization_id != org_id || p.name != name) continue;
      if (!first || std::tie(p.created_at, p.id) < std::tie(first->created_at, first->id)) {
        first = p;
      }
    }
    return first;
  }
  std::vector<ApiKeyRecord> ListKeys(const std::string& project_id) const {
    std::vector<ApiKeyRecord> out;
    for (const auto& [id, k] : keys) {
      if (k.project_id == project_id) out.push_back(k);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return std::tie(a.created_at, a.id) < std::tie(b.created_at, b.id);
    });
    return out;
  }
  std::vector<ProjectRecord> ListProjects(const std::string& org_id) const {
    std::vector<ProjectRecord> out;
    for (const auto& [id, p] : projects) {
      if (p.organization_id == org_id) out.push_back(p);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return std::tie(a.created_at, a.id) < std::tie(b.created_at, b.id);
    });
    return out;
  }
  std::vector<MemberRecord> ListMembers(const std::string& org_id) const {
    std::vector<MemberRecord> out;
    for (const auto& [key, m] : members) {
      if (key.first == org_id) out.push_back({users.at(key.second), m.role, m.created_at});
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return std::tie(a.joined_at, a.user.id) < std::tie(b.joined_at, b.user.id);
    });
    return out;
  }
  std::vector<MembershipOfUser> ListOrganizationsOfUser(const std::string& user_id) const {
    std::vector<MembershipOfUser> out;
    for (const auto& [key, m] : members) {
      if (key.second == user_id) out.push_back({orgs.at(key.first), m.role});
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return std::tie(a.organization.name, a.organization.id) <
             std::tie(b.organization.name, b.organization.id);
    });
    return out;
  }
  std::int64_t CountMembersWithRole(const std::string& org_id, const std::string& role) const {
    return std::count_if(members.begin(), members.end(), [&](const auto& entry) {
      return entry.first.first == org_id && entry.second.role == role;
    });
  }
  // The deletes follow the schema's cascades: a project takes its keys, an organization its
  // memberships and projects (and so their keys). Deleted ids are remembered in `gone`.
  bool DeleteProject(const std::string& id) {
    EraseIf(keys, [&](const ApiKeyRecord& k) { return k.project_id == id; });
    return EraseIf(projects, [&](const ProjectRecord& p) { return p.id == id; });
  }
  bool DeleteOrganization(const std::string& id) {
    std::erase_if(members, [&](const auto& entry) { return entry.first.first == id; });
    EraseIf(keys, [&](const ApiKeyRecord& k) { return k.organization_id == id; });
    EraseIf(projects, [&](const ProjectRecord& p) { return p.organization_id == id; });
    return EraseIf(orgs, [&](const OrganizationRecord& o) { return o.id == id; });
  }
  template <class Map, class Pred>
  bool EraseIf(Map& map, Pred pred) {
    return std::erase_if(map, [&](const auto& entry) {
             const bool erase = pred(entry.second);
             if (erase) gone.insert(entry.first);
             return erase;
           }) > 0;
  }
  std::set<std::string> gone;
};

constexpr auto kFindUser = [](Transaction& tx, std::string_view id) {
  return tx.accounts().FindUserById(id);
};
constexpr auto kFindOrg = [](Transaction& tx, std::string_view id) {
  return tx.accounts().FindOrganizationById(id);
};
constexpr auto kFindProject = [](Transaction& tx, std::string_view id) {
  return tx.accounts().FindProject(id);
};

// Applies one random operation at a time to the store and the model, and compares.
class RandomizedRun {
 public:
  RandomizedRun(Store& store, std::uint32_t seed) : store_(store), rng_(seed) {}

  void Step() {
    using Op = void (RandomizedRun::*)();
    static constexpr Op kOps[] = {
        &RandomizedRun::InsertUser,        &RandomizedRun::InsertOrg,
        &RandomizedRun::PutMembership,     &RandomizedRun::InsertProject,
        &RandomizedRun::InsertKey,         &RandomizedRun::RevokeKey,
        &RandomizedRun::FindUser,          &RandomizedRun::FindOrg,
        &RandomizedRun::FindByUniqueKey,   &RandomizedRun::FindProjectByName,
        &RandomizedRun::ListKeys,          &RandomizedRun::SetTwoFactor,
        &RandomizedRun::DeleteMembership,  &RandomizedRun::ListMemberships,
        &RandomizedRun::ListProjects,      &RandomizedRun::DeleteProject,
        &RandomizedRun::DeleteOrganization};
    (this->*kOps[Uniform(std::size(kOps))])();
  }

  // Every row the model holds, read back from the store.
  void CheckEverything() {
    for (const auto& [id, user] : model_.users) Check(id, model_.users, kFindUser);
    for (const auto& [id, org] : model_.orgs) Check(id, model_.orgs, kFindOrg);
    for (const auto& [id, p] : model_.projects) Check(id, model_.projects, kFindProject);
    for (const auto& [id, k] : model_.keys) {
      ExpectSame(ReadOk(store_, [&](Transaction& tx) { return tx.accounts().FindApiKey(id); }),
                 std::optional(k));
    }
    for (const std::string& id : model_.gone) {
      EXPECT_FALSE(
          ReadOk(store_, [&](Transaction& tx) { return tx.accounts().FindOrganizationById(id); }));
      EXPECT_FALSE(ReadOk(store_, [&](Transaction& tx) { return tx.accounts().FindProject(id); }));
      EXPECT_FALSE(ReadOk(store_, [&](Transaction& tx) { return tx.accounts().FindApiKey(id); }));
    }
    for (const auto& [key, m] : model_.members) {
      ExpectSame(ReadOk(store_,
                        [&](Transaction& tx) {
                          return tx.accounts().FindMembership(key.first, key.second);
                        }),
                 std::optional(m));
    }
  }

 private:
  int Uniform(std::size_t n) {
    return std::uniform_int_distribution<int>(0, static_cast<int>(n) - 1)(rng_);
  }
  std::string NextId(const char* prefix) {
    char id[16];
    std::snprintf(id, sizeof id, "%s-%04d", prefix, ++next_id_);
    return id;
  }
  // Timestamps collide often, so the (created_at, id) tie-breaks get exercised.
  std::int64_t Time() { return 1000 + Uniform(4); }

  // An existing key, sometimes a missing one (or always, when the map is empty).
  template <class Map>
  std::string PickId(const Map& map) {
    if (map.empty() || Uniform(6) == 0) return "missing-" + std::to_string(Uniform(100));
    return std::next(map.begin(), Uniform(map.size()))->first;
  }
  // Sometimes an id already taken, to hit the primary-key clash.
  template <class Map>
  std::string FreshOrTakenId(const Map& map, const char* prefix) {
    if (!map.empty() && Uniform(10) == 0) return PickId(map);
    return NextId(prefix);
  }

  void ExpectInsert(const Result<void>& actual, bool model_accepted) {
    if (model_accepted) {
      EXPECT_TRUE(Ok(actual));
    } else {
      EXPECT_TRUE(IsError(actual, ErrorCode::kConflict));
    }
  }

  void InsertUser() {
    UserRecord user = MakeUser(FreshOrTakenId(model_.users, "u"),
                               "user" + std::to_string(Uniform(25)) + "@example.com");
    user.created_at = Time();
    ExpectInsert(store_.Write([&](Transaction& tx) { return tx.accounts().InsertUser(user); }),
                 model_.InsertUser(user));
  }

  void InsertOrg() {
    OrganizationRecord org =
        MakeOrg(FreshOrTakenId(model_.orgs, "o"), "org-" + std::to_string(Uniform(15)));
    org.name = "Org " + std::to_string(Uniform(3));  // shared names exercise the id tie-break
    org.require_two_factor = Uniform(2) == 1;
    ExpectInsert(
        store_.Write([&](Transaction& tx) { return tx.accounts().InsertOrganization(org); }),
        model_.InsertOrg(org));
  }

  void PutMembership() {
    if (model_.users.empty() || model_.orgs.empty()) return InsertUser();
    static constexpr const char* kRoles[] = {"owner", "admin", "developer", "analyst", "support"};
    const MembershipRecord m{PickId(model_.orgs), PickId(model_.users), kRoles[Uniform(5)], Time()};
    if (m.organization_id.starts_with("missing") || m.user_id.starts_with("missing")) return;
    EXPECT_TRUE(Ok(store_.Write([&](Transaction& tx) { return tx.accounts().PutMembership(m); })));
    model_.PutMembership(m);
  }

  // A missing organization must be refused (foreign key) and leave no row behind.
  void InsertProject() {
    const std::string org_id = PickId(model_.orgs);
    ProjectRecord p =
        MakeProject(NextId("p"), org_id, "site-" + std::to_string(Uniform(3)), Time());
    p.ip_logging = Uniform(2) == 1;
    auto inserted = store_.Write([&](Transaction& tx) { return tx.accounts().InsertProject(p); });
    const bool name_taken = std::any_of(model_.projects.begin(), model_.projects.end(),
                                        [&](const auto& entry) {
                                          return entry.second.organization_id == org_id &&
                                                 entry.second.name == p.name;
                                        });
    if (model_.orgs.contains(org_id) && name_taken) {
      EXPECT_TRUE(IsError(inserted, ErrorCode::kConflict)) << "a duplicate project name";
    } else if (model_.orgs.contains(org_id)) {
      EXPECT_TRUE(Ok(inserted));
      model_.projects.emplace(p.id, p);
    } else {
      EXPECT_FALSE(inserted) << "a project of an unknown organization was accepted";
    }
  }

  void InsertKey() {
    const std::string project_id = PickId(model_.projects);
    if (!model_.projects.contains(project_id)) return InsertProject();
    ApiKeyRecord key = MakeKey(FreshOrTakenId(model_.keys, "k"), model_.projects.at(project_id),
                               "hash-" + std::to_string(Uniform(40)), Time());
    if (!model_.users.empty() && Uniform(2) == 0) key.created_by = model_.users.begin()->first;
    ExpectInsert(store_.Write([&](Transaction& tx) { return tx.accounts().InsertApiKey(key); }),
                 model_.InsertKey(key));
  }

  void RevokeKey() {
    const std::string id = PickId(model_.keys);
    const std::int64_t at = 5000 + Uniform(1000);
    auto revoked =
        store_.Write([&](Transaction& tx) { return tx.accounts().RevokeApiKey(id, at); });
    ASSERT_TRUE(Ok(revoked));
    EXPECT_EQ(*revoked, model_.RevokeKey(id, at)) << id;
  }

  template <class Map, class Find>
  void Check(const std::string& id, const Map& map, Find find) {
    ExpectSame(ReadOk(store_, [&](Transaction& tx) { return find(tx, id); }), Get(map, id));
  }
  void FindUser() { Check(PickId(model_.users), model_.users, kFindUser); }
  void FindOrg() { Check(PickId(model_.orgs), model_.orgs, kFindOrg); }

  void FindByUniqueKey() {
    const std::string email = "user" + std::to_string(Uniform(25)) + "@example.com";
    ExpectSame(
        ReadOk(store_, [&](Transaction& tx) { return tx.accounts().FindUserByEmail(email); }),
        FindIf(model_.users, [&](auto& u) { return u.email == email; }));
    const std::string slug = "org-" + std::to_string(Uniform(15));
    ExpectSame(
        ReadOk(store_, [&](Transaction& tx) { return tx.accounts().FindOrganizationBySlug(slug); }),
        FindIf(model_.orgs, [&](auto& o) { return o.slug == slug; }));
    const std::string hash = "hash-" + std::to_string(Uniform(40));
    ExpectSame(
        ReadOk(store_, [&](Transaction& tx) { return tx.accounts().FindApiKeyByHash(hash); }),
        FindIf(model_.keys, [&](auto& k) { return k.secret_hash == hash; }));
  }

  void FindProjectByName() {
    const std::string org_id = PickId(model_.orgs);
    const std::string name = "site-" + std::to_string(Uniform(3));
    ExpectSame(
        ReadOk(store_,
               [&](Transaction& tx) { return tx.accounts().FindProjectByName(org_id, name); }),
        model_.FindProjectByName(org_id, name));
  }

  void ListKeys() {
    const std::string project_id = PickId(model_.projects);
    ExpectSame(
        ReadOk(store_, [&](Transaction& tx) { return tx.accounts().ListApiKeys(project_id); }),
        model_.ListKeys(project_id));
  }

  void SetTwoFactor() {
    const std::string id = PickId(model_.users);
    const bool enabled = Uniform(2) == 1;
    const std::int64_t at = Time();
    auto changed = store_.Write(
        [&](Transaction& tx) { return tx.accounts().UpdateUserTwoFactor(id, enabled, at); });
    ASSERT_TRUE(Ok(changed));
    EXPECT_EQ(*changed, model_.users.contains(id)) << id;
    if (!model_.users.contains(id)) return;
    model_.users.at(id).two_factor_enabled = enabled;
    model_.users.at(id).updated_at = at;
  }

  void DeleteMembership() {
    const std::string org_id = PickId(model_.orgs);
    const std::string user_id = PickId(model_.users);
    auto deleted = store_.Write(
        [&](Transaction& tx) { return tx.accounts().DeleteMembership(org_id, user_id); });
    ASSERT_TRUE(Ok(deleted));
    EXPECT_EQ(*deleted, model_.members.erase({org_id, user_id}) > 0);
  }

  void ListMemberships() {
    const std::string org_id = PickId(model_.orgs);
    ExpectSame(ReadOk(store_, [&](Transaction& tx) { return tx.accounts().ListMembers(org_id); }),
               model_.ListMembers(org_id));
    const std::string user_id = PickId(model_.users);
    ExpectSame(
        ReadOk(store_,
               [&](Transaction& tx) { return tx.accounts().ListOrganizationsOfUser(user_id); }),
        model_.ListOrganizationsOfUser(user_id));
    const std::string role = Uniform(2) == 0 ? "owner" : "analyst";
    EXPECT_EQ(
        ReadOk(store_,
               [&](Transaction& tx) { return tx.accounts().CountMembersWithRole(org_id, role); }),
        model_.CountMembersWithRole(org_id, role));
  }

  void ListProjects() {
    const std::string org_id = PickId(model_.orgs);
    ExpectSame(ReadOk(store_, [&](Transaction& tx) { return tx.accounts().ListProjects(org_id); }),
               model_.ListProjects(org_id));
  }

  // Rare, so that the maps keep growing.
  void DeleteProject() {
    if (Uniform(3) != 0) return ListProjects();
    const std::string id = PickId(model_.projects);
    auto deleted = store_.Write([&](Transaction& tx) { return tx.accounts().DeleteProject(id); });
    ASSERT_TRUE(Ok(deleted));
    EXPECT_EQ(*deleted, model_.DeleteProject(id)) << id;
  }

  void DeleteOrganization() {
    if (Uniform(4) != 0) return ListMemberships();
    const std::string id = PickId(model_.orgs);
    auto deleted =
        store_.Write([&](Transaction& tx) { return tx.accounts().DeleteOrganization(id); });
    ASSERT_TRUE(Ok(deleted));
    EXPECT_EQ(*deleted, model_.DeleteOrganization(id)) << id;
  }

  Store& store_;
  std::mt19937 rng_;
  ModelStore model_;
  int next_id_ = 0;
};

std::uint32_t RandomizedSeed() {
  const char* seed = std::getenv("SIGHTLINE_TEST_SEED");
  return seed != nullptr ? static_cast<std::uint32_t>(std::strtoul(seed, nullptr, 10)) : 301;
}

TEST_P(StoreConformance, RandomizedMatchesModel) {
  constexpr int kSteps = 300;
  const std::uint32_t seed = RandomizedSeed();
  RandomizedRun run(store(), seed);
  for (int step = 0; step < kSteps && !HasFailure(); ++step) {
    SCOPED_TRACE("seed " + std::to_string(seed) + ", step " + std::to_string(step));
    run.Step();
  }
  if (!HasFailure()) run.CheckEverything();
}

}  // namespace
}  // namespace sightline::storage
