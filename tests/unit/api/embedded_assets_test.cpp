#include "api/embedded_assets.h"

#include "core/compression.h"
#include "core/crypto.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

namespace sightline::api {
namespace {

TEST(EmbeddedAssets, TheTrackingScriptIsTheBuiltOne) {
  const EmbeddedAsset* script = FindEmbeddedAsset("/sdk/v1/script.js");
  ASSERT_NE(script, nullptr);
  std::ifstream built(std::string(SIGHTLINE_SOURCE_DIR) + "/web/sdk/dist/sightline.min.js",
                      std::ios::binary);
  std::stringstream content;
  content << built.rdbuf();
  EXPECT_EQ(script->body, content.str());
  EXPECT_EQ(script->content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(FindEmbeddedAsset("/sdk/v1/nothing.js"), nullptr);
}

TEST(EmbeddedAssets, EveryAssetCarriesItsDigestEtagAndAFaithfulGzip) {
  std::set<std::string_view> paths;
  for (const EmbeddedAsset& asset : EmbeddedAssets()) {
    SCOPED_TRACE(asset.path);
    EXPECT_TRUE(paths.insert(asset.path).second) << "paths are unique";
    EXPECT_TRUE(asset.path.starts_with("/") || asset.path.starts_with("ui://"));
    EXPECT_FALSE(asset.content_type.empty());
    ASSERT_EQ(asset.sha384.size(), 48u);
    EXPECT_EQ(asset.etag, "\"" + core::HexEncode(asset.sha384).substr(0, 12) + "\"");
    if (!asset.brotli.empty()) EXPECT_LT(asset.brotli.size(), asset.body.size());
    if (asset.gzip.empty()) continue;
    EXPECT_LT(asset.gzip.size(), asset.body.size());
    auto inflated = core::Gunzip(asset.gzip, asset.body.size());
    ASSERT_TRUE(inflated.has_value());
    EXPECT_EQ(*inflated, asset.body);
  }
}

// The dashboard's build is embedded whole: its shell, every file its manifest lists (hashed,
// with both precompressed forms of the scripts), and the MCP Apps view.
TEST(EmbeddedAssets, TheDashboardIsEmbeddedAsItsManifestLists) {
  std::ifstream manifest(std::string(SIGHTLINE_SOURCE_DIR) + "/web/dashboard/dist/manifest.txt");
  ASSERT_TRUE(manifest) << "the build runs web/dashboard/build.mjs";
  int listed = 0;
  for (std::string line; std::getline(manifest, line);) {
    const std::string path = line.substr(0, line.find('='));
    SCOPED_TRACE(path);
    const EmbeddedAsset* asset = FindEmbeddedAsset(path);
    ASSERT_NE(asset, nullptr);
    ++listed;
    if (path.ends_with(".js") && asset->body.size() > 1024) {
      EXPECT_FALSE(asset->gzip.empty());
      EXPECT_FALSE(asset->brotli.empty());
    }
  }
  EXPECT_GT(listed, 2);
  ASSERT_NE(FindEmbeddedAsset("/index.html"), nullptr);
  EXPECT_NE(FindEmbeddedAsset("/index.html")->body.find("__CSP_NONCE__"), std::string_view::npos);
}

}  // namespace
}  // namespace sightline::api
