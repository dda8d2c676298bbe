#include "identity/jwt.h"

#include "core/crypto.h"

#include <gtest/gtest.h>

namespace sightline::identity {
namespace {

using core::ErrorCode;

const TokenClaims kClaims{"user-1", "session-1", "access", 1767225600, 1767226500};

TEST(Jwt, RoundTripsItsClaims) {
  const std::string token = SignToken(kClaims, "secret");
  EXPECT_TRUE(LooksLikeJwt(token));
  auto claims = VerifyToken(token, "secret", kClaims.issued_at + 10);
  ASSERT_TRUE(claims) << claims.error().message();
  EXPECT_EQ(claims->user_id, "user-1");
  EXPECT_EQ(claims->session_id, "session-1");
  EXPECT_EQ(claims->type, "access");
  EXPECT_EQ(claims->expires_at, kClaims.expires_at);
}

TEST(Jwt, ExpiresAtItsExpiryTime) {
  const std::string token = SignToken(kClaims, "secret");
  EXPECT_TRUE(VerifyToken(token, "secret", kClaims.expires_at - 1));
  auto expired = VerifyToken(token, "secret", kClaims.expires_at);
  ASSERT_FALSE(expired);
  EXPECT_EQ(expired.error().code(), ErrorCode::kAuthExpiredCredential);
}

TEST(Jwt, AnotherSecretOrATamperedPayloadFailsTheSignature) {
  const std::string token = SignToken(kClaims, "secret");
  EXPECT_EQ(VerifyToken(token, "other", kClaims.issued_at).error().code(),
            ErrorCode::kAuthInvalidCredential);
  const std::string forged_payload = core::Base64UrlEncode(
      R"({"iss":"sightline","sub":"admin","sid":"session-1","typ":"access","iat":1,"exp":9999999999})");
  const auto first = token.find('.');
  const auto last = token.rfind('.');
  const std::string forged = token.substr(0, first + 1) + forged_payload + token.substr(last);
  EXPECT_EQ(VerifyToken(forged, "secret", kClaims.issued_at).error().code(),
            ErrorCode::kAuthInvalidCredential);
}

TEST(Jwt, RefusesAlgNoneAndOtherHeaders) {
  const std::string payload = SignToken(kClaims, "secret").substr(SignToken(kClaims, "secret").find('.'));
  const std::string none = core::Base64UrlEncode(R"({"alg":"none","typ":"JWT"})") +
                           payload.substr(0, payload.rfind('.')) + ".";
  EXPECT_EQ(VerifyToken(none, "secret", kClaims.issued_at).error().code(),
            ErrorCode::kAuthMalformedCredential);
  const std::string hs512 = core::Base64UrlEncode(R"({"alg":"HS512","typ":"JWT"})") + payload;
  EXPECT_EQ(VerifyToken(hs512, "secret", kClaims.issued_at).error().code(),
            ErrorCode::kAuthMalformedCredential);
}

TEST(Jwt, MalformedTokensAreAuth001) {
  for (const char* bad : {"", "abc", "a.b", "a.b.c.d", "!!.??.**", "a.b.c"}) {
    auto verified = VerifyToken(bad, "secret", kClaims.issued_at);
    ASSERT_FALSE(verified) << bad;
    EXPECT_EQ(verified.error().code(), ErrorCode::kAuthMalformedCredential) << bad;
  }
}

TEST(Base64Url, RoundTripsEveryLengthAndRejectsForeignCharacters) {
  std::string bytes;
  for (int i = 0; i < 40; ++i) {
    bytes.push_back(static_cast<char>(i * 37));
    const std::string encoded = core::Base64UrlEncode(bytes);
    EXPECT_EQ(encoded.find_first_of("+/="), std::string::npos);
    EXPECT_EQ(core::Base64UrlDecode(encoded), bytes);
  }
  EXPECT_EQ(core::Base64UrlDecode("ab+/"), std::nullopt);
  EXPECT_EQ(core::Base64UrlDecode("a"), std::nullopt);
}

}  // namespace
}  // namespace sightline::identity
