#include "storage/bucket_sql.h"

namespace sightline::storage {
namespace {

// Typed, so PostgreSQL does not have to guess a CASE branch's type from a bare parameter.
std::string Param(internal::SqlBuilder& sql, std::int64_t value) {
  return "CAST(" + sql.Next(value) + " AS BIGINT)";
}

// CASE over the offset spans: `value(span)` for the span holding occurred_at.
template <class Value>
std::string PerSpan(const BucketSpec& spec, internal::SqlBuilder& builder, Value value) {
  if (spec.offsets.size() <= 1) {
    return Param(builder, spec.offsets.empty() ? 0 : value(spec.offsets.front()));
  }
  std::string sql = "CASE";
  for (std::size_t i = 0; i + 1 < spec.offsets.size(); ++i) {
    sql += " WHEN occurred_at < " + Param(builder, spec.offsets[i].until_ms) + " THEN " +
           Param(builder, value(spec.offsets[i]));
  }
  return sql + " ELSE " + Param(builder, value(spec.offsets.back())) + " END";
}

}  // namespace

std::string BucketKeySql(const BucketSpec& spec, internal::SqlBuilder& builder) {
  constexpr std::int64_t kHourMs = 3'600'000, kDayMs = 86'400'000;
  if (spec.unit == BucketUnit::kHour) {
    const std::string shift = PerSpan(spec, builder, [](const OffsetSpan& span) {
      return ((span.offset_ms % kHourMs) + kHourMs) % kHourMs;
    });
    return "((occurred_at + " + shift + ") / " + std::to_string(kHourMs) + ")";
  }
  const std::string day =
      "((occurred_at + " +
      PerSpan(spec, builder, [](const OffsetSpan& span) { return span.offset_ms; }) + ") / " +
      std::to_string(kDayMs) + ")";
  if (spec.unit == BucketUnit::kDay || spec.range_starts.empty()) {
    return spec.unit == BucketUnit::kDay ? day : "0";
  }
  std::string sql = "CASE";
  for (std::size_t i = 0; i < spec.range_starts.size(); ++i) {
    sql += " WHEN " + day + " < " + Param(builder, spec.range_starts[i]) + " THEN " +
           std::to_string(i);
  }
  return sql + " ELSE " + std::to_string(spec.range_starts.size()) + " END";
}

}  // namespace sightline::storage
