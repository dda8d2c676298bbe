// SDK keys (`pk_service_<random>`, public) and private API keys (`sk_service_<random>`).
// The random part is 32 base62 characters (~190 bits). Only the SHA-256 of a whole key is
// stored; a key's secret is shown once, when it is created.
#pragma once

#include "storage/account_records.h"


#include <optional>
#include <string>
#include <string_view>

namespace sightline::identity {

struct NewKeySecret {
  std::string secret;          // give to the user once; never stored or logged
  std::string hash;            // what the store keeps
  std::string display_prefix;  // safe to show and log: the kind prefix plus 4 characters
};

NewKeySecret GenerateKey(storage::KeyKind kind);
std::string HashKey(std::string_view secret);
// The kind a string claims by its form, or nullopt when it is not a well-formed key.
std::optional<storage::KeyKind> ParseKeyKind(std::string_view secret);
std::string DisplayPrefix(std::string_view secret);

}  // namespace sightline::identity
