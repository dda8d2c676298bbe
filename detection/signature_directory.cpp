#include "detection/signature_directory.h"

#include "core/crypto.h"
#include "core/json_util.h"
#include "detection/http_signature.h"

namespace sightline::detection {

namespace json = boost::json;

core::Result<DirectoryKeys> ParseSignatureDirectory(std::string_view document) {
  auto parsed = core::ParseJsonObject(document);
  if (!parsed) return core::Error::Invalid("keys", "The directory is not a JSON object.");
  const json::value* keys = parsed->if_contains("keys");
  if (!keys || !keys->is_array()) {
    return core::Error::Invalid("keys", "The directory has no 'keys' array.");
  }
  DirectoryKeys out;
  for (const json::value& key : keys->as_array()) {
    const json::object* jwk = key.if_object();
    if (!jwk) continue;
    const json::value* kty = jwk->if_contains("kty");
    const json::value* crv = jwk->if_contains("crv");
    const json::value* x = jwk->if_contains("x");
    if (!kty || !crv || !x || !x->is_string() || *kty != "OKP" || *crv != "Ed25519") continue;
    auto raw = core::Base64UrlDecode(x->as_string());
    if (!raw) continue;
    auto imported = Ed25519PublicKey::FromRaw(*raw);
    if (!imported) continue;
    out.emplace(Ed25519JwkThumbprint(x->as_string()), std::move(*imported));
  }
  return out;
}

// new State{…} rather than make_shared: State is an aggregate, and clang 14 (script/fuzz's
// build) lacks C++20's aggregate initialization from parentheses.
SignatureDirectory::SignatureDirectory(core::UrlFetcher* fetcher, const core::Clock& clock,
                                       SignatureDirectoryOptions options)
    : fetcher_(fetcher), state_(new State{clock, options}) {}

std::string SignatureDirectory::DirectoryUrl(std::string_view origin) {
  return std::string(origin) + "/.well-known/http-message-signatures-directory";
}

std::shared_ptr<const DirectoryKeys> SignatureDirectory::Keys(const std::string& origin) {
  std::shared_ptr<const DirectoryKeys> keys;
  bool refresh = false;
  {
    std::lock_guard lock(state_->mutex);
    // Origins come from request headers anyone can send: their number is bounded.
    if (state_->entries.size() >= state_->options.max_origins &&
        !state_->entries.contains(origin)) {
      return nullptr;
    }
    Entry& entry = state_->entries[origin];
    keys = entry.keys;
    const std::int64_t now = state_->clock.NowMillis();
    if (!entry.pinned && !entry.fetching && fetcher_ != nullptr && now >= entry.fresh_until &&
        now >= entry.retry_after) {
      entry.fetching = true;
      refresh = true;
    }
  }
  if (refresh) {
    fetcher_->Fetch(DirectoryUrl(origin), [state = state_, origin](core::Result<std::string> body) {
      Completed(*state, origin, std::move(body));
    });
  }
  return keys;
}

void SignatureDirectory::Add(const std::string& origin, DirectoryKeys keys) {
  std::lock_guard lock(state_->mutex);
  Entry& entry = state_->entries[origin];
  entry.keys = std::make_shared<const DirectoryKeys>(std::move(keys));
  entry.pinned = true;
}

void SignatureDirectory::Completed(State& state, const std::string& origin,
                                   core::Result<std::string> body) {
  auto keys = body ? ParseSignatureDirectory(*body) : core::Result<DirectoryKeys>(body.error());
  std::lock_guard lock(state.mutex);
  Entry& entry = state.entries[origin];
  entry.fetching = false;
  const std::int64_t now = state.clock.NowMillis();
  if (!keys) {  // keep what was cached; try again later
    entry.retry_after = now + state.options.retry_millis;
    return;
  }
  entry.keys = std::make_shared<const DirectoryKeys>(std::move(*keys));
  entry.fresh_until = now + state.options.ttl_millis;
}

}  // namespace sightline::detection
