// Paging through lists with `limit` and `cursor`, in process on both stores: following
// nextCursor visits every row once, in the list's order, and the last page says so; a cursor
// the API did not give out (or gave out for another list) is refused with VAL_003.
#include "tests/operations/operation_fixture.h"

#include <chrono>
#include <set>
#include <string>
#include <vector>

namespace sightline::operations {
namespace {

using storage::conformance::Backend;
using storage::conformance::IsError;

class ListPaging : public OperationFixture {
 protected:
  json::object Org(json::object more = {}) const {
    more["orgSlug"] = bootstrap_.organization_slug;
    return more;
  }

  // `count` projects, two created in each millisecond so that ties on the time are broken by
  // the id; each also writes an audit entry.
  void CreateProjects(int count) {
    for (int i = 0; i < count; ++i) {
      if (i % 2 == 0) clock_.Advance(std::chrono::milliseconds(1));
      ASSERT_TRUE(Ok(Call("create_project", Caller::kOwner,
                          Org({{"name", "Project " + std::to_string(i)}}))));
    }
  }

  // Every page of `operation` with `limit`, following nextCursor: the ids of `member`'s rows in
  // the order given, and how many pages there were.
  std::vector<std::string> Walk(std::string_view operation, std::string_view member,
                                std::string_view id_field, std::int64_t limit, int& pages) {
    std::vector<std::string> ids;
    json::object args = Org({{"limit", limit}});
    for (pages = 1; pages < 1000; ++pages) {
      auto page = Call(operation, Caller::kOwner, args);
      EXPECT_TRUE(Ok(page));
      if (!page) break;
      const json::value answer = *page;
      const json::array& rows = answer.at(member).as_array();
      EXPECT_LE(rows.size(), static_cast<std::size_t>(limit));
      for (const json::value& row : rows) ids.emplace_back(row.at(id_field).as_string());
      const json::value& next = answer.at("nextCursor");
      if (next.is_null()) break;
      EXPECT_FALSE(rows.empty()) << "a page before the last one is never empty";
      args["cursor"] = next;
    }
    return ids;
  }

  // The whole list in one call (no limit: what version 1 answered).
  std::vector<std::string> Whole(std::string_view operation, std::string_view member,
                                 std::string_view id_field, json::object args) {
    std::vector<std::string> ids;
    auto all = Call(operation, Caller::kOwner, args);
    EXPECT_TRUE(Ok(all));
    if (!all) return ids;
    const json::value answer = *all;
    for (const json::value& row : answer.at(member).as_array()) {
      ids.emplace_back(row.at(id_field).as_string());
    }
    EXPECT_TRUE(answer.at("nextCursor").is_null());
    return ids;
  }
};

void ExpectEachOnce(const std::vector<std::string>& ids) {
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size()) << "duplicates";
}

TEST_P(ListPaging, AuditLogPagesVisitEveryEntryOnce) {
  ASSERT_NO_FATAL_FAILURE(CreateProjects(11));
  const auto all = Whole("list_audit_log", "entries", "id", Org({{"limit", 200}}));
  ASSERT_GE(all.size(), 11u);
  for (std::int64_t limit : {1, 3, 4, 200}) {
    int pages = 0;
    const auto walked = Walk("list_audit_log", "entries", "id", limit, pages);
    EXPECT_EQ(walked, all) << "limit " << limit;  // same rows, same order: no gaps, no repeats
    ExpectEachOnce(walked);
    // One row more than the page is read, so a last page that is full says it is the last.
    EXPECT_EQ(pages, static_cast<int>((all.size() + limit - 1) / limit)) << "limit " << limit;
  }
}

TEST_P(ListPaging, ProjectsPageInMemoryWithTheSameCursors) {
  ASSERT_NO_FATAL_FAILURE(CreateProjects(7));
  const auto all = Whole("list_projects", "projects", "id", Org());
  ASSERT_EQ(all.size(), 8u);  // the bootstrap's project and the seven
  for (std::int64_t limit : {1, 2, 3, 8, 9}) {
    int pages = 0;
    const auto walked = Walk("list_projects", "projects", "id", limit, pages);
    EXPECT_EQ(walked, all) << "limit " << limit;
    ExpectEachOnce(walked);
  }
}

// Keys of both kinds share one table: each list pages through its own kind only. Invitations
// come newest first.
TEST_P(ListPaging, KeysAndInvitationsPageByKeyset) {
  json::object project = Org({{"projectId", bootstrap_.project_id}});
  for (int i = 0; i < 5; ++i) {
    if (i % 2 == 0) clock_.Advance(std::chrono::milliseconds(1));
    json::object named = project;
    named["name"] = "key " + std::to_string(i);
    ASSERT_TRUE(Ok(Call("create_sdk_key", Caller::kOwner, named)));
    ASSERT_TRUE(Ok(Call("create_private_api_key", Caller::kOwner, named)));
    ASSERT_TRUE(Ok(Call("create_invitation", Caller::kOwner,
                        Org({{"email", "invitee" + std::to_string(i) + "@example.com"},
                             {"role", "analyst"}}))));
  }
  for (const char* list : {"list_sdk_keys", "list_private_api_keys"}) {
    const auto all = Whole(list, "keys", "id", project);
    ASSERT_GE(all.size(), 5u) << list;
    for (std::int64_t limit : {1, 2, 5}) {
      std::vector<std::string> walked;
      json::object args = project;
      args["limit"] = limit;
      for (int pages = 0; pages < 100; ++pages) {
        auto page = Call(list, Caller::kOwner, args);
        ASSERT_TRUE(Ok(page));
        const json::value answer = *page;
        for (const json::value& key : answer.at("keys").as_array()) {
          walked.emplace_back(key.at("id").as_string());
        }
        if (answer.at("nextCursor").is_null()) break;
        args["cursor"] = answer.at("nextCursor");
      }
      EXPECT_EQ(walked, all) << list << " limit " << limit;
    }
  }
  const auto invitations = Whole("list_invitations", "invitations", "id", Org());
  ASSERT_GE(invitations.size(), 5u);
  int pages = 0;
  EXPECT_EQ(Walk("list_invitations", "invitations", "id", 2, pages), invitations);
}

TEST_P(ListPaging, ACursorStaysInItsList) {
  ASSERT_NO_FATAL_FAILURE(CreateProjects(3));
  auto first = Call("list_projects", Caller::kOwner, Org({{"limit", 1}}));
  ASSERT_TRUE(Ok(first));
  const json::value answer = *first;
  const json::value cursor = answer.at("nextCursor");
  ASSERT_TRUE(cursor.is_string());
  // A project cursor given to the audit log, and cursors nobody gave out.
  for (const json::value& wrong :
       {cursor, json::value("bm90IGEgY3Vyc29y"), json::value("%%%"),
        json::value(core::Base64UrlEncode("1773662400000:abc"))}) {
    auto refused = Call("list_audit_log", Caller::kOwner, Org({{"cursor", wrong}}));
    EXPECT_TRUE(IsError(refused, core::ErrorCode::kValInvalidParameter)) << wrong;
    if (!refused) {
      EXPECT_EQ(refused.error().message(), "'cursor' is not a cursor this API gave out.");
    }
  }
  // A cursor with one character changed.
  std::string edited(cursor.as_string());
  edited[edited.size() / 2] = edited[edited.size() / 2] == 'A' ? 'B' : 'A';
  EXPECT_TRUE(IsError(Call("list_projects", Caller::kOwner, Org({{"cursor", edited}})),
                      core::ErrorCode::kValInvalidParameter));
}

TEST_P(ListPaging, TheFixedCatalogsAreOnePage) {
  auto roles = Call("list_roles", Caller::kOwner, Org());
  ASSERT_TRUE(Ok(roles));
  const json::value answer = *roles;
  EXPECT_TRUE(answer.at("nextCursor").is_null());
  EXPECT_EQ(answer.at("roles").as_array().size(), 5u);
}

INSTANTIATE_TEST_SUITE_P(Sqlite, ListPaging, ::testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, ListPaging, ::testing::Values(Backend::kPostgres));

}  // namespace
}  // namespace sightline::operations
