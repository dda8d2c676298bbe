// The keys Web Bot Auth signers publish at `<origin>/.well-known/http-message-signatures-directory`
// (media type application/http-message-signatures-directory+json, `{"keys": [JWK, ...]}`),
// cached per origin with a TTL.
//
// Lookups never wait for the network: a missing or stale directory starts one background fetch
// through the injected fetcher and the lookup answers with what is cached (nothing, or the stale
// keys). A failed fetch keeps the cached keys and is retried after a back-off, so a signer's
// outage makes its requests unverified, never spoofed. Thread-safe.
#pragma once

#include "core/clock.h"
#include "core/result.h"
#include "core/url_fetcher.h"
#include "detection/http_signature.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace sightline::detection {

// Ed25519 public keys, imported once, by their RFC 7638 thumbprint.
using DirectoryKeys = std::map<std::string, Ed25519PublicKey, std::less<>>;

// VAL_003 for a document that is not `{"keys": [...]}`; keys other than Ed25519 OKP are skipped.
core::Result<DirectoryKeys> ParseSignatureDirectory(std::string_view document);

struct SignatureDirectoryOptions {
  std::int64_t ttl_millis = 60 * 60 * 1000;    // how long fetched keys are fresh
  std::int64_t retry_millis = 5 * 60 * 1000;   // back-off after a failed fetch
  std::size_t max_origins = 4096;              // signers remembered; beyond, new ones go unchecked
};

class SignatureDirectory {
 public:
  // `fetcher` may be null: only directories added with Add are known.
  SignatureDirectory(core::UrlFetcher* fetcher, const core::Clock& clock,
                     SignatureDirectoryOptions options = {});

  // The cached keys of `origin` ("https://host"), or null; refreshes in the background when
  // missing or stale.
  std::shared_ptr<const DirectoryKeys> Keys(const std::string& origin);
  // Pins a directory (configuration, tests); pinned origins are never fetched.
  void Add(const std::string& origin, DirectoryKeys keys);

  static std::string DirectoryUrl(std::string_view origin);

 private:
  struct Entry {
    std::shared_ptr<const DirectoryKeys> keys;
    std::int64_t fresh_until = 0;
    std::int64_t retry_after = 0;
    bool fetching = false;
    bool pinned = false;
  };
  // Shared with fetches in flight, so one finishing after the directory is gone is harmless.
  struct State {
    const core::Clock& clock;
    const SignatureDirectoryOptions options;
    std::mutex mutex;
    std::unordered_map<std::string, Entry> entries;
  };
  static void Completed(State& state, const std::string& origin, core::Result<std::string> body);

  core::UrlFetcher* fetcher_;
  std::shared_ptr<State> state_;
};

}  // namespace sightline::detection
