// Storage conformance: every test body runs unchanged against each backend (SQLite, PostgreSQL),
// plus a LevelDB-style randomized test that replays seeded operations against the store and an
// in-memory model and compares every answer.
//
// The PostgreSQL instance needs a database it may wipe (each test drops schema `public`):
//   DSN=$(script/pg-test-cluster start /tmp/sl-pg)
//   SIGHTLINE_TEST_PG_DSN=$DSN build/tests/storage_tests; script/pg-test-cluster stop /tmp/sl-pg
// SIGHTLINE_TEST_SEED=<n> replays the randomized test with another seed.
#include "storage/store.h"

#include "core/clock.h"
#include "identity/api_keys.h"
#include "identity/bootstrap.h"
#include "storage/migrations.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <regex>
#include <set>
#include <thread>
#include <tuple>

namespace sightline::storage {
namespace {

using core::ErrorCode;
using core::Result;

enum class Backend { kSqlite, kPostgres };

void PrintTo(Backend backend, std::ostream* out) {
  *out << (backend == Backend::kSqlite ? "sqlite" : "postgres");
}

constexpr char kPostgresDsnVariable[] = "SIGHTLINE_TEST_PG_DSN";

template <class T>
testing::AssertionResult Ok(const Result<T>& result) {
  if (result) return testing::AssertionSuccess();
  const core::Error& e = result.error();
  return testing::AssertionFailure()
         << e.info().id << ": " << e.message() << " [" << e.internal() << "]";
}

template <class T>
testing::AssertionResult IsError(const Result<T>& result, ErrorCode code) {
  if (result) return testing::AssertionFailure() << "succeeded; expected " << Describe(code).id;
  if (result.error().code() == code) return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << "expected " << Describe(code).id << ", got " << Ok(result).message();
}

// Field-by-field views, so records compare (and print) without operator== in records.h.
auto Fields(const UserRecord& u) {
  return std::tie(u.id, u.email, u.password_hash, u.first_name, u.last_name, u.created_at,
                  u.updated_at);
}
auto Fields(const OrganizationRecord& o) {
  return std::tie(o.id, o.slug, o.name, o.require_two_factor, o.created_at, o.updated_at);
}
auto Fields(const MembershipRecord& m) {
  return std::tie(m.organization_id, m.user_id, m.role, m.created_at);
}
auto Fields(const ProjectRecord& p) {
  return std::tie(p.id, p.organization_id, p.name, p.reporting_timezone, p.bot_detection,
                  p.event_storage, p.ip_logging, p.created_at, p.updated_at);
}
auto Fields(const ApiKeyRecord& k) {
  return std::tie(k.id, k.organization_id, k.project_id, k.kind, k.name, k.secret_hash,
                  k.display_prefix, k.created_by, k.created_at, k.revoked_at);
}
auto Fields(const EventRecord& e) {
  return std::tie(e.id, e.project_id, e.occurred_at, e.received_at, e.event, e.channel, e.user_id,
                  e.anonymous_id, e.session_id, e.icon, e.description, e.notify, e.tags_json, e.ip,
                  e.user_agent, e.browser, e.browser_version, e.os, e.os_version, e.device, e.brand,
                  e.model, e.device_confidence, e.signal_source, e.in_app, e.country, e.region,
                  e.city, e.path, e.referrer, e.utm_source, e.utm_medium, e.utm_campaign,
                  e.utm_term, e.utm_content, e.is_bot, e.actor_type, e.bot_name, e.bot_vendor,
                  e.actor_category, e.actor_verified, e.verification_method, e.actor_confidence,
                  e.is_ai);
}
auto Fields(const BotRequestRecord& b) {
  return std::tie(b.id, b.project_id, b.occurred_at, b.received_at, b.event, b.source, b.ip,
                  b.user_agent, b.method, b.host, b.path, b.referrer, b.actor_type, b.bot_name,
                  b.bot_vendor, b.actor_category, b.actor_verified, b.verification_method,
                  b.actor_confidence, b.is_ai, b.country, b.counts_toward_usage);
}

template <class T>
void ExpectSame(const std::optional<T>& actual, const std::optional<T>& expected) {
  ASSERT_EQ(actual.has_value(), expected.has_value());
  if (actual) {
    EXPECT_EQ(Fields(*actual), Fields(*expected));
  }
}

template <class T>
void ExpectSame(const std::vector<T>& actual, const std::vector<T>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    SCOPED_TRACE("row " + std::to_string(i));
    EXPECT_EQ(Fields(actual[i]), Fields(expected[i]));
  }
}

// ---- Records -------------------------------------------------------------------------------

UserRecord MakeUser(std::string id, std::string email) {
  return {std::move(id), std::move(email), "$argon2id$v=19$stub", "Ada", "Lovelace", 1000, 2000};
}

OrganizationRecord MakeOrg(std::string id, std::string slug) {
  return {std::move(id), slug, "Org " + slug, false, 1000, 1000};
}

ProjectRecord MakeProject(std::string id, std::string org_id, std::string name,
                          std::int64_t created_at = 1000) {
  ProjectRecord p;  // reporting_timezone, bot_detection, ... keep the record's defaults
  p.id = std::move(id);
  p.organization_id = std::move(org_id);
  p.name = std::move(name);
  p.created_at = p.updated_at = created_at;
  return p;
}

ApiKeyRecord MakeKey(std::string id, const ProjectRecord& project, std::string hash,
                     std::int64_t created_at) {
  ApiKeyRecord k;
  k.id = std::move(id);
  k.organization_id = project.organization_id;
  k.project_id = project.id;
  k.kind = created_at % 2 == 0 ? KeyKind::kSdk : KeyKind::kPrivate;
  k.name = "key " + k.id;
  k.secret_hash = std::move(hash);
  k.display_prefix = "sk_service_Ab" + k.id;
  k.created_at = created_at;
  return k;
}

// Only the required columns; every optional is null and every flag false.
EventRecord SparseEvent(std::string id, std::string project_id, std::int64_t occurred_at) {
  EventRecord e;
  e.id = std::move(id);
  e.project_id = std::move(project_id);
  e.occurred_at = occurred_at;
  e.received_at = occurred_at + 1;
  e.event = "tick";
  e.channel = "load";
  return e;
}

EventRecord FullEvent(std::string id, std::string project_id, std::int64_t occurred_at) {
  EventRecord e = SparseEvent(std::move(id), std::move(project_id), occurred_at);
  e.received_at = occurred_at + 250;
  e.event = "Checkout ✓ café";
  e.channel = "payments-日本";
  e.user_id = "user-42", e.anonymous_id = "anon-7", e.session_id = "sess-1";
  e.icon = "🚀";
  e.description = "It's a \"quoted\" \\ line\nand a second one; DROP TABLE events; --";
  e.notify = true;
  e.tags_json = R"({"plan":"pro","seats":3,"emoji":"✓","nested":{"a":[1,2.5,null]}})";
  e.ip = "2001:db8::1", e.user_agent = "Mozilla/5.0 (X11; Linux x86_64)";
  e.browser = "Firefox", e.browser_version = "128.0", e.os = "Linux", e.os_version = "6.1";
  e.device = "desktop", e.brand = "Framework", e.model = "Laptop 13";
  e.device_confidence = 0.1 + 0.2;  // 0.30000000000000004: needs all 17 digits
  e.signal_source = "client_hints";
  e.in_app = true;
  e.country = "DE", e.region = "NW", e.city = "Köln";
  e.path = "/pricing?q=über", e.referrer = "https://example.com/ü";
  e.utm_source = "news", e.utm_medium = "email", e.utm_campaign = "spring";
  e.utm_term = "bots", e.utm_content = "hero";
  e.is_bot = true, e.actor_type = "ai_agent", e.bot_name = "ChatGPT-User";
  e.bot_vendor = "OpenAI", e.actor_category = "ai_assistant";
  e.actor_verified = true, e.verification_method = "ip_range";
  e.actor_confidence = 1.0 / 3.0;
  e.is_ai = true;
  return e;
}

BotRequestRecord MinimalBot(std::string id, std::string project_id, std::int64_t occurred_at) {
  BotRequestRecord b;
  b.id = std::move(id);
  b.project_id = std::move(project_id);
  b.occurred_at = occurred_at;
  b.received_at = occurred_at + 1;
  b.user_agent = "curl/8.0";
  b.actor_type = "unknown";
  b.counts_toward_usage = false;
  return b;
}

BotRequestRecord FullBot(std::string id, std::string project_id, std::int64_t occurred_at) {
  BotRequestRecord b = MinimalBot(std::move(id), std::move(project_id), occurred_at);
  b.event = "crawl";
  b.source = "vercel-log-drain";
  b.ip = "66.249.66.1";
  b.user_agent = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
  b.method = "GET", b.host = "例え.jp", b.path = "/docs/ünïcode", b.referrer = "https://x.test/";
  b.actor_type = "crawler", b.bot_name = "Googlebot", b.bot_vendor = "Google";
  b.actor_category = "search_engine";
  b.actor_verified = true;
  b.verification_method = "reverse_dns";
  b.actor_confidence = 0.987654321012345;
  b.is_ai = true;
  b.country = "US";
  b.counts_toward_usage = true;
  return b;
}

// What ListRecent* should return: newest first (occurred_at, then id), at most `limit`.
template <class Row>
std::vector<Row> NewestFirst(std::vector<Row> rows, std::string_view project_id,
                             std::size_t limit) {
  std::erase_if(rows, [&](const Row& r) { return r.project_id != project_id; });
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return std::tie(a.occurred_at, a.id) > std::tie(b.occurred_at, b.id);
  });
  rows.resize(std::min(limit, rows.size()));
  return rows;
}

// The value of a read that must succeed; an error throws, which fails the test with its text.
template <class Body>
auto ReadOk(Store& store, Body&& body) {
  return store.Read(std::forward<Body>(body)).value();
}

// ---- Fixture -------------------------------------------------------------------------------

std::filesystem::path MakeTempDir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "sightline-storage-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) return {};
  return pattern;
}

// Leaves an empty schema behind, so every test starts from a fresh database.
Result<void> ResetPostgresSchema(Store& store) {
  return store.database().Transact(TxMode::kWrite, [](SqlSession& session) {
    return session.ExecuteScript(
        "SET LOCAL client_min_messages = warning; "
        "DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;");
  });
}

class StoreConformance : public testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    StoreOptions options;
    if (GetParam() == Backend::kSqlite) {
      temp_dir_ = MakeTempDir();
      ASSERT_FALSE(temp_dir_.empty()) << "mkdtemp failed";
      options.sqlite_path = (temp_dir_ / "store.db").string();
    } else {
      const char* dsn = std::getenv(kPostgresDsnVariable);
      if (dsn == nullptr || *dsn == '\0') {
        // script/test sets SIGHTLINE_REQUIRE_PG so that CI can never pass by skipping.
        if (std::getenv("SIGHTLINE_REQUIRE_PG") != nullptr) {
          FAIL() << kPostgresDsnVariable << " is unset but SIGHTLINE_REQUIRE_PG is set.";
        }
        GTEST_SKIP() << kPostgresDsnVariable << " is unset; start a throwaway server with "
                     << "`script/pg-test-cluster start DIR` and export the DSN it prints.";
      }
      options.database_url = dsn;
    }
    auto opened = OpenStore(options);
    ASSERT_TRUE(Ok(opened));
    store_ = std::move(*opened);
    if (GetParam() == Backend::kPostgres) {
      ASSERT_TRUE(Ok(ResetPostgresSchema(*store_)));
    }
    auto migrated = store_->Migrate();
    ASSERT_TRUE(Ok(migrated));
    EXPECT_EQ(*migrated, static_cast<int>(AllMigrations().size()));
  }

  void TearDown() override {
    store_.reset();
    if (!temp_dir_.empty()) std::filesystem::remove_all(temp_dir_);
  }

  Store& store() { return *store_; }

  template <class Body>
  auto Write(Body&& body) {
    return store_->Write(std::forward<Body>(body));
  }
  template <class Body>
  auto Read(Body&& body) {
    return store_->Read(std::forward<Body>(body));
  }
  template <class Body>
  auto ReadOk(Body&& body) {
    return storage::ReadOk(*store_, std::forward<Body>(body));
  }

  // An owner user u-1, organization o-1 and project p-1 for rows that reference them.
  void SeedProject() {
    ASSERT_TRUE(Ok(Write([](Repository& repo) -> Result<void> {
      if (auto r = repo.InsertUser(MakeUser("u-1", "owner@example.com")); !r) return r;
      if (auto r = repo.InsertOrganization(MakeOrg("o-1", "acme")); !r) return r;
      return repo.InsertProject(MakeProject("p-1", "o-1", "Website"));
    })));
  }

  std::filesystem::path temp_dir_;
  std::unique_ptr<Store> store_;
};

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
  ASSERT_TRUE(Ok(Write([&](Repository& repo) { return repo.InsertUser(user); })));

  ExpectSame(ReadOk([](Repository& repo) { return repo.FindUserById("u-1"); }),
             std::optional(user));
  ExpectSame(ReadOk([](Repository& repo) { return repo.FindUserByEmail("ada@example.com"); }),
             std::optional(user));
  EXPECT_FALSE(ReadOk([](Repository& repo) { return repo.FindUserById("u-2"); }));
  EXPECT_FALSE(ReadOk([](Repository& repo) { return repo.FindUserByEmail("bob@example.com"); }));

  const UserRecord same_email = MakeUser("u-2", "ada@example.com");
  EXPECT_TRUE(IsError(Write([&](Repository& repo) { return repo.InsertUser(same_email); }),
                      ErrorCode::kConflict));
  const UserRecord same_id = MakeUser("u-1", "other@example.com");
  EXPECT_TRUE(IsError(Write([&](Repository& repo) { return repo.InsertUser(same_id); }),
                      ErrorCode::kConflict));
}

TEST_P(StoreConformance, OrganizationSlugIsUnique) {
  OrganizationRecord org = MakeOrg("o-1", "acme");
  org.require_two_factor = true;
  ASSERT_TRUE(Ok(Write([&](Repository& repo) { return repo.InsertOrganization(org); })));
  ExpectSame(ReadOk([](Repository& repo) { return repo.FindOrganizationBySlug("acme"); }),
             std::optional(org));
  ExpectSame(ReadOk([](Repository& repo) { return repo.FindOrganizationById("o-1"); }),
             std::optional(org));

  const OrganizationRecord clash = MakeOrg("o-2", "acme");
  EXPECT_TRUE(IsError(Write([&](Repository& repo) { return repo.InsertOrganization(clash); }),
                      ErrorCode::kConflict));
  EXPECT_FALSE(ReadOk([](Repository& repo) { return repo.FindOrganizationById("o-2"); }));
}

TEST_P(StoreConformance, PutMembershipUpsertsTheRole) {
  SeedProject();
  ASSERT_TRUE(Ok(Write([](Repository& repo) {
    return repo.PutMembership({"o-1", "u-1", "analyst", 1000});
  })));
  ASSERT_TRUE(Ok(Write([](Repository& repo) {
    return repo.PutMembership({"o-1", "u-1", "admin", 5000});
  })));

  // The upsert changes the role only; the membership keeps its creation time.
  ExpectSame(ReadOk([](Repository& repo) { return repo.FindMembership("o-1", "u-1"); }),
             std::optional(MembershipRecord{"o-1", "u-1", "admin", 1000}));
  EXPECT_FALSE(ReadOk([](Repository& repo) { return repo.FindMembership("o-1", "u-2"); }));
}

TEST_P(StoreConformance, ProjectsKeepDefaultsAndAreFoundByName) {
  SeedProject();
  auto found = Read([](Repository& repo) { return repo.FindProject("p-1"); });
  ASSERT_TRUE(Ok(found));
  ASSERT_TRUE(found->has_value());
  const ProjectRecord& project = **found;
  EXPECT_EQ(project.reporting_timezone, "UTC");
  EXPECT_TRUE(project.bot_detection);
  EXPECT_TRUE(project.event_storage);
  EXPECT_FALSE(project.ip_logging);
  ExpectSame(*found, std::optional(MakeProject("p-1", "o-1", "Website")));

  ExpectSame(ReadOk([](Repository& repo) { return repo.FindProjectByName("o-1", "Website"); }),
             *found);
  EXPECT_FALSE(ReadOk([](Repository& repo) { return repo.FindProjectByName("o-1", "Shop"); }));
  EXPECT_FALSE(ReadOk([](Repository& repo) { return repo.FindProjectByName("o-2", "Website"); }));
}

TEST_P(StoreConformance, ApiKeysInsertFindListAndRevokeOnce) {
  SeedProject();
  const ProjectRecord project = MakeProject("p-1", "o-1", "Website");
  ApiKeyRecord late = MakeKey("k-1", project, "hash-late", 3000);
  late.created_by = "u-1";
  const ApiKeyRecord early = MakeKey("k-2", project, "hash-early", 2000);
  ASSERT_TRUE(Ok(Write([&](Repository& repo) -> Result<void> {
    if (auto r = repo.InsertApiKey(late); !r) return r;
    return repo.InsertApiKey(early);
  })));

  ExpectSame(ReadOk([](Repository& repo) { return repo.FindApiKeyByHash("hash-late"); }),
             std::optional(late));
  EXPECT_FALSE(ReadOk([](Repository& repo) { return repo.FindApiKeyByHash("hash-none"); }));
  ExpectSame(ReadOk([](Repository& repo) { return repo.ListApiKeys("p-1"); }),
             std::vector{early, late});

  const ApiKeyRecord clash = MakeKey("k-3", project, "hash-late", 4000);
  EXPECT_TRUE(IsError(Write([&](Repository& repo) { return repo.InsertApiKey(clash); }),
                      ErrorCode::kConflict));

  auto revoke = [&](std::int64_t at) {
    return Write([&](Repository& repo) { return repo.RevokeApiKey("k-1", at); });
  };
  EXPECT_TRUE(revoke(5000).value());
  EXPECT_FALSE(revoke(6000).value());
  EXPECT_FALSE(Write([](Repository& repo) { return repo.RevokeApiKey("k-9", 7000); }).value());
  auto revoked = ReadOk([](Repository& repo) { return repo.FindApiKeyByHash("hash-late"); });
  ASSERT_TRUE(revoked.has_value());
  EXPECT_EQ(revoked->revoked_at, std::optional<std::int64_t>(5000));
}

TEST_P(StoreConformance, CredentialGrantCarriesTheCreatorsLiveRole) {
  SeedProject();
  const ProjectRecord project = MakeProject("p-1", "o-1", "Website");
  ApiKeyRecord key = MakeKey("k-1", project, "hash-1", 3000);
  key.created_by = "u-1";
  const ApiKeyRecord orphan = MakeKey("k-2", project, "hash-2", 4000);  // no creator
  ASSERT_TRUE(Ok(Write([&](Repository& repo) -> Result<void> {
    if (auto r = repo.InsertApiKey(key); !r) return r;
    if (auto r = repo.InsertApiKey(orphan); !r) return r;
    return repo.PutMembership({"o-1", "u-1", "analyst", 1000});
  })));
  auto grant = ReadOk([](Repository& repo) { return repo.FindCredentialGrant("hash-1"); });
  ASSERT_TRUE(grant.has_value());
  ExpectSame(std::optional(grant->key), std::optional(key));
  EXPECT_EQ(grant->creator_role, std::optional<std::string>("analyst"));

  ASSERT_TRUE(Ok(Write([](Repository& repo) {
    return repo.PutMembership({"o-1", "u-1", "admin", 1000});
  })));
  EXPECT_EQ(ReadOk([](Repository& repo) { return repo.FindCredentialGrant("hash-1"); })->creator_role,
            std::optional<std::string>("admin"));
  EXPECT_EQ(ReadOk([](Repository& repo) { return repo.FindCredentialGrant("hash-2"); })->creator_role,
            std::nullopt);
  EXPECT_FALSE(ReadOk([](Repository& repo) { return repo.FindCredentialGrant("hash-9"); }));
}

TEST_P(StoreConformance, OrganizationAndProjectAreFoundTogetherOnlyWhenTheyBelong) {
  SeedProject();
  ASSERT_TRUE(Ok(Write([](Repository& repo) -> Result<void> {
    if (auto r = repo.InsertOrganization(MakeOrg("o-2", "globex")); !r) return r;
    return repo.InsertProject(MakeProject("p-2", "o-2", "Shop"));
  })));
  auto both = ReadOk([](Repository& repo) { return repo.FindOrganizationAndProject("acme", "p-1"); });
  ASSERT_TRUE(both.first && both.second);
  EXPECT_EQ(both.first->id, "o-1");
  ExpectSame(both.second, std::optional(MakeProject("p-1", "o-1", "Website")));
  auto foreign = ReadOk([](Repository& repo) { return repo.FindOrganizationAndProject("acme", "p-2"); });
  EXPECT_TRUE(foreign.first.has_value());
  EXPECT_FALSE(foreign.second.has_value()) << "a project of another organization must not match";
  auto none = ReadOk([](Repository& repo) { return repo.FindOrganizationAndProject("nope", "p-1"); });
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
  EXPECT_TRUE(Write([&](Repository& repo) { return repo.UpdateProject(changed); }).value());
  ExpectSame(ReadOk([](Repository& repo) { return repo.FindProject("p-1"); }), std::optional(changed));
  changed.id = "p-missing";
  EXPECT_FALSE(Write([&](Repository& repo) { return repo.UpdateProject(changed); }).value());
}

// ---- Transactions --------------------------------------------------------------------------

TEST_P(StoreConformance, FailedWriteLeavesNothingBehind) {
  SeedProject();
  const ApiKeyRecord key = MakeKey("k-1", MakeProject("p-1", "o-1", "Website"), "hash-1", 2000);
  ASSERT_TRUE(Ok(Write([&](Repository& repo) { return repo.InsertApiKey(key); })));
  const std::vector<EventRecord> events = {SparseEvent("e-1", "p-1", 1000)};
  auto failed = Write([&](Repository& repo) -> Result<void> {
    if (auto r = repo.InsertOrganization(MakeOrg("o-9", "half")); !r) return r;
    if (auto r = repo.InsertUser(MakeUser("u-9", "fresh@example.com")); !r) return r;
    if (auto r = repo.RevokeApiKey("k-1", 5000); !r) return r.error();
    if (auto r = repo.InsertEvents(events); !r) return r;
    return repo.InsertUser(MakeUser("u-10", "owner@example.com"));  // clashes with u-1
  });
  EXPECT_TRUE(IsError(failed, ErrorCode::kConflict));
  // A body may also refuse without any failing statement.
  auto refused = Write([](Repository& repo) -> Result<void> {
    if (auto r = repo.InsertOrganization(MakeOrg("o-8", "refused")); !r) return r;
    return core::Error(ErrorCode::kValInvalidParameter, "changed my mind");
  });
  EXPECT_TRUE(IsError(refused, ErrorCode::kValInvalidParameter));

  EXPECT_FALSE(ReadOk([](Repository& repo) { return repo.FindOrganizationById("o-9"); }));
  EXPECT_FALSE(ReadOk([](Repository& repo) { return repo.FindOrganizationById("o-8"); }));
  EXPECT_FALSE(ReadOk([](Repository& repo) { return repo.FindUserById("u-9"); }));
  EXPECT_TRUE(ReadOk([](Repository& repo) { return repo.ListRecentEvents("p-1", 10); }).empty());
  auto stored = ReadOk([](Repository& repo) { return repo.FindApiKeyByHash("hash-1"); });
  ASSERT_TRUE(stored.has_value());
  EXPECT_FALSE(stored->revoked_at) << "the revocation was rolled back";
}

// Exceptions are for bugs (style guide, section 5): a backend rolls back and lets them through,
// and never turns them into an Error.
TEST_P(StoreConformance, ThrowingWriteRollsBackAndRethrows) {
  EXPECT_THROW(Write([](Repository& repo) -> Result<void> {
                 if (auto r = repo.InsertOrganization(MakeOrg("o-7", "thrown")); !r) return r;
                 throw std::runtime_error("a bug in the transaction body");
               }),
               std::runtime_error);
  EXPECT_FALSE(ReadOk([](Repository& repo) { return repo.FindOrganizationById("o-7"); }));
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
          auto done = Write([&](Repository& repo) { return repo.InsertEvents({&e, 1}); });
          if (done) continue;
          std::lock_guard lock(mutex);
          errors.push_back(Ok(done).message());
        }
      });
    }
  }
  EXPECT_TRUE(errors.empty()) << errors.size() << " failed writes, first: " << errors.front();
  auto rows = Read([](Repository& repo) { return repo.ListRecentEvents("p-1", 10'000); });
  ASSERT_TRUE(Ok(rows));
  std::set<std::string> ids;
  for (const auto& row : *rows) ids.insert(row.id);
  EXPECT_EQ(rows->size(), std::size_t{kThreads * kWritesPerThread});
  EXPECT_EQ(ids.size(), rows->size());
}

// ---- Events and bot requests ---------------------------------------------------------------

TEST_P(StoreConformance, EventsRoundTripEveryFieldNewestFirst) {
  const std::vector<EventRecord> rows = {
      FullEvent("e-b", "p-1", 3000), SparseEvent("e-a", "p-1", 1000),
      FullEvent("e-c", "p-1", 3000),  // same time as e-b: ordered by id
      SparseEvent("e-d", "p-1", 2000), FullEvent("e-z", "p-2", 9000)};
  ASSERT_TRUE(Ok(Write([&](Repository& repo) { return repo.InsertEvents(rows); })));

  for (std::size_t limit : {10, 3}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    auto listed = Read([&](Repository& repo) { return repo.ListRecentEvents("p-1", limit); });
    ASSERT_TRUE(Ok(listed));
    ExpectSame(*listed, NewestFirst(rows, "p-1", limit));
  }
}

TEST_P(StoreConformance, BotRequestsRoundTripEveryFieldNewestFirst) {
  const std::vector<BotRequestRecord> rows = {
      FullBot("b-b", "p-1", 3000), MinimalBot("b-a", "p-1", 1000), FullBot("b-c", "p-1", 3000),
      MinimalBot("b-d", "p-1", 2000), FullBot("b-z", "p-2", 9000)};
  ASSERT_TRUE(Ok(Write([&](Repository& repo) { return repo.InsertBotRequests(rows); })));

  for (std::size_t limit : {10, 3}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    auto listed = Read([&](Repository& repo) { return repo.ListRecentBotRequests("p-1", limit); });
    ASSERT_TRUE(Ok(listed));
    ExpectSame(*listed, NewestFirst(rows, "p-1", limit));
  }
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

  auto user = ReadOk([](Repository& repo) { return repo.FindUserByEmail("owner@example.com"); });
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
    auto stored = ReadOk([&](Repository& repo) { return repo.FindApiKeyByHash(hash); });
    ASSERT_TRUE(stored.has_value());
    EXPECT_NE(stored->secret_hash, key);
    EXPECT_EQ(stored->kind, kind);
    EXPECT_EQ(stored->name, "bootstrap");
    EXPECT_EQ(stored->project_id, first->project_id);
    EXPECT_EQ(stored->revoked_at, revoked_at);
  }
  EXPECT_EQ(ReadOk([&](Repository& repo) { return repo.ListApiKeys(first->project_id); }).size(),
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
};

constexpr auto kFindUser = [](Repository& r, std::string_view id) { return r.FindUserById(id); };
constexpr auto kFindOrg = [](Repository& r, std::string_view id) {
  return r.FindOrganizationById(id);
};
constexpr auto kFindProject = [](Repository& r, std::string_view id) { return r.FindProject(id); };

// Applies one random operation at a time to the store and the model, and compares.
class RandomizedRun {
 public:
  RandomizedRun(Store& store, std::uint32_t seed) : store_(store), rng_(seed) {}

  void Step() {
    using Op = void (RandomizedRun::*)();
    static constexpr Op kOps[] = {
        &RandomizedRun::InsertUser,      &RandomizedRun::InsertOrg,
        &RandomizedRun::PutMembership,   &RandomizedRun::InsertProject,
        &RandomizedRun::InsertKey,       &RandomizedRun::RevokeKey,
        &RandomizedRun::FindUser,        &RandomizedRun::FindOrg,
        &RandomizedRun::FindByUniqueKey, &RandomizedRun::FindProjectByName,
        &RandomizedRun::ListKeys};
    (this->*kOps[Uniform(std::size(kOps))])();
  }

  // Every row the model holds, read back from the store.
  void CheckEverything() {
    for (const auto& [id, user] : model_.users) Check(id, model_.users, kFindUser);
    for (const auto& [id, org] : model_.orgs) Check(id, model_.orgs, kFindOrg);
    for (const auto& [id, p] : model_.projects) Check(id, model_.projects, kFindProject);
    for (const auto& [key, m] : model_.members) {
      ExpectSame(
          ReadOk(store_, [&](Repository& r) { return r.FindMembership(key.first, key.second); }),
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
    ExpectInsert(store_.Write([&](Repository& r) { return r.InsertUser(user); }),
                 model_.InsertUser(user));
  }

  void InsertOrg() {
    OrganizationRecord org =
        MakeOrg(FreshOrTakenId(model_.orgs, "o"), "org-" + std::to_string(Uniform(15)));
    org.require_two_factor = Uniform(2) == 1;
    ExpectInsert(store_.Write([&](Repository& r) { return r.InsertOrganization(org); }),
                 model_.InsertOrg(org));
  }

  void PutMembership() {
    if (model_.users.empty() || model_.orgs.empty()) return InsertUser();
    static constexpr const char* kRoles[] = {"owner", "admin", "developer", "analyst", "support"};
    const MembershipRecord m{PickId(model_.orgs), PickId(model_.users), kRoles[Uniform(5)], Time()};
    if (m.organization_id.starts_with("missing") || m.user_id.starts_with("missing")) return;
    EXPECT_TRUE(Ok(store_.Write([&](Repository& r) { return r.PutMembership(m); })));
    model_.PutMembership(m);
  }

  // A missing organization must be refused (foreign key) and leave no row behind.
  void InsertProject() {
    const std::string org_id = PickId(model_.orgs);
    ProjectRecord p =
        MakeProject(NextId("p"), org_id, "site-" + std::to_string(Uniform(3)), Time());
    p.ip_logging = Uniform(2) == 1;
    auto inserted = store_.Write([&](Repository& r) { return r.InsertProject(p); });
    if (model_.orgs.contains(org_id)) {
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
    ExpectInsert(store_.Write([&](Repository& r) { return r.InsertApiKey(key); }),
                 model_.InsertKey(key));
  }

  void RevokeKey() {
    const std::string id = PickId(model_.keys);
    const std::int64_t at = 5000 + Uniform(1000);
    auto revoked = store_.Write([&](Repository& r) { return r.RevokeApiKey(id, at); });
    ASSERT_TRUE(Ok(revoked));
    EXPECT_EQ(*revoked, model_.RevokeKey(id, at)) << id;
  }

  template <class Map, class Find>
  void Check(const std::string& id, const Map& map, Find find) {
    ExpectSame(ReadOk(store_, [&](Repository& r) { return find(r, id); }), Get(map, id));
  }
  void FindUser() { Check(PickId(model_.users), model_.users, kFindUser); }
  void FindOrg() { Check(PickId(model_.orgs), model_.orgs, kFindOrg); }

  void FindByUniqueKey() {
    const std::string email = "user" + std::to_string(Uniform(25)) + "@example.com";
    ExpectSame(ReadOk(store_, [&](Repository& r) { return r.FindUserByEmail(email); }),
               FindIf(model_.users, [&](auto& u) { return u.email == email; }));
    const std::string slug = "org-" + std::to_string(Uniform(15));
    ExpectSame(ReadOk(store_, [&](Repository& r) { return r.FindOrganizationBySlug(slug); }),
               FindIf(model_.orgs, [&](auto& o) { return o.slug == slug; }));
    const std::string hash = "hash-" + std::to_string(Uniform(40));
    ExpectSame(ReadOk(store_, [&](Repository& r) { return r.FindApiKeyByHash(hash); }),
               FindIf(model_.keys, [&](auto& k) { return k.secret_hash == hash; }));
  }

  void FindProjectByName() {
    const std::string org_id = PickId(model_.orgs);
    const std::string name = "site-" + std::to_string(Uniform(3));
    ExpectSame(ReadOk(store_, [&](Repository& r) { return r.FindProjectByName(org_id, name); }),
               model_.FindProjectByName(org_id, name));
  }

  void ListKeys() {
    const std::string project_id = PickId(model_.projects);
    ExpectSame(ReadOk(store_, [&](Repository& r) { return r.ListApiKeys(project_id); }),
               model_.ListKeys(project_id));
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
