// The storage conformance fixture and its helpers, shared by the suites under tests/storage/:
// every test body runs unchanged against each backend (SQLite, PostgreSQL).
//
// The PostgreSQL instance needs a database it may wipe (each test drops schema `public`):
//   DSN=$(script/pg-test-cluster start /tmp/sl-pg)
//   SIGHTLINE_TEST_PG_DSN=$DSN build/tests/storage_tests; script/pg-test-cluster stop /tmp/sl-pg
#pragma once

#include "storage/store.h"

#include "core/clock.h"
#include "identity/api_keys.h"
#include "identity/bootstrap.h"
#include "storage/account_repository.h"
#include "storage/event_repository.h"
#include "storage/migrations.h"
#include "storage/oauth_records.h"
#include "storage/report_repository.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace sightline::storage::conformance {

using core::ErrorCode;
using core::Result;

enum class Backend { kSqlite, kPostgres };

inline void PrintTo(Backend backend, std::ostream* out) {
  *out << (backend == Backend::kSqlite ? "sqlite" : "postgres");
}

constexpr char kPostgresDsnVariable[] = "SIGHTLINE_TEST_PG_DSN";

template <class T>
inline testing::AssertionResult Ok(const Result<T>& result) {
  if (result) return testing::AssertionSuccess();
  const core::Error& e = result.error();
  return testing::AssertionFailure()
         << e.info().id << ": " << e.message() << " [" << e.internal() << "]";
}

template <class T>
inline testing::AssertionResult IsError(const Result<T>& result, ErrorCode code) {
  if (result) return testing::AssertionFailure() << "succeeded; expected " << Describe(code).id;
  if (result.error().code() == code) return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << "expected " << Describe(code).id << ", got " << Ok(result).message();
}

// Field-by-field views, so records compare (and print) without operator== in records.h.
inline auto Fields(const UserRecord& u) {
  return std::tie(u.id, u.email, u.password_hash, u.first_name, u.last_name, u.created_at,
                  u.updated_at, u.two_factor_enabled);
}
inline auto Fields(const OrganizationRecord& o) {
  return std::tie(o.id, o.slug, o.name, o.require_two_factor, o.created_at, o.updated_at);
}
inline auto Fields(const MembershipRecord& m) {
  return std::tie(m.organization_id, m.user_id, m.role, m.created_at);
}
inline auto Fields(const ProjectRecord& p) {
  return std::tie(p.id, p.organization_id, p.name, p.reporting_timezone, p.bot_detection,
                  p.event_storage, p.ip_logging, p.created_at, p.updated_at);
}
inline auto Fields(const ApiKeyRecord& k) {
  return std::tie(k.id, k.organization_id, k.project_id, k.kind, k.name, k.secret_hash,
                  k.display_prefix, k.created_by, k.created_at, k.revoked_at);
}
inline auto Fields(const MemberRecord& m) {
  return std::tuple_cat(Fields(m.user), std::tie(m.role, m.joined_at));
}
inline auto Fields(const MembershipOfUser& m) {
  return std::tuple_cat(Fields(m.organization), std::tie(m.role));
}
inline auto Fields(const SessionRecord& s) {
  return std::tie(s.id, s.user_id, s.kind, s.created_at, s.expires_at, s.revoked_at, s.user_agent);
}
inline auto Fields(const McpSessionRecord& s) {
  return std::tie(s.id_hash, s.credential, s.protocol_version, s.client_name, s.client_version,
                  s.log_level, s.created_at, s.last_used_at, s.ended_at);
}
inline auto Fields(const RefreshTokenRecord& t) {
  return std::tie(t.token_hash, t.session_id, t.created_at, t.used_at);
}
inline auto Fields(const InvitationRecord& i) {
  return std::tie(i.id, i.organization_id, i.email, i.role, i.token_hash, i.invited_by,
                  i.created_at, i.expires_at, i.accepted_at, i.accepted_by, i.revoked_at);
}
inline auto Fields(const AuditRecord& a) {
  return std::tie(a.id, a.organization_id, a.project_id, a.actor_user_id, a.credential_kind,
                  a.credential_id, a.action, a.target_type, a.target_id, a.request_id,
                  a.details_json, a.created_at);
}
inline auto Fields(const EventRecord& e) {
  return std::tie(e.id, e.project_id, e.occurred_at, e.received_at, e.event, e.channel, e.user_id,
                  e.anonymous_id, e.session_id, e.icon, e.description, e.notify, e.tags_json, e.ip,
                  e.user_agent, e.browser, e.browser_version, e.os, e.os_version, e.device, e.brand,
                  e.model, e.device_confidence, e.signal_source, e.in_app, e.country, e.region,
                  e.city, e.path, e.referrer, e.utm_source, e.utm_medium, e.utm_campaign,
                  e.utm_term, e.utm_content, e.is_bot, e.actor_type, e.bot_name, e.bot_vendor,
                  e.actor_category, e.actor_verified, e.verification_method, e.actor_confidence,
                  e.is_ai);
}
inline auto Fields(const BotRequestRecord& b) {
  return std::tie(b.id, b.project_id, b.occurred_at, b.received_at, b.event, b.source, b.ip,
                  b.user_agent, b.method, b.host, b.path, b.referrer, b.actor_type, b.bot_name,
                  b.bot_vendor, b.actor_category, b.actor_verified, b.verification_method,
                  b.actor_confidence, b.is_ai, b.country, b.counts_toward_usage);
}
inline auto Fields(const IdentityRecord& i) {
  return std::tie(i.project_id, i.anonymous_id, i.user_id, i.traits_json, i.created_at,
                  i.updated_at);
}
inline auto Fields(const UsageRecord& u) {
  return std::tie(u.project_id, u.month, u.human_events, u.bot_events);
}
inline auto Fields(const NotificationRecord& n) {
  return std::tie(n.id, n.project_id, n.event_id, n.event, n.channel, n.icon, n.description,
                  n.user_id, n.created_at);
}

template <class T>
inline void ExpectSame(const std::optional<T>& actual, const std::optional<T>& expected) {
  ASSERT_EQ(actual.has_value(), expected.has_value());
  if (actual) {
    EXPECT_EQ(Fields(*actual), Fields(*expected));
  }
}

template <class T>
inline void ExpectSame(const std::vector<T>& actual, const std::vector<T>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    SCOPED_TRACE("row " + std::to_string(i));
    EXPECT_EQ(Fields(actual[i]), Fields(expected[i]));
  }
}

// ---- Records -------------------------------------------------------------------------------

inline UserRecord MakeUser(std::string id, std::string email) {
  return {std::move(id), std::move(email), "$argon2id$v=19$stub", "Ada", "Lovelace", 1000, 2000};
}

inline OrganizationRecord MakeOrg(std::string id, std::string slug) {
  return {std::move(id), slug, "Org " + slug, false, 1000, 1000};
}

inline ProjectRecord MakeProject(std::string id, std::string org_id, std::string name,
                                 std::int64_t created_at = 1000) {
  ProjectRecord p;  // reporting_timezone, bot_detection, ... keep the record's defaults
  p.id = std::move(id);
  p.organization_id = std::move(org_id);
  p.name = std::move(name);
  p.created_at = p.updated_at = created_at;
  return p;
}

inline ApiKeyRecord MakeKey(std::string id, const ProjectRecord& project, std::string hash,
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
inline EventRecord SparseEvent(std::string id, std::string project_id,
                               std::int64_t occurred_at) {
  EventRecord e;
  e.id = std::move(id);
  e.project_id = std::move(project_id);
  e.occurred_at = occurred_at;
  e.received_at = occurred_at + 1;
  e.event = "tick";
  e.channel = "load";
  return e;
}

inline EventRecord FullEvent(std::string id, std::string project_id,
                             std::int64_t occurred_at) {
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

inline BotRequestRecord MinimalBot(std::string id, std::string project_id,
                                   std::int64_t occurred_at) {
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

inline BotRequestRecord FullBot(std::string id, std::string project_id,
                                std::int64_t occurred_at) {
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

inline InvitationRecord MakeInvitation(std::string id, std::string org_id, std::string token_hash,
                                       std::int64_t created_at) {
  InvitationRecord i;
  i.id = std::move(id);
  i.organization_id = std::move(org_id);
  i.email = "invitee-" + i.id + "@example.com";
  i.role = "analyst";
  i.token_hash = std::move(token_hash);
  i.created_at = created_at;
  i.expires_at = created_at + 7 * 24 * 3600 * 1000LL;
  return i;
}

inline AuditRecord MakeAudit(std::string id, std::string org_id, std::int64_t created_at) {
  AuditRecord a;
  a.id = std::move(id);
  a.organization_id = std::move(org_id);
  a.credential_kind = "user_session";
  a.action = "project.update";
  a.created_at = created_at;
  return a;
}

// What ListRecent* should return: newest first (occurred_at, then id), at most `limit`.
template <class Row>
inline std::vector<Row> NewestFirst(std::vector<Row> rows, std::string_view project_id,
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
inline auto ReadOk(Store& store, Body&& body) {
  return store.Read(std::forward<Body>(body)).value();
}

// ---- Fixture -------------------------------------------------------------------------------

inline std::filesystem::path MakeTempDir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "sightline-storage-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) return {};
  return pattern;
}

// Leaves an empty schema behind, so every test starts from a fresh database.
inline Result<void> ResetPostgresSchema(Store& store) {
  return store.database().Transact(TxMode::kWrite, [](SqlSession& session) {
    return session.ExecuteScript(
        "SET LOCAL client_min_messages = warning; "
        "DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;");
  });
}

// A store as a previous release left it: migrations up to `version` only. On SQLite a file of
// its own in a temp dir (removed with it); on PostgreSQL `fixture_store`'s database, emptied
// first (the fixture's own schema is gone until the test ends). Check ok() before use.
class PreviousReleaseStore {
 public:
  PreviousReleaseStore(Backend backend, Store& fixture_store, int version) {
    store_ = &fixture_store;
    if (backend == Backend::kSqlite) {
      dir_ = MakeTempDir();
      StoreOptions options;
      options.sqlite_path = (dir_ / "previous.db").string();
      auto opened = OpenStore(options);
      if (!opened) return;
      own_ = std::move(*opened);
      store_ = own_.get();
    } else if (!ResetPostgresSchema(fixture_store)) {
      return;
    }
    for (const Migration& migration : AllMigrations()) {
      if (migration.version > version) break;
      auto applied = store_->database().Transact(TxMode::kWrite, [&](SqlSession& session) {
        auto done = ApplyIfPending(session, migration);
        return done ? Result<void>() : Result<void>(done.error());
      });
      if (!applied) return;
    }
    ok_ = true;
  }
  ~PreviousReleaseStore() {
    own_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  PreviousReleaseStore(const PreviousReleaseStore&) = delete;
  PreviousReleaseStore& operator=(const PreviousReleaseStore&) = delete;

  bool ok() const { return ok_; }
  Store& store() { return *store_; }

 private:
  std::filesystem::path dir_;
  std::unique_ptr<Store> own_;
  Store* store_ = nullptr;
  bool ok_ = false;
};

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
    return conformance::ReadOk(*store_, std::forward<Body>(body));
  }
  // The value of a write that must succeed; an error throws, which fails the test with its text.
  template <class Body>
  auto WriteOk(Body&& body) {
    return store_->Write(std::forward<Body>(body)).value();
  }

  // An owner user u-1, organization o-1 and project p-1 for rows that reference them.
  void SeedProject() {
    ASSERT_TRUE(Ok(Write([](Transaction& tx) -> Result<void> {
      if (auto r = tx.accounts().InsertUser(MakeUser("u-1", "owner@example.com")); !r) return r;
      if (auto r = tx.accounts().InsertOrganization(MakeOrg("o-1", "acme")); !r) return r;
      return tx.accounts().InsertProject(MakeProject("p-1", "o-1", "Website"));
    })));
  }
  // SeedProject plus a second project p-2 "Shop" of o-1, for rows that must stay per project.
  void SeedTwoProjects() {
    SeedProject();
    ASSERT_TRUE(Ok(Write([](Transaction& tx) {
      return tx.accounts().InsertProject(MakeProject("p-2", "o-1", "Shop", 2000));
    })));
  }

  // Tenant n: organization o-n (slug org-n) with owner u-n, an invitation, an audit row, and
  // projects p-n-a and p-n-b, each with a key, an event and a bot request.
  void SeedTenant(const std::string& n) {
    WriteOk([&](Transaction& tx) -> Result<void> {
      if (auto r = tx.accounts().InsertUser(MakeUser("u-" + n, "user-" + n + "@example.com")); !r)
        return r;
      if (auto r = tx.accounts().InsertOrganization(MakeOrg("o-" + n, "org-" + n)); !r) return r;
      if (auto r = tx.accounts().PutMembership({"o-" + n, "u-" + n, "owner", 1000}); !r) return r;
      if (auto r =
              tx.accounts().InsertInvitation(MakeInvitation("i-" + n, "o-" + n, "tok-" + n, 2000));
          !r) {
        return r;
      }
      if (auto r = tx.accounts().InsertAudit(MakeAudit("a-" + n, "o-" + n, 3000)); !r) return r;
      for (const std::string suffix : {"-a", "-b"}) {
        const ProjectRecord p = MakeProject("p-" + n + suffix, "o-" + n, "Site" + suffix);
        const EventRecord e = SparseEvent("e-" + n + suffix, p.id, 4000);
        const BotRequestRecord b = MinimalBot("b-" + n + suffix, p.id, 4000);
        if (auto r = tx.accounts().InsertProject(p); !r) return r;
        if (auto r =
                tx.accounts().InsertApiKey(MakeKey("k-" + n + suffix, p, "h-" + n + suffix, 2000));
            !r) {
          return r;
        }
        if (auto r = tx.events().InsertEvents({&e, 1}); !r) return r;
        if (auto r = tx.events().InsertBotRequests({&b, 1}); !r) return r;
      }
      return {};
    });
  }

  // {organization found, members, invitations, audit rows, projects} of tenant n.
  std::vector<std::size_t> OrganizationFootprint(const std::string& n) {
    const std::string org = "o-" + n;
    AuditQuery audit;
    audit.organization_id = org;
    return {ReadOk([&](Transaction& tx) {
              return tx.accounts().FindOrganizationById(org);
            }).has_value(),
            ReadOk([&](Transaction& tx) { return tx.accounts().ListMembers(org); }).size(),
            ReadOk([&](Transaction& tx) { return tx.accounts().ListInvitations(org); }).size(),
            ReadOk([&](Transaction& tx) { return tx.accounts().ListAudit(audit); }).size(),
            ReadOk([&](Transaction& tx) { return tx.accounts().ListProjects(org); }).size()};
  }
  // {project found, its key found, events, bot requests, rollup marks} of project p-<name>.
  std::vector<std::size_t> ProjectFootprint(const std::string& name) {
    const std::string project = "p-" + name;
    return {
        ReadOk([&](Transaction& tx) { return tx.accounts().FindProject(project); }).has_value(),
        ReadOk([&](Transaction& tx) { return tx.accounts().FindApiKey("k-" + name); }).has_value(),
        ReadOk([&](Transaction& tx) { return tx.events().ListRecentEvents(project, 100); }).size(),
        ReadOk([&](Transaction& tx) {
          return tx.events().ListRecentBotRequests(project, 100);
        }).size(),
        ReadOk([&](Transaction& tx) { return tx.reports().ListRollupMarks(project); }).size()};
  }

  std::filesystem::path temp_dir_;
  std::unique_ptr<Store> store_;
};

}  // namespace sightline::storage::conformance
