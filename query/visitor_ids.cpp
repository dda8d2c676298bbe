#include "query/visitor_ids.h"

#include <algorithm>
#include <cstring>

namespace sightline::query {
namespace {

constexpr std::uint64_t kC1 = 0x87c37b91114253d5ULL;
constexpr std::uint64_t kC2 = 0x4cf5ad432745937fULL;

std::uint64_t RotateLeft(std::uint64_t x, int by) { return (x << by) | (x >> (64 - by)); }

std::uint64_t Mix(std::uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  return k ^ (k >> 33);
}

std::uint64_t LoadLittleEndian(const unsigned char* bytes, std::size_t count) {
  std::uint64_t word = 0;
  for (std::size_t i = 0; i < count; ++i) word |= static_cast<std::uint64_t>(bytes[i]) << (8 * i);
  return word;
}

std::uint64_t MixFirst(std::uint64_t k) { return RotateLeft(k * kC1, 31) * kC2; }
std::uint64_t MixSecond(std::uint64_t k) { return RotateLeft(k * kC2, 33) * kC1; }

}  // namespace

Hash128 Murmur3Hash128(std::string_view bytes, std::uint32_t seed) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t blocks = bytes.size() / 16;
  std::uint64_t h1 = seed, h2 = seed;
  for (std::size_t i = 0; i < blocks; ++i) {
    h1 ^= MixFirst(LoadLittleEndian(data + 16 * i, 8));
    h1 = RotateLeft(h1, 27) + h2;
    h1 = h1 * 5 + 0x52dce729;
    h2 ^= MixSecond(LoadLittleEndian(data + 16 * i + 8, 8));
    h2 = RotateLeft(h2, 31) + h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
  const unsigned char* tail = data + 16 * blocks;
  const std::size_t left = bytes.size() % 16;
  if (left > 8) h2 ^= MixSecond(LoadLittleEndian(tail + 8, left - 8));
  if (left > 0) h1 ^= MixFirst(LoadLittleEndian(tail, std::min<std::size_t>(left, 8)));
  h1 ^= bytes.size();
  h2 ^= bytes.size();
  h1 += h2;
  h2 += h1;
  h1 = Mix(h1);
  h2 = Mix(h2);
  h1 += h2;
  h2 += h1;
  return {h1, h2};
}

namespace {

// Text ids and packed UUIDs are hashed with different seeds, so that a 16-byte text id can
// never stand for a UUID's bytes.
constexpr std::uint32_t kPackedSeed = 0x5eed;

int LowerHexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// The 16 bytes of a canonical lowercase UUID's text (the texts column blocks pack), or false.
bool PackUuid(std::string_view text, char (&packed)[16]) {
  if (text.size() != 36) return false;
  std::size_t out = 0;
  for (std::size_t i = 0; i < 36;) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i++] != '-') return false;
      continue;
    }
    const int high = LowerHexDigit(text[i]), low = LowerHexDigit(text[i + 1]);
    if (high < 0 || low < 0) return false;
    packed[out++] = static_cast<char>(high << 4 | low);
    i += 2;
  }
  return true;
}

}  // namespace

std::uint32_t VisitorIds::Of(std::string_view visitor) {
  char packed[16];
  if (PackUuid(visitor, packed)) return OfPackedUuid(std::string_view(packed, sizeof packed));
  return OfHash(Murmur3Hash128(visitor));
}

std::uint32_t VisitorIds::OfPackedUuid(std::string_view bytes) {
  return OfHash(Murmur3Hash128(bytes, kPackedSeed));
}

std::uint32_t VisitorIds::OfHash(const Hash128& hash) {
  if (2 * (size_ + 1) > slots_.size()) Grow();
  const auto high = static_cast<std::uint32_t>(hash.high);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash.low & mask;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.number == 0) {
      slot = {hash.low, high, static_cast<std::uint32_t>(++size_)};
      return slot.number - 1;
    }
    if (slot.low == hash.low && slot.high == high) return slot.number - 1;
  }
}

void VisitorIds::Grow() {
  decltype(slots_) old(std::max<std::size_t>(1024, 2 * slots_.size()));
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.number == 0) continue;
    std::size_t i = slot.low & mask;
    while (slots_[i].number != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

}  // namespace sightline::query
