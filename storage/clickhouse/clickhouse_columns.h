// A record's fields as ClickHouse columns, as data (an internal header of this folder): a
// table's columns are a list of {column name, pointer to the field}, written and read in
// ClickHouse's RowBinary format by the field's type: std::string is String, optional<string>
// Nullable(String), int64_t Int64, bool UInt8, double Float64, optional<double>
// Nullable(Float64). Binary, not JSON, because a double must come back bit for bit: 18.16 parses
// some decimal texts one unit in the last place off ("9.87654321012345E-1" →
// 0.9876543210123451), and Boost 1.81's JSON parser is not exact for every double either.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

namespace sightline::storage::clickhouse::internal {

template <class Record>
struct Column {
  std::string_view name;
  std::variant<std::string Record::*, std::optional<std::string> Record::*, std::int64_t Record::*,
               bool Record::*, double Record::*, std::optional<double> Record::*>
      field;
};

// ---- RowBinary values: little-endian numbers, strings with a LEB128 length, Nullable with a
// leading byte (1: null).
inline void AppendVarint(std::string& out, std::uint64_t value) {
  do {
    std::uint8_t byte = value & 0x7f;
    value >>= 7;
    if (value != 0) byte |= 0x80;
    out += static_cast<char>(byte);
  } while (value != 0);
}

template <class T>
void AppendFixed(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // x86-64 and ARM64 are little-endian, as RowBinary
  out.append(bytes, sizeof(T));
}

inline void AppendText(std::string& out, std::string_view text) {
  AppendVarint(out, text.size());
  out += text;
}

// Reads from the front of `in`; false when it ends too early.
inline bool ReadVarint(std::string_view& in, std::uint64_t& value) {
  value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (in.empty()) return false;
    const auto byte = static_cast<std::uint8_t>(in.front());
    in.remove_prefix(1);
    value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

template <class T>
bool ReadFixed(std::string_view& in, T& value) {
  if (in.size() < sizeof(T)) return false;
  std::memcpy(&value, in.data(), sizeof(T));
  in.remove_prefix(sizeof(T));
  return true;
}

inline bool ReadText(std::string_view& in, std::string& text) {
  std::uint64_t size = 0;
  if (!ReadVarint(in, size) || in.size() < size) return false;
  text.assign(in.data(), size);
  in.remove_prefix(size);
  return true;
}

template <class Record>
void AppendValue(std::string& out, const Record& record, const Column<Record>& column) {
  std::visit(
      [&](auto field) {
        const auto& value = record.*field;
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, std::string>) {
          AppendText(out, value);
        } else if constexpr (std::is_same_v<T, std::optional<std::string>>) {
          out += static_cast<char>(value ? 0 : 1);
          if (value) AppendText(out, *value);
        } else if constexpr (std::is_same_v<T, std::optional<double>>) {
          out += static_cast<char>(value ? 0 : 1);
          if (value) AppendFixed(out, *value);
        } else if constexpr (std::is_same_v<T, bool>) {
          out += static_cast<char>(value ? 1 : 0);
        } else {
          AppendFixed(out, value);  // std::int64_t, double
        }
      },
      column.field);
}

// Reads the column's field from the front of `in`; false when the row is cut short.
template <class Record>
bool ReadValue(std::string_view& in, Record& record, const Column<Record>& column) {
  return std::visit(
      [&](auto field) -> bool {
        auto& target = record.*field;
        using T = std::decay_t<decltype(target)>;
        if constexpr (std::is_same_v<T, bool>) {
          std::uint8_t byte = 0;
          if (!ReadFixed(in, byte)) return false;
          target = byte != 0;
          return true;
        } else if constexpr (std::is_same_v<T, std::string>) {
          return ReadText(in, target);
        } else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, double>) {
          return ReadFixed(in, target);
        } else {  // Nullable(String), Nullable(Float64)
          std::uint8_t null = 0;
          if (!ReadFixed(in, null)) return false;
          if (null != 0) {
            target.reset();
            return true;
          }
          typename T::value_type value{};
          bool read = false;
          if constexpr (std::is_same_v<T, std::optional<std::string>>) {
            read = ReadText(in, value);
          } else {
            read = ReadFixed(in, value);
          }
          if (read) target = std::move(value);
          return read;
        }
      },
      column.field);
}

// "a, b, c" of the columns' names.
template <class Record>
std::string ColumnList(std::span<const Column<Record>> columns) {
  std::string out;
  for (const Column<Record>& column : columns) {
    if (!out.empty()) out += ", ";
    out += column.name;
  }
  return out;
}

}  // namespace sightline::storage::clickhouse::internal
