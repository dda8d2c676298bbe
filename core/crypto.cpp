#include "core/crypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <cstdlib>
#include <mutex>

namespace sightline::core {

std::string RandomBytes(std::size_t count) {
  std::string out(count, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(count)) != 1) {
    std::abort();  // no entropy: refusing to mint predictable secrets
  }
  return out;
}

std::string RandomBase62(std::size_t length) {
  static constexpr std::string_view kAlphabet =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::string out;
  out.reserve(length);
  while (out.size() < length) {
    for (unsigned char byte : RandomBytes(length)) {
      if (byte >= 248) continue;  // 248 = 62 * 4: reject to keep the draw unbiased
      out.push_back(kAlphabet[byte % 62]);
      if (out.size() == length) break;
    }
  }
  return out;
}

std::string NewUuidV4() {
  std::string bytes = RandomBytes(16);
  bytes[6] = static_cast<char>((bytes[6] & 0x0F) | 0x40);
  bytes[8] = static_cast<char>((bytes[8] & 0x3F) | 0x80);
  std::string hex = HexEncode(bytes);
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

std::string NewUuidV7(std::int64_t unix_millis) {
  // 48-bit milliseconds, then a 12-bit counter (rand_a) that keeps ids increasing when several
  // are made in one millisecond; the rest is random.
  static std::mutex mutex;
  static std::int64_t last_millis = 0;
  static unsigned counter = 0;
  std::int64_t millis = 0;
  unsigned sequence = 0;
  {
    std::lock_guard lock(mutex);
    if (unix_millis > last_millis) {
      last_millis = unix_millis;
      counter = 0;
    } else if (++counter > 0x0FFF) {
      ++last_millis;  // counter exhausted: borrow the next millisecond
      counter = 0;
    }
    millis = last_millis;
    sequence = counter;
  }
  std::string bytes = RandomBytes(16);
  for (int i = 0; i < 6; ++i) bytes[i] = static_cast<char>((millis >> (40 - 8 * i)) & 0xFF);
  bytes[6] = static_cast<char>(0x70 | ((sequence >> 8) & 0x0F));
  bytes[7] = static_cast<char>(sequence & 0xFF);
  bytes[8] = static_cast<char>((bytes[8] & 0x3F) | 0x80);
  const std::string hex = HexEncode(bytes);
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

bool IsUuid(std::string_view text) {
  if (text.size() != 36) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (c != '-') return false;
    } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
      return false;
    }
  }
  return true;
}

std::string Sha256(std::string_view data) {
  std::string out(SHA256_DIGEST_LENGTH, '\0');
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(),
         reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

std::string HexEncode(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0x0F]);
  }
  return out;
}

std::string Sha256Hex(std::string_view data) { return HexEncode(Sha256(data)); }

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string HmacSha256(std::string_view key, std::string_view data) {
  std::string out(EVP_MAX_MD_SIZE, '\0');
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(),
       reinterpret_cast<unsigned char*>(out.data()), &length);
  out.resize(length);
  return out;
}

namespace {
constexpr std::string_view kBase64Url =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::string_view kBase64 =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string EncodeWithAlphabet(std::string_view bytes, std::string_view alphabet) {
  std::string out;
  out.reserve((bytes.size() * 4 + 2) / 3);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16 |
                       static_cast<unsigned char>(bytes[i + 1]) << 8 |
                       static_cast<unsigned char>(bytes[i + 2]);
    for (int shift : {18, 12, 6, 0}) out.push_back(alphabet[(v >> shift) & 63]);
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out.push_back(alphabet[(v >> 18) & 63]);
    out.push_back(alphabet[(v >> 12) & 63]);
    if (rest == 2) out.push_back(alphabet[(v >> 6) & 63]);
  }
  return out;
}

std::optional<std::string> DecodeWithAlphabet(std::string_view text, std::string_view alphabet) {
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  unsigned buffer = 0;
  int bits = 0;
  for (char c : text) {
    const auto at = alphabet.find(c);
    if (at == std::string_view::npos) return std::nullopt;
    buffer = (buffer << 6) | static_cast<unsigned>(at);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return out;
}

}  // namespace

std::string Base64UrlEncode(std::string_view bytes) { return EncodeWithAlphabet(bytes, kBase64Url); }

std::string Base64Encode(std::string_view bytes) {
  std::string out = EncodeWithAlphabet(bytes, kBase64);
  while (out.size() % 4 != 0) out.push_back('=');
  return out;
}


std::optional<std::string> Base64UrlDecode(std::string_view text) {
  return DecodeWithAlphabet(text, kBase64Url);
}

std::optional<std::string> Base64Decode(std::string_view text) {
  std::size_t end = text.size();
  for (int pad = 0; pad < 2 && end > 0 && text[end - 1] == '='; ++pad) --end;
  if (end != text.size() && text.size() % 4 != 0) return std::nullopt;
  return DecodeWithAlphabet(text.substr(0, end), kBase64);
}

}  // namespace sightline::core
