#include "identity/passwords.h"

#include <sodium.h>

#include <cstdlib>

namespace sightline::identity {
namespace {

void EnsureSodium() {
  static const bool ready = [] {
    if (sodium_init() < 0) std::abort();  // no usable crypto library: nothing safe to do
    return true;
  }();
  (void)ready;
}

}  // namespace

core::Result<std::string> HashPassword(std::string_view password) {
  EnsureSodium();
  if (password.size() < kMinPasswordLength || password.size() > kMaxPasswordLength) {
    return core::Error::Invalid("password", "The password must be 8 to 1024 characters long.");
  }
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str(out, password.data(), password.size(),
                        crypto_pwhash_OPSLIMIT_INTERACTIVE,
                        crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
    return core::Error::Internal("crypto_pwhash_str ran out of memory");
  }
  return std::string(out);
}

bool VerifyPassword(std::string_view stored_hash, std::string_view password) {
  EnsureSodium();
  const std::string hash(stored_hash);
  return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
}

}  // namespace sightline::identity
