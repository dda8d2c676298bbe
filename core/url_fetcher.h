// Fetches a document over HTTPS for a layer that must not know the transport (key directories,
// vendors' range lists, OAuth client metadata documents); implemented by net (no
// redirects; no private addresses unless configured). `done` is called exactly once, from any
// thread.
#pragma once

#include <functional>
#include <string>

#include "core/result.h"

namespace sightline::core {

class UrlFetcher {
 public:
  virtual ~UrlFetcher() = default;
  virtual void Fetch(const std::string& url,
                     std::function<void(Result<std::string> body)> done) = 0;
};

}  // namespace sightline::core
