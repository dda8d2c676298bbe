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
    EXPECT_TRUE(asset.path.starts_with("/"));
    EXPECT_FALSE(asset.content_type.empty());
    ASSERT_EQ(asset.sha384.size(), 48u);
    EXPECT_EQ(asset.etag, "\"" + core::HexEncode(asset.sha384).substr(0, 12) + "\"");
    if (asset.gzip.empty()) continue;
    EXPECT_LT(asset.gzip.size(), asset.body.size());
    auto inflated = core::Gunzip(asset.gzip, asset.body.size());
    ASSERT_TRUE(inflated.has_value());
    EXPECT_EQ(*inflated, asset.body);
  }
}

}  // namespace
}  // namespace sightline::api
