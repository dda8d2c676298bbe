// SDK keys (`pk_service_<random>`, public) and private API keys (`sk_service_<random>`).
// The random part is 32 base62 characters (~190 bits). Keys are found by the SHA-256 of the
// whole key. A private key is stored as that hash only and shown once, when it is created; an
// SDK key, public by design, is also kept whole so it can be shown again.
#pragma once

#include "storage/account_records.h"


#include <optional>
#include <string>
#include <string_view>

namespace sightline::identity {

struct NewKeySecret {
  std::string secret;          // a private key's: give to the user once; never stored or logged
  std::string hash;            // what the store finds it by
  std::string display_prefix;  // safe to show and log: the kind prefix plus 4 characters
};

NewKeySecret GenerateKey(storage::KeyKind kind);
// The record of a key just generated for `project` (its id new, not revoked).
storage::ApiKeyRecord NewKeyRecord(const storage::ProjectRecord& project, storage::KeyKind kind,
                                   const NewKeySecret& secret, std::string name,
                                   std::optional<std::string> created_by, std::int64_t now);
std::string HashKey(std::string_view secret);
// The kind a string claims by its form, or nullopt when it is not a well-formed key.
std::optional<storage::KeyKind> ParseKeyKind(std::string_view secret);
std::string DisplayPrefix(std::string_view secret);

}  // namespace sightline::identity
