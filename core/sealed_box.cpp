#include "core/sealed_box.h"

#include <openssl/evp.h>
#include <sys/stat.h>

#include <cctype>
#include <fstream>
#include <memory>
#include <sstream>

#include "core/crypto.h"

namespace sightline::core {
namespace {

constexpr std::string_view kPrefix = "v1.";
constexpr std::size_t kNonceBytes = 12;
constexpr std::size_t kTagBytes = 16;

using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

CipherContext NewContext() { return {EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free}; }

const unsigned char* Bytes(std::string_view text) {
  return reinterpret_cast<const unsigned char*>(text.data());
}

std::string WithoutSpace(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  }
  return out;
}

std::optional<std::string> HexDecode(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const std::string pair(text.substr(i, 2));
    if (!std::isxdigit(static_cast<unsigned char>(pair[0])) ||
        !std::isxdigit(static_cast<unsigned char>(pair[1]))) {
      return std::nullopt;
    }
    out += static_cast<char>(std::stoi(pair, nullptr, 16));
  }
  return out;
}

// The key a file's contents stand for: raw bytes, or hex, base64 or base64url text.
std::optional<std::string> KeyOf(const std::string& contents) {
  if (contents.size() == SealedBox::kKeyBytes) return contents;
  const std::string text = WithoutSpace(contents);
  for (auto decoded : {HexDecode(text), Base64Decode(text), Base64UrlDecode(text)}) {
    if (decoded && decoded->size() == SealedBox::kKeyBytes) return decoded;
  }
  return std::nullopt;
}

}  // namespace

SealedBox::SealedBox(std::string key) : key_(std::move(key)) {}

Result<SealedBox> SealedBox::FromKeyFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error::Invalid("encryptionKeyFile", "Cannot read the key file " + path + ".");
  std::stringstream contents;
  contents << in.rdbuf();
  auto key = KeyOf(contents.str());
  if (!key) {
    return Error::Invalid("encryptionKeyFile",
                          "The key file " + path +
                              " must hold 32 bytes, raw or as hex, base64 or base64url text.");
  }
  return SealedBox(std::move(*key));
}

Result<SealedBox> SealedBox::LoadOrCreateKeyFile(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) return FromKeyFile(path);
  const mode_t previous = ::umask(077);  // the file is created 0600
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << Base64UrlEncode(RandomBytes(kKeyBytes)) << '\n';
    if (!out) {
      ::umask(previous);
      return Error::Invalid("encryptionKeyFile", "Cannot create the key file " + path + ".");
    }
  }
  ::umask(previous);
  return FromKeyFile(path);
}

std::string SealedBox::Seal(std::string_view plaintext, std::string_view associated_data) const {
  const std::string nonce = RandomBytes(kNonceBytes);
  std::string out = nonce;
  out.resize(kNonceBytes + plaintext.size() + kTagBytes);
  auto* cipher_text = reinterpret_cast<unsigned char*>(out.data()) + kNonceBytes;
  CipherContext context = NewContext();
  int length = 0;
  int total = 0;
  if (!context ||
      EVP_EncryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, Bytes(key_), Bytes(nonce)) != 1 ||
      EVP_EncryptUpdate(context.get(), nullptr, &length, Bytes(associated_data),
                        static_cast<int>(associated_data.size())) != 1 ||
      EVP_EncryptUpdate(context.get(), cipher_text, &length, Bytes(plaintext),
                        static_cast<int>(plaintext.size())) != 1) {
    std::abort();  // only on allocation failure: nothing sensible to do
  }
  total = length;
  if (EVP_EncryptFinal_ex(context.get(), cipher_text + total, &length) != 1 ||
      EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes,
                          cipher_text + plaintext.size()) != 1) {
    std::abort();
  }
  return std::string(kPrefix) + Base64UrlEncode(out);
}

std::optional<std::string> SealedBox::Open(std::string_view sealed,
                                           std::string_view associated_data) const {
  if (!sealed.starts_with(kPrefix)) return std::nullopt;
  auto raw = Base64UrlDecode(sealed.substr(kPrefix.size()));
  if (!raw || raw->size() < kNonceBytes + kTagBytes) return std::nullopt;
  const std::size_t text_size = raw->size() - kNonceBytes - kTagBytes;
  const std::string_view nonce(raw->data(), kNonceBytes);
  const std::string_view cipher_text(raw->data() + kNonceBytes, text_size);
  std::string tag = raw->substr(kNonceBytes + text_size);
  std::string plain(text_size, '\0');
  CipherContext context = NewContext();
  int length = 0;
  if (!context ||
      EVP_DecryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, Bytes(key_), Bytes(nonce)) != 1 ||
      EVP_DecryptUpdate(context.get(), nullptr, &length, Bytes(associated_data),
                        static_cast<int>(associated_data.size())) != 1 ||
      EVP_DecryptUpdate(context.get(), reinterpret_cast<unsigned char*>(plain.data()), &length,
                        Bytes(cipher_text), static_cast<int>(cipher_text.size())) != 1 ||
      EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) != 1) {
    return std::nullopt;
  }
  int final_length = 0;
  if (EVP_DecryptFinal_ex(context.get(), reinterpret_cast<unsigned char*>(plain.data()) + length,
                          &final_length) != 1) {
    return std::nullopt;  // wrong key, wrong associated data, or altered
  }
  return plain;
}

}  // namespace sightline::core
