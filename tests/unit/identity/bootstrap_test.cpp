#include "identity/bootstrap.h"

#include "identity/api_keys.h"
#include "identity/authenticator.h"
#include "tests/unit/testing/temp_store.h"

#include <gtest/gtest.h>

#include <string>

namespace sightline::identity {
namespace {

using core::ErrorCode;

TEST(SlugFor, LowercasesAndJoinsWordsWithDashes) {
  EXPECT_EQ(SlugFor("Acme Inc."), "acme-inc");
  EXPECT_EQ(SlugFor("  Hello,   World!! 2024 "), "hello-world-2024");
  EXPECT_EQ(SlugFor("already-a-slug"), "already-a-slug");
  EXPECT_EQ(SlugFor("Z\xC3\xBCrich GmbH"), "z-rich-gmbh");  // non-ASCII bytes separate words
}

TEST(SlugFor, ReservedWordsGetAnOrgSuffix) {
  EXPECT_EQ(SlugFor("api"), "api-org");
  EXPECT_EQ(SlugFor("API"), "api-org");
  EXPECT_EQ(SlugFor("Users"), "users-org");
  EXPECT_EQ(SlugFor("v2"), "v2-org");
  EXPECT_EQ(SlugFor("Web Analytics"), "web-analytics-org");
  EXPECT_EQ(SlugFor("apis"), "apis");
  EXPECT_TRUE(IsReservedSlug("healthz"));
  EXPECT_TRUE(IsReservedSlug("login")) << "the dashboard's own views";
  EXPECT_TRUE(IsReservedSlug("assets"));
  EXPECT_FALSE(IsReservedSlug("acme"));
}

TEST(SlugFor, EmptyOrSymbolOnlyNamesBecomeOrg) {
  EXPECT_EQ(SlugFor(""), "org");
  EXPECT_EQ(SlugFor("!!! ..."), "org");
  EXPECT_EQ(SlugFor("\xE6\x97\xA5\xE6\x9C\xAC"), "org");
}

TEST(SlugFor, LongNamesAreTruncatedTo48WithoutATrailingDash) {
  EXPECT_EQ(SlugFor(std::string(60, 'a')), std::string(48, 'a'));
  // The 48th character would be the dash between the words.
  const std::string slug = SlugFor(std::string(47, 'b') + " second word");
  EXPECT_EQ(slug, std::string(47, 'b'));
  EXPECT_EQ(SlugFor(std::string(46, 'c') + " de"), std::string(46, 'c') + "-d");
}

TEST(IsValidEmail, NeedsLocalPartAtAndDottedDomain) {
  EXPECT_TRUE(IsValidEmail("owner@example.com"));
  EXPECT_FALSE(IsValidEmail("@example.com"));
  EXPECT_FALSE(IsValidEmail("owner@localhost"));
  EXPECT_FALSE(IsValidEmail("owner@example."));
  EXPECT_FALSE(IsValidEmail("own er@example.com"));
  EXPECT_FALSE(IsValidEmail(std::string(250, 'a') + "@b.cd"));
}

class BootstrapTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(temp_.ok()) << "could not open a temp SQLite store"; }

  testutil::TempStore temp_;
  core::ManualClock clock_{1767225600000};
};

TEST_F(BootstrapTest, FirstRunCreatesOwnerOrganizationProjectAndKeys) {
  auto result = Bootstrap(temp_.store(), clock_, testutil::DefaultBootstrapRequest());
  ASSERT_TRUE(result) << result.error().message() << " " << result.error().internal();
  EXPECT_TRUE(result->user_created);
  EXPECT_EQ(result->organization_slug, "acme-inc");
  EXPECT_EQ(ParseKeyKind(result->sdk_key), storage::KeyKind::kSdk);
  EXPECT_EQ(ParseKeyKind(result->private_api_key), storage::KeyKind::kPrivate);

  Authenticator authenticator(temp_.store());
  auto principal = authenticator.AuthenticatePrivateKey(result->private_api_key);
  ASSERT_TRUE(principal) << principal.error().message();
  EXPECT_EQ(principal->project_id, result->project_id);
  EXPECT_EQ(principal->user_id, result->user_id);
}

TEST_F(BootstrapTest, SecondRunReusesEverythingAndReplacesTheKeys) {
  const BootstrapRequest request = testutil::DefaultBootstrapRequest();
  auto first = Bootstrap(temp_.store(), clock_, request);
  ASSERT_TRUE(first);
  BootstrapRequest again = request;
  again.email = "OWNER@Example.com";  // emails are matched case-insensitively
  again.password = "a different password";
  auto second = Bootstrap(temp_.store(), clock_, again);
  ASSERT_TRUE(second) << second.error().message() << " " << second.error().internal();
  EXPECT_FALSE(second->user_created);
  EXPECT_EQ(second->user_id, first->user_id);
  EXPECT_EQ(second->organization_slug, first->organization_slug);
  EXPECT_EQ(second->project_id, first->project_id);
  EXPECT_NE(second->private_api_key, first->private_api_key);
  EXPECT_NE(second->sdk_key, first->sdk_key);

  Authenticator authenticator(temp_.store());
  auto old_key = authenticator.AuthenticatePrivateKey(first->private_api_key);
  ASSERT_FALSE(old_key);
  EXPECT_EQ(old_key.error().code(), ErrorCode::kAuthInvalidCredential);
  auto old_sdk = authenticator.AuthenticateSdkKey(first->sdk_key);
  ASSERT_FALSE(old_sdk);
  EXPECT_EQ(old_sdk.error().code(), ErrorCode::kAuthInvalidCredential);
  EXPECT_TRUE(authenticator.AuthenticatePrivateKey(second->private_api_key));
  EXPECT_TRUE(authenticator.AuthenticateSdkKey(second->sdk_key));
}

TEST_F(BootstrapTest, RejectsInvalidRequestsNamingTheField) {
  BootstrapRequest request = testutil::DefaultBootstrapRequest();
  request.email = "not-an-email";
  auto result = Bootstrap(temp_.store(), clock_, request);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code(), ErrorCode::kValInvalidParameter);
  EXPECT_EQ(result.error().details().at("field").as_string(), "email");

  request = testutil::DefaultBootstrapRequest();
  request.project_name = "";
  result = Bootstrap(temp_.store(), clock_, request);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().details().at("field").as_string(), "project");

  request = testutil::DefaultBootstrapRequest();
  request.password = "short";
  result = Bootstrap(temp_.store(), clock_, request);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().details().at("field").as_string(), "password");
}

}  // namespace
}  // namespace sightline::identity
