#include "identity/api_keys.h"

#include "core/crypto.h"

#include <algorithm>
#include <utility>
#include <cctype>

namespace sightline::identity {
namespace {

constexpr std::string_view kSdkPrefix = "pk_service_";
constexpr std::string_view kPrivatePrefix = "sk_service_";
constexpr std::size_t kRandomLength = 32;
constexpr std::size_t kShownRandomChars = 4;

std::string_view PrefixOf(storage::KeyKind kind) {
  return kind == storage::KeyKind::kPrivate ? kPrivatePrefix : kSdkPrefix;
}

}  // namespace

NewKeySecret GenerateKey(storage::KeyKind kind) {
  std::string secret = std::string(PrefixOf(kind)) + core::RandomBase62(kRandomLength);
  NewKeySecret key{secret, HashKey(secret), DisplayPrefix(secret)};
  return key;
}

storage::ApiKeyRecord NewKeyRecord(const storage::ProjectRecord& project, storage::KeyKind kind,
                                   const NewKeySecret& secret, std::string name,
                                   std::optional<std::string> created_by, std::int64_t now) {
  storage::ApiKeyRecord key;
  key.id = core::NewUuidV4();
  key.organization_id = project.organization_id;
  key.project_id = project.id;
  key.kind = kind;
  key.name = std::move(name);
  key.secret_hash = secret.hash;
  key.display_prefix = secret.display_prefix;
  key.created_by = std::move(created_by);
  key.created_at = now;
  if (kind == storage::KeyKind::kSdk) key.public_key = secret.secret;
  return key;
}

std::string HashKey(std::string_view secret) { return core::Sha256Hex(secret); }

std::optional<storage::KeyKind> ParseKeyKind(std::string_view secret) {
  std::optional<storage::KeyKind> kind;
  if (secret.starts_with(kSdkPrefix)) kind = storage::KeyKind::kSdk;
  if (secret.starts_with(kPrivatePrefix)) kind = storage::KeyKind::kPrivate;
  if (!kind) return std::nullopt;
  const std::string_view random = secret.substr(PrefixOf(*kind).size());
  const bool well_formed =
      random.size() == kRandomLength && std::all_of(random.begin(), random.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0;
      });
  return well_formed ? kind : std::nullopt;
}

std::string DisplayPrefix(std::string_view secret) {
  const std::size_t prefix = secret.starts_with(kPrivatePrefix) ? kPrivatePrefix.size()
                                                                : kSdkPrefix.size();
  return std::string(secret.substr(0, std::min(secret.size(), prefix + kShownRandomChars)));
}

}  // namespace sightline::identity
