#include "api/sdk_script.h"

#include "core/compression.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace sightline::api {
namespace {

core::HttpRequest Get(std::string_view path, std::string accept_encoding = "") {
  core::HttpRequest request;
  request.target = std::string(path);
  if (!accept_encoding.empty()) request.headers.Set("Accept-Encoding", accept_encoding);
  return request;
}

class SdkScriptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto embedded = EmbeddedSdkScript();
    ASSERT_TRUE(embedded.has_value());
    script_ = std::move(*embedded);
  }
  // The script's rows of the static-asset table, served as the documents endpoint serves them.
  core::HttpResponse Serve(const core::HttpRequest& request) {
    StaticAssetTable table;
    AddSdkScript(&script_, table);
    const StaticAsset* asset = table.Find(request.path());
    EXPECT_NE(asset, nullptr) << request.path();
    return asset ? ServeStaticAsset(request, *asset) : core::HttpResponse{};
  }
  SdkScript script_;
};

TEST_F(SdkScriptTest, TheEmbeddedScriptIsNamedByItsDigest) {
  EXPECT_TRUE(script_.integrity.starts_with("sha384-"));
  EXPECT_EQ(script_.integrity.size(), 7u + 64u);
  EXPECT_EQ(script_.versioned_path, "/sdk/v1/sightline-" + script_.etag.substr(1, 12) + ".js");
}

TEST_F(SdkScriptTest, AScriptReadFromDiskIsNamedAsTheSameOneEmbedded) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("sightline-sdk-script-" + std::to_string(::getpid()) + ".js");
  std::ofstream(path, std::ios::binary) << script_.body;
  auto loaded = LoadSdkScript(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->body, script_.body);
  EXPECT_EQ(loaded->integrity, script_.integrity);
  EXPECT_EQ(loaded->versioned_path, script_.versioned_path);
  EXPECT_EQ(loaded->etag, script_.etag);
  EXPECT_FALSE(LoadSdkScript(path.string()).has_value()) << "a missing file is an error";
}

TEST_F(SdkScriptTest, GzipGoesOnlyToClientsThatAcceptIt) {
  ASSERT_FALSE(script_.gzip.empty()) << "a minified script still compresses";
  const core::HttpResponse plain = Serve(Get(kSdkScriptPath));
  EXPECT_EQ(plain.body, script_.body);
  EXPECT_FALSE(plain.headers.Has("Content-Encoding"));
  EXPECT_EQ(plain.headers.Get("Vary"), "Accept-Encoding");

  const core::HttpResponse gzipped = Serve(Get(kSdkScriptPath, "br, gzip;q=0.8"));
  EXPECT_EQ(gzipped.headers.Get("Content-Encoding"), "gzip");
  EXPECT_EQ(core::Gunzip(gzipped.body, 1 << 20).value(), script_.body);
  EXPECT_NE(gzipped.headers.Get("ETag"), plain.headers.Get("ETag")) << "its own validator";

  for (const char* refused : {"gzip;q=0", "identity", "br, gzip; q=0.000"}) {
    EXPECT_EQ(Serve(Get(kSdkScriptPath, refused)).body, script_.body) << refused;
  }
}

TEST_F(SdkScriptTest, EachEncodingRevalidatesWithItsOwnEtag) {
  const std::string plain_tag(*Serve(Get(kSdkScriptPath)).headers.Get("ETag"));
  const std::string gzip_tag(*Serve(Get(kSdkScriptPath, "gzip")).headers.Get("ETag"));
  core::HttpRequest revalidate = Get(script_.versioned_path, "gzip");
  revalidate.headers.Set("If-None-Match", gzip_tag);
  EXPECT_EQ(Serve(revalidate).status, 304);
  revalidate.headers.Set("If-None-Match", plain_tag);
  EXPECT_EQ(Serve(revalidate).status, 200);
}

}  // namespace
}  // namespace sightline::api
