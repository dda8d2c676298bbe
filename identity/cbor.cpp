#include "identity/cbor.h"

namespace sightline::identity {
namespace {

constexpr int kMaxDepth = 16;

class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  std::size_t position() const { return position_; }

  std::optional<CborValue> Item(int depth) {
    if (depth > kMaxDepth || position_ >= data_.size()) return std::nullopt;
    const auto initial = static_cast<unsigned char>(data_[position_++]);
    const int major = initial >> 5;
    const auto argument = Argument(initial & 0x1F);
    if (!argument) return std::nullopt;
    switch (major) {
      case 0:
        if (*argument > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
        return CborValue{static_cast<std::int64_t>(*argument)};
      case 1:
        if (*argument > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
        return CborValue{-1 - static_cast<std::int64_t>(*argument)};
      case 2:
      case 3: {
        if (*argument > data_.size() - position_) return std::nullopt;
        std::string bytes(data_.substr(position_, *argument));
        position_ += *argument;
        if (major == 2) return CborValue{CborValue::Bytes{std::move(bytes)}};
        return CborValue{std::move(bytes)};
      }
      case 4: {
        if (*argument > data_.size() - position_) return std::nullopt;  // ≥ 1 byte per item
        auto array = std::make_shared<CborArray>();
        for (std::uint64_t i = 0; i < *argument; ++i) {
          auto item = Item(depth + 1);
          if (!item) return std::nullopt;
          array->push_back(std::move(*item));
        }
        return CborValue{std::move(array)};
      }
      case 5: {
        if (*argument > (data_.size() - position_) / 2) return std::nullopt;
        auto map = std::make_shared<CborMap>();
        for (std::uint64_t i = 0; i < *argument; ++i) {
          auto key = Item(depth + 1);
          if (!key) return std::nullopt;
          auto value = Item(depth + 1);
          if (!value) return std::nullopt;
          map->emplace_back(std::move(*key), std::move(*value));
        }
        return CborValue{std::move(map)};
      }
      case 7:
        if ((initial & 0x1F) == 20) return CborValue{false};
        if ((initial & 0x1F) == 21) return CborValue{true};
        if ((initial & 0x1F) == 22) return CborValue{nullptr};
        return std::nullopt;
      default:  // tags (6) are not used by WebAuthn
        return std::nullopt;
    }
  }

 private:
  // The argument of an initial byte's additional information; indefinite lengths refused.
  std::optional<std::uint64_t> Argument(int info) {
    if (info < 24) return static_cast<std::uint64_t>(info);
    int size = 0;
    if (info == 24) size = 1;
    if (info == 25) size = 2;
    if (info == 26) size = 4;
    if (info == 27) size = 8;
    if (size == 0 || position_ + size > data_.size()) return std::nullopt;
    std::uint64_t value = 0;
    for (int i = 0; i < size; ++i) {
      value = (value << 8) | static_cast<unsigned char>(data_[position_++]);
    }
    return value;
  }

  std::string_view data_;
  std::size_t position_ = 0;
};

}  // namespace

const CborValue* CborValue::Find(std::string_view key) const {
  const CborMap* map = AsMap();
  if (!map) return nullptr;
  for (const auto& [k, v] : *map) {
    if (const std::string* text = k.AsText(); text && *text == key) return &v;
  }
  return nullptr;
}

const CborValue* CborValue::Find(std::int64_t number) const {
  const CborMap* map = AsMap();
  if (!map) return nullptr;
  for (const auto& [k, v] : *map) {
    if (const std::int64_t* n = k.AsInt(); n && *n == number) return &v;
  }
  return nullptr;
}

std::optional<CborValue> DecodeCbor(std::string_view data, std::size_t* consumed) {
  Reader reader(data);
  auto item = reader.Item(0);
  if (item && consumed) *consumed = reader.position();
  return item;
}

}  // namespace sightline::identity
