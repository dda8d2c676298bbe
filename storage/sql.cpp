#include "storage/sql.h"

#include <charconv>

namespace sightline::storage {

SqlValue Nullable(const std::optional<std::string>& value) {
  if (!value) return nullptr;
  return *value;
}

SqlValue Nullable(const std::optional<std::int64_t>& value) {
  if (!value) return nullptr;
  return *value;
}

bool SqlRow::IsNull(std::size_t i) const {
  return std::holds_alternative<std::nullptr_t>(values_.at(i));
}

std::int64_t SqlRow::Int(std::size_t i) const {
  const SqlValue& v = values_.at(i);
  if (auto p = std::get_if<std::int64_t>(&v)) return *p;
  if (auto p = std::get_if<double>(&v)) return static_cast<std::int64_t>(*p);
  if (auto p = std::get_if<std::string>(&v)) {
    std::int64_t out = 0;
    std::from_chars(p->data(), p->data() + p->size(), out);
    return out;
  }
  return 0;
}

double SqlRow::Double(std::size_t i) const {
  const SqlValue& v = values_.at(i);
  if (auto p = std::get_if<double>(&v)) return *p;
  if (auto p = std::get_if<std::int64_t>(&v)) return static_cast<double>(*p);
  if (auto p = std::get_if<std::string>(&v)) return std::strtod(p->c_str(), nullptr);
  return 0.0;
}

std::string SqlRow::Text(std::size_t i) const {
  const SqlValue& v = values_.at(i);
  if (auto p = std::get_if<std::string>(&v)) return *p;
  if (auto p = std::get_if<SqlBlob>(&v)) return p->bytes;
  if (auto p = std::get_if<std::int64_t>(&v)) return std::to_string(*p);
  if (auto p = std::get_if<double>(&v)) return std::to_string(*p);
  return {};
}

std::string SqlRow::TakeText(std::size_t i) {
  SqlValue& v = values_.at(i);
  std::string taken;
  if (auto p = std::get_if<std::string>(&v)) taken = std::move(*p);
  else if (auto p = std::get_if<SqlBlob>(&v)) taken = std::move(p->bytes);
  else return Text(i);
  v = std::string();
  return taken;
}

std::optional<std::string> SqlRow::OptText(std::size_t i) const {
  if (IsNull(i)) return std::nullopt;
  return Text(i);
}

std::optional<std::int64_t> SqlRow::OptInt(std::size_t i) const {
  if (IsNull(i)) return std::nullopt;
  return Int(i);
}

}  // namespace sightline::storage
