#include "core/crypto.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace sightline::core {
namespace {

bool IsLowerHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

TEST(NewUuidV4, CanonicalLowercaseVersion4Rfc4122Variant) {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    const std::string id = NewUuidV4();
    ASSERT_EQ(id.size(), 36u) << id;
    for (std::size_t j = 0; j < id.size(); ++j) {
      if (j == 8 || j == 13 || j == 18 || j == 23) {
        EXPECT_EQ(id[j], '-') << id;
      } else {
        EXPECT_TRUE(IsLowerHex(id[j])) << id;
      }
    }
    EXPECT_EQ(id[14], '4') << id;
    EXPECT_NE(std::string("89ab").find(id[19]), std::string::npos) << id;
    EXPECT_TRUE(IsUuid(id)) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 200u);
}

TEST(IsUuid, AcceptsCanonicalFormInEitherCase) {
  EXPECT_TRUE(IsUuid("123e4567-e89b-12d3-a456-426614174000"));
  EXPECT_TRUE(IsUuid("123E4567-E89B-12D3-A456-426614174000"));
}

TEST(IsUuid, RejectsOtherShapes) {
  EXPECT_FALSE(IsUuid(""));
  EXPECT_FALSE(IsUuid("123e4567e89b12d3a456426614174000"));       // no dashes
  EXPECT_FALSE(IsUuid("123e4567-e89b-12d3-a456-42661417400"));    // 35 chars
  EXPECT_FALSE(IsUuid("123e4567-e89b-12d3-a456-4266141740000"));  // 37 chars
  EXPECT_FALSE(IsUuid("123e4567-e89b-12d3-a456-42661417400g"));   // not hex
  EXPECT_FALSE(IsUuid("123e4567-e89b-12d3-a456_426614174000"));   // wrong separator
  EXPECT_FALSE(IsUuid("123e4567-e89b-12d3a-456-426614174000"));   // dash misplaced
  EXPECT_FALSE(IsUuid("{23e4567-e89b-12d3-a456-42661417400}"));
}

TEST(RandomBase62, LengthAndAlphabet) {
  for (std::size_t length : {0u, 1u, 32u, 300u}) {
    const std::string text = RandomBase62(length);
    EXPECT_EQ(text.size(), length);
    for (char c : text) {
      const bool ok = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
      EXPECT_TRUE(ok) << "unexpected character " << static_cast<int>(c);
    }
  }
}

TEST(RandomBase62, UsesTheWholeAlphabetAndDoesNotRepeat) {
  std::set<char> chars;
  std::set<std::string> keys;
  for (int i = 0; i < 200; ++i) {
    const std::string key = RandomBase62(32);
    chars.insert(key.begin(), key.end());
    keys.insert(key);
  }
  EXPECT_EQ(chars.size(), 62u);  // 6400 draws: missing any letter has odds below 1e-40
  EXPECT_EQ(keys.size(), 200u);
}

TEST(RandomBytes, ReturnsTheRequestedCount) {
  EXPECT_EQ(RandomBytes(0).size(), 0u);
  EXPECT_EQ(RandomBytes(16).size(), 16u);
  EXPECT_NE(RandomBytes(16), RandomBytes(16));
}

TEST(Sha256Hex, KnownVectors) {
  // FIPS 180-2 appendix B.1 and the empty string.
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256("abc").size(), 32u);
}

TEST(HexEncode, LowercaseTwoDigitsPerByte) {
  EXPECT_EQ(HexEncode(std::string("\x00\x0f\xff\xa5", 4)), "000fffa5");
  EXPECT_EQ(HexEncode(""), "");
}

TEST(ConstantTimeEquals, ComparesWholeContentAndLength) {
  EXPECT_TRUE(ConstantTimeEquals("", ""));
  EXPECT_TRUE(ConstantTimeEquals("secret", "secret"));
  EXPECT_FALSE(ConstantTimeEquals("secret", "secreT"));
  EXPECT_FALSE(ConstantTimeEquals("Secret", "secret"));
  EXPECT_FALSE(ConstantTimeEquals("secret", "secret2"));
  EXPECT_FALSE(ConstantTimeEquals("secret", ""));
  EXPECT_FALSE(ConstantTimeEquals(std::string("a\0b", 3), std::string("a\0c", 3)));
}

}  // namespace
}  // namespace sightline::core

namespace sightline::core {
namespace {

TEST(NewUuidV7, IsAVersion7UuidThatSortsInCreationOrder) {
  std::string previous;
  for (int i = 0; i < 5000; ++i) {  // far more than one millisecond's counter can hold
    const std::string id = NewUuidV7(1767225600000);
    ASSERT_TRUE(IsUuid(id)) << id;
    EXPECT_EQ(id[14], '7') << id;
    EXPECT_TRUE(id[19] == '8' || id[19] == '9' || id[19] == 'a' || id[19] == 'b') << id;
    EXPECT_GT(id, previous);
    previous = id;
  }
  EXPECT_EQ(NewUuidV7(1767225600000).substr(0, 8), "019b76da") << "the timestamp leads: 0x019b76daa800";
}

}  // namespace
}  // namespace sightline::core
