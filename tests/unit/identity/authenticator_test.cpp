#include "identity/authenticator.h"

#include "identity/api_keys.h"
#include "identity/bootstrap.h"
#include "storage/account_repository.h"
#include "tests/unit/testing/temp_store.h"

#include <gtest/gtest.h>

#include <memory>

namespace sightline::identity {
namespace {

using core::ErrorCode;

// One store and one bootstrap for the suite: password hashing (argon2id) is deliberately slow.
class AuthenticatorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    temp_ = new testutil::TempStore();
    if (!temp_->ok()) return;
    core::ManualClock clock(1767225600000);
    auto result = Bootstrap(temp_->store(), clock, testutil::DefaultBootstrapRequest());
    if (result) keys_ = new BootstrapResult(std::move(*result));
  }
  static void TearDownTestSuite() {
    delete keys_;
    keys_ = nullptr;
    delete temp_;
    temp_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(temp_->ok()) << "could not open a temp SQLite store";
    ASSERT_NE(keys_, nullptr) << "bootstrap failed";
  }

  void SetRole(std::string_view role) {
    auto done = temp_->store().Write([&](storage::Transaction& tx) -> core::Result<void> {
      auto org = tx.accounts().FindOrganizationBySlug(keys_->organization_slug);
      if (!org) return org.error();
      return tx.accounts().PutMembership({(*org)->id, keys_->user_id, std::string(role), 0});
    });
    ASSERT_TRUE(done) << done.error().message();
  }

  static testutil::TempStore* temp_;
  static BootstrapResult* keys_;
};

testutil::TempStore* AuthenticatorTest::temp_ = nullptr;
BootstrapResult* AuthenticatorTest::keys_ = nullptr;

TEST_F(AuthenticatorTest, PrivateKeyHoldsItsCreatorsRoleLimitedForKeys) {
  Authenticator authenticator(temp_->store());
  auto principal = authenticator.AuthenticatePrivateKey(keys_->private_api_key);
  ASSERT_TRUE(principal) << principal.error().message();
  EXPECT_EQ(principal->kind, CredentialKind::kPrivateApiKey);
  EXPECT_EQ(principal->permissions, LimitForPrivateApiKey(RolePermissions(Role::kOwner)));
  EXPECT_FALSE(principal->permissions.Has(Permission::kSdkKeyCreate));
  EXPECT_FALSE(principal->permissions.Has(Permission::kPrivateApiKeyCreate));
  EXPECT_EQ(principal->project_id, keys_->project_id);
  EXPECT_FALSE(principal->organization_id.empty());
  EXPECT_FALSE(principal->credential_id.empty());
  EXPECT_EQ(principal->credential_id.find(keys_->private_api_key), std::string::npos);
}

TEST_F(AuthenticatorTest, RoleChangesApplyToTheNextRequest) {
  Authenticator authenticator(temp_->store());
  SetRole("analyst");
  auto principal = authenticator.AuthenticatePrivateKey(keys_->private_api_key);
  SetRole("owner");
  ASSERT_TRUE(principal);
  EXPECT_EQ(principal->permissions, LimitForPrivateApiKey(RolePermissions(Role::kAnalyst)));
  EXPECT_FALSE(principal->permissions.Has(Permission::kProjectManage));
}

TEST_F(AuthenticatorTest, UnknownRoleLeavesNoPermissions) {
  Authenticator authenticator(temp_->store());
  SetRole("retired");
  auto principal = authenticator.AuthenticatePrivateKey(keys_->private_api_key);
  SetRole("owner");
  ASSERT_TRUE(principal);  // the key itself is valid: 403s follow, not 401s
  EXPECT_EQ(principal->permissions, PermissionSet());
}

TEST_F(AuthenticatorTest, SdkKeyOnlyIngests) {
  Authenticator authenticator(temp_->store());
  auto principal = authenticator.AuthenticateSdkKey(keys_->sdk_key);
  ASSERT_TRUE(principal) << principal.error().message();
  EXPECT_EQ(principal->kind, CredentialKind::kSdkKey);
  EXPECT_EQ(principal->permissions.Names(), std::vector<std::string_view>{"events.ingest"});
}

TEST_F(AuthenticatorTest, WrongKindIsAuth005) {
  Authenticator authenticator(temp_->store());
  auto sdk_as_private = authenticator.AuthenticatePrivateKey(keys_->sdk_key);
  ASSERT_FALSE(sdk_as_private);
  EXPECT_EQ(sdk_as_private.error().code(), ErrorCode::kAuthWrongCredentialKind);
  EXPECT_EQ(sdk_as_private.error().info().id, "AUTH_005");
  EXPECT_EQ(sdk_as_private.error().http_status(), 401);
  auto private_as_sdk = authenticator.AuthenticateSdkKey(keys_->private_api_key);
  ASSERT_FALSE(private_as_sdk);
  EXPECT_EQ(private_as_sdk.error().code(), ErrorCode::kAuthWrongCredentialKind);
}

TEST_F(AuthenticatorTest, MalformedIsAuth001AndUnknownIsAuth002) {
  Authenticator authenticator(temp_->store());
  auto malformed = authenticator.AuthenticatePrivateKey("Bearer sk_service_x");
  ASSERT_FALSE(malformed);
  EXPECT_EQ(malformed.error().info().id, "AUTH_001");
  auto unknown =
      authenticator.AuthenticatePrivateKey(GenerateKey(storage::KeyKind::kPrivate).secret);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().info().id, "AUTH_002");
  EXPECT_EQ(unknown.error().http_status(), 401);
}

}  // namespace
}  // namespace sightline::identity
