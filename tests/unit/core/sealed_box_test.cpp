#include "core/sealed_box.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>

#include "core/crypto.h"

namespace sightline::core {
namespace {

TEST(SealedBox, OpensWhatItSealedForTheSameOwnerOnly) {
  const SealedBox box(RandomBytes(32));
  const std::string sealed = box.Seal("sk-secret-123", "engine-1");
  EXPECT_EQ(sealed.find("sk-secret"), std::string::npos);
  EXPECT_EQ(box.Open(sealed, "engine-1"), "sk-secret-123");
  EXPECT_FALSE(box.Open(sealed, "engine-2")) << "copied onto another row";
  EXPECT_NE(box.Seal("sk-secret-123", "engine-1"), sealed) << "a fresh nonce each time";
  std::string altered = sealed;
  altered[10] = altered[10] == 'A' ? 'B' : 'A';
  EXPECT_FALSE(box.Open(altered, "engine-1"));
  EXPECT_FALSE(SealedBox(RandomBytes(32)).Open(sealed, "engine-1")) << "another key";
  EXPECT_FALSE(box.Open("v1.", "engine-1"));
  EXPECT_FALSE(box.Open("plain", "engine-1"));
}

TEST(SealedBox, KeyFilesAreCreatedPrivateAndReadInEveryEncoding) {
  const auto dir = std::filesystem::temp_directory_path() / ("sealed-" + RandomBase62(8));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "encryption.key").string();
  auto created = SealedBox::LoadOrCreateKeyFile(path);
  ASSERT_TRUE(created);
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600);
  auto again = SealedBox::LoadOrCreateKeyFile(path);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->Open(created->Seal("x", "a"), "a"), "x") << "the same key is read back";

  const std::string key(32, '\x07');
  for (const std::string& contents : {HexEncode(key) + "\n", Base64Encode(key), key}) {
    std::ofstream(path, std::ios::trunc | std::ios::binary) << contents;
    auto read = SealedBox::FromKeyFile(path);
    ASSERT_TRUE(read);
    EXPECT_EQ(SealedBox(key).Open(read->Seal("y", "b"), "b"), "y");
  }
  std::ofstream(path, std::ios::trunc) << "too short";
  EXPECT_FALSE(SealedBox::FromKeyFile(path));
  EXPECT_FALSE(SealedBox::FromKeyFile((dir / "missing").string()));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sightline::core
