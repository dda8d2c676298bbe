#include "api/router.h"

#include "tests/unit/testing/schema_documents.h"

#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sightline::api {
namespace {

namespace json = boost::json;
using core::HttpMethod;
using Outcome = RouteMatch::Outcome;
using Parameters = std::vector<std::pair<std::string, std::string>>;

core::Result<json::value> RunNothing(tools::OperationContext&, const json::object&) {
  return json::value(json::object());
}

constexpr std::string_view kOrgInput = R"({"type": "object",
    "properties": {"orgSlug": {"type": "string"}, "projectId": {"type": "string"}}})";

tools::OperationSpec Spec(std::string_view name, HttpMethod method, std::string_view path) {
  return {.name = name,
          .summary = "s",
          .description = "d",
          .tag = "t",
          .method = method,
          .path = path,
          .permission = identity::Permission::kProjectView,
          .effect = method == HttpMethod::kGet ? tools::Effect::kReadOnly : tools::Effect::kWrite,
          .credentials = identity::CredentialKind::kPrivateApiKey,
          .run = RunNothing};
}

// Parameter templates are listed before the literal one on purpose: order must not matter.
const std::array<tools::OperationSpec, 6>& Fixtures() {
  static const std::array<tools::OperationSpec, 6> specs = {
      Spec("get_org_me", HttpMethod::kGet, "/{orgSlug}/me"),
      Spec("update_org_me", HttpMethod::kPatch, "/{orgSlug}/me"),
      Spec("get_project", HttpMethod::kGet, "/{orgSlug}/projects/{projectId}"),
      Spec("delete_project", HttpMethod::kDelete, "/{orgSlug}/projects/{projectId}"),
      Spec("get_me", HttpMethod::kGet, "/users/me"),
      Spec("get_health_detail", HttpMethod::kGet, "/status/detail"),
  };
  return specs;
}

const testutil::TestSchemaDocuments& Schemas() {
  static const testutil::TestSchemaDocuments documents(
      Fixtures(), {{"get_org_me", kOrgInput}, {"update_org_me", kOrgInput},
                   {"get_project", kOrgInput}, {"delete_project", kOrgInput},
                   {"get_me", kOrgInput}, {"get_health_detail", kOrgInput}});
  return documents;
}

class RouterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto registry = tools::Registry::Build(Fixtures(), Schemas());
    ASSERT_TRUE(registry) << registry.error().internal();
    registry_ = std::move(*registry);
    router_.emplace(registry_);
  }

  RouteMatch Route(HttpMethod method, std::string_view path) {
    return router_->Route(method, path);
  }
  std::string_view NameOf(const RouteMatch& match) {
    return match.operation ? match.operation->spec->name : "(none)";
  }

  tools::Registry registry_;
  std::optional<Router> router_;
};

TEST_F(RouterTest, LiteralSegmentBeatsAParameter) {
  const RouteMatch me = Route(HttpMethod::kGet, "/users/me");
  ASSERT_EQ(me.outcome, Outcome::kMatched);
  EXPECT_EQ(NameOf(me), "get_me");
  EXPECT_TRUE(me.path_parameters.empty());

  const RouteMatch org = Route(HttpMethod::kGet, "/acme/me");
  ASSERT_EQ(org.outcome, Outcome::kMatched);
  EXPECT_EQ(NameOf(org), "get_org_me");
  EXPECT_EQ(org.path_parameters, (Parameters{{"orgSlug", "acme"}}));
}

TEST_F(RouterTest, MatchesTheMethod) {
  const RouteMatch patch = Route(HttpMethod::kPatch, "/acme/me");
  ASSERT_EQ(patch.outcome, Outcome::kMatched);
  EXPECT_EQ(NameOf(patch), "update_org_me");
  const RouteMatch del = Route(HttpMethod::kDelete, "/acme/projects/p1");
  ASSERT_EQ(del.outcome, Outcome::kMatched);
  EXPECT_EQ(NameOf(del), "delete_project");
  EXPECT_EQ(del.path_parameters, (Parameters{{"orgSlug", "acme"}, {"projectId", "p1"}}));
}

TEST_F(RouterTest, WrongMethodIs405WithTheAllowedMethods) {
  const RouteMatch post = Route(HttpMethod::kPost, "/acme/me");
  EXPECT_EQ(post.outcome, Outcome::kMethodNotAllowed);
  EXPECT_EQ(post.operation, nullptr);
  EXPECT_EQ(post.allowed, (std::vector<HttpMethod>{HttpMethod::kGet, HttpMethod::kPatch}));

  const RouteMatch put = Route(HttpMethod::kPut, "/acme/projects/p1");
  EXPECT_EQ(put.outcome, Outcome::kMethodNotAllowed);
  EXPECT_EQ(put.allowed, (std::vector<HttpMethod>{HttpMethod::kGet, HttpMethod::kDelete}));
}

TEST_F(RouterTest, LiteralPathKeepsItsOwnMethodsEvenWhenAParameterRouteHasMore) {
  // "/users/me" is the user's route; it never falls through to an organization named "users".
  const RouteMatch patch = Route(HttpMethod::kPatch, "/users/me");
  EXPECT_EQ(patch.outcome, Outcome::kMethodNotAllowed);
  EXPECT_EQ(patch.allowed, std::vector<HttpMethod>{HttpMethod::kGet});
}

TEST_F(RouterTest, SegmentsArePercentDecodedBeforeMatching) {
  const RouteMatch match = Route(HttpMethod::kGet, "/acme%20co/projects/p%2F1%C3%A9");
  ASSERT_EQ(match.outcome, Outcome::kMatched);
  EXPECT_EQ(match.path_parameters,
            (Parameters{{"orgSlug", "acme co"}, {"projectId", "p/1\xC3\xA9"}}));
  // '+' is not a space in a path.
  EXPECT_EQ(Route(HttpMethod::kGet, "/a+b/me").path_parameters, (Parameters{{"orgSlug", "a+b"}}));
  // Literals compare decoded too: an escaped "users" is still the user route, never a slug.
  EXPECT_EQ(Route(HttpMethod::kGet, "/status/detai%6C").outcome, Outcome::kMatched);
  EXPECT_EQ(NameOf(Route(HttpMethod::kGet, "/user%73/me")), "get_me");
}

TEST_F(RouterTest, BadEscapeInAParameterIsNotFound) {
  EXPECT_EQ(Route(HttpMethod::kGet, "/acme/projects/%zz").outcome, Outcome::kNotFound);
  EXPECT_EQ(Route(HttpMethod::kGet, "/%4/me").outcome, Outcome::kNotFound);
}

TEST_F(RouterTest, EmptySegmentsAndTrailingSlashesAreIgnored) {
  for (std::string_view path : {"/users/me/", "//users//me", "users/me", "/users///me///"}) {
    const RouteMatch match = Route(HttpMethod::kGet, path);
    EXPECT_EQ(match.outcome, Outcome::kMatched) << path;
    EXPECT_EQ(NameOf(match), "get_me") << path;
  }
  EXPECT_EQ(Route(HttpMethod::kGet, "/acme/projects//p1/").path_parameters,
            (Parameters{{"orgSlug", "acme"}, {"projectId", "p1"}}));
}

TEST_F(RouterTest, NoMatchIsNotFound) {
  for (std::string_view path : {"", "/", "/acme", "/acme/me/extra", "/acme/projects",
                                "/users/you/too", "/status/details", "/Status/detail"}) {
    const RouteMatch match = Route(HttpMethod::kGet, path);
    EXPECT_EQ(match.outcome, Outcome::kNotFound) << path;
    EXPECT_EQ(match.operation, nullptr) << path;
    EXPECT_TRUE(match.allowed.empty()) << path;
  }
}

TEST(SplitPath, DropsEmptySegments) {
  EXPECT_EQ(SplitPath("/a/b"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(SplitPath("//a///b/"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(SplitPath("/{orgSlug}/me"), (std::vector<std::string>{"{orgSlug}", "me"}));
  EXPECT_TRUE(SplitPath("/").empty());
  EXPECT_TRUE(SplitPath("").empty());
}

}  // namespace
}  // namespace sightline::api
