#include "api/embedded_assets.h"

#include <algorithm>

namespace sightline::api {

// EmbeddedAssets() is defined by the generated embedded_assets_data.cpp.

const EmbeddedAsset* FindEmbeddedAsset(std::string_view path) {
  // A handful of assets: a linear scan beats keeping the generated table sorted.
  const auto assets = EmbeddedAssets();
  const auto found = std::find_if(assets.begin(), assets.end(),
                                  [&](const EmbeddedAsset& asset) { return asset.path == path; });
  return found == assets.end() ? nullptr : &*found;
}

}  // namespace sightline::api
