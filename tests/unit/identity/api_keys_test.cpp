#include "identity/api_keys.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sightline::identity {
namespace {

using storage::KeyKind;

bool IsBase62(char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

bool IsLowerHex(const std::string& text) {
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

constexpr std::string_view kRandom32 = "AbCdEfGhIjKlMnOpQrStUvWxYz012345";

TEST(GenerateKey, SdkKeyForm) {
  const NewKeySecret key = GenerateKey(KeyKind::kSdk);
  ASSERT_EQ(key.secret.size(), 11u + 32u);
  EXPECT_TRUE(key.secret.starts_with("pk_service_")) << key.secret;
  for (char c : key.secret.substr(11)) EXPECT_TRUE(IsBase62(c)) << key.secret;
  EXPECT_EQ(ParseKeyKind(key.secret), KeyKind::kSdk);
}

TEST(GenerateKey, PrivateKeyForm) {
  const NewKeySecret key = GenerateKey(KeyKind::kPrivate);
  ASSERT_EQ(key.secret.size(), 11u + 32u);
  EXPECT_TRUE(key.secret.starts_with("sk_service_")) << key.secret;
  for (char c : key.secret.substr(11)) EXPECT_TRUE(IsBase62(c)) << key.secret;
  EXPECT_EQ(ParseKeyKind(key.secret), KeyKind::kPrivate);
}

TEST(GenerateKey, HashIsSha256HexOfTheWholeSecretAndHidesIt) {
  const NewKeySecret key = GenerateKey(KeyKind::kPrivate);
  EXPECT_EQ(key.hash.size(), 64u);
  EXPECT_TRUE(IsLowerHex(key.hash)) << key.hash;
  EXPECT_EQ(key.hash, HashKey(key.secret));
  EXPECT_EQ(key.hash.find(key.secret.substr(11)), std::string::npos);
  EXPECT_EQ(key.display_prefix, key.secret.substr(0, 15));
  EXPECT_NE(GenerateKey(KeyKind::kPrivate).secret, key.secret);
}

TEST(HashKey, IsSha256Hex) {
  // sha256("abc"), FIPS 180-2.
  EXPECT_EQ(HashKey("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(ParseKeyKind, AcceptsWellFormedKeys) {
  EXPECT_EQ(ParseKeyKind("pk_service_" + std::string(kRandom32)), KeyKind::kSdk);
  EXPECT_EQ(ParseKeyKind("sk_service_" + std::string(kRandom32)), KeyKind::kPrivate);
}

TEST(ParseKeyKind, RejectsNearMisses) {
  const std::string random(kRandom32);
  const std::vector<std::string> near_misses = {
      "sk_service_" + random.substr(0, 31),        // 31 characters
      "sk_service_" + random + "6",                // 33 characters
      "sk_service_" + random.substr(0, 31) + "-",  // not base62
      "sk_service_" + random.substr(0, 31) + "_",
      "sk_service_" + random.substr(0, 31) + "=",
      "sk_service_" + random.substr(0, 30) + "\xC3\xA9",  // non-ASCII
      "sk_service_" + random.substr(0, 31) + " ",
      "SK_service_" + random,       // prefix is case-sensitive
      "sk_servic_" + random + "x",  // wrong prefix, same length
      "rk_service_" + random,
      "sk_live_" + random,
      "pk_service" + random + "x",
      std::string("sk_service_"),
      std::string(),
      random,
  };
  for (const std::string& text : near_misses) {
    EXPECT_EQ(ParseKeyKind(text), std::nullopt) << text;
  }
}

TEST(DisplayPrefix, KindPrefixPlusFourCharacters) {
  EXPECT_EQ(DisplayPrefix("sk_service_" + std::string(kRandom32)), "sk_service_AbCd");
  EXPECT_EQ(DisplayPrefix("pk_service_" + std::string(kRandom32)), "pk_service_AbCd");
  EXPECT_EQ(DisplayPrefix("sk_service_ab"), "sk_service_ab");  // short input is not overrun
  EXPECT_EQ(DisplayPrefix(""), "");
}

}  // namespace
}  // namespace sightline::identity
