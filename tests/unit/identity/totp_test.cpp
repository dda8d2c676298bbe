// TOTP against the published vectors: RFC 4226 appendix D (HOTP), RFC 6238 appendix B (TOTP,
// SHA-1, 8 digits) and RFC 4648 section 10 (base32).
#include "identity/totp.h"

#include <gtest/gtest.h>

namespace sightline::identity {
namespace {

constexpr std::string_view kRfcKey = "12345678901234567890";

TEST(Hotp, Rfc4226AppendixD) {
  const char* expected[] = {"755224", "287082", "359152", "969429", "338314",
                            "254676", "287922", "162583", "399871", "520489"};
  for (std::uint64_t counter = 0; counter < 10; ++counter) {
    EXPECT_EQ(Hotp(kRfcKey, counter), expected[counter]) << counter;
  }
}

TEST(Totp, Rfc6238AppendixBSha1) {
  const std::pair<std::int64_t, const char*> vectors[] = {
      {59, "94287082"},         {1111111109, "07081804"}, {1111111111, "14050471"},
      {1234567890, "89005924"}, {2000000000, "69279037"}, {20000000000, "65353130"}};
  for (const auto& [time, code] : vectors) {
    EXPECT_EQ(Hotp(kRfcKey, TotpStep(time), 8), code) << time;
  }
}

TEST(Totp, MatchesTheStepWithinOneStepEitherSide) {
  const std::int64_t now = 1111111111;
  const std::uint64_t step = TotpStep(now);
  EXPECT_EQ(MatchTotp(kRfcKey, Hotp(kRfcKey, step), now), step);
  EXPECT_EQ(MatchTotp(kRfcKey, Hotp(kRfcKey, step - 1), now), step - 1);
  EXPECT_EQ(MatchTotp(kRfcKey, Hotp(kRfcKey, step + 1), now), step + 1);
  EXPECT_FALSE(MatchTotp(kRfcKey, Hotp(kRfcKey, step + 2), now));
  EXPECT_FALSE(MatchTotp(kRfcKey, Hotp(kRfcKey, step - 2), now));
  const std::string spaced = Hotp(kRfcKey, step).insert(3, " ");
  EXPECT_EQ(MatchTotp(kRfcKey, spaced, now), step);
  EXPECT_FALSE(MatchTotp(kRfcKey, "12345", now));
  EXPECT_FALSE(MatchTotp(kRfcKey, "12345a", now));
  EXPECT_FALSE(MatchTotp(kRfcKey, "", now));
}

TEST(Base32, Rfc4648Vectors) {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                         {"f", "MY"},
                                                         {"fo", "MZXQ"},
                                                         {"foo", "MZXW6"},
                                                         {"foob", "MZXW6YQ"},
                                                         {"fooba", "MZXW6YTB"},
                                                         {"foobar", "MZXW6YTBOI"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(Base32Encode(plain), encoded);
    EXPECT_EQ(Base32Decode(encoded), plain);
  }
  EXPECT_EQ(Base32Decode("mzxw6ytboi======"), "foobar");
  EXPECT_FALSE(Base32Decode("MZXW1"));  // 1 is not in the alphabet
}

TEST(Totp, OtpauthUriNamesIssuerAccountAndParameters) {
  EXPECT_EQ(OtpauthUri("Sightline", "ana@example.com", "foobar"),
            "otpauth://totp/Sightline:ana%40example.com?secret=MZXW6YTBOI&issuer=Sightline&"
            "algorithm=SHA1&digits=6&period=30");
}

}  // namespace
}  // namespace sightline::identity
