#include "tools/schema.h"

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::ErrorCode;

json::object Schema(std::string_view text) { return json::parse(text).as_object(); }

// The schema most validation tests run against.
const json::object& EventBatchSchema() {
  static const json::object schema = Schema(R"({
    "type": "object",
    "required": ["name"],
    "properties": {
      "name": {"type": "string", "minLength": 2, "maxLength": 5},
      "count": {"type": "integer", "minimum": 1, "maximum": 10},
      "ratio": {"type": "number", "minimum": -1.5, "maximum": 2.5},
      "enabled": {"type": "boolean"},
      "mode": {"type": "string", "enum": ["fast", "slow"]},
      "id": {"type": "string", "format": "uuid"},
      "day": {"type": "string", "format": "date"},
      "at": {"type": "string", "format": "date-time"},
      "note": {"type": "string", "nullable": true},
      "tags": {"type": "object", "properties": {"color": {"type": "string"}}},
      "events": {"type": "array", "maxItems": 5, "items": {
        "type": "object", "required": ["event"],
        "properties": {"event": {"type": "string"}}}}
    }
  })");
  return schema;
}

// Validates `args` (JSON text) against EventBatchSchema.
core::Result<void> Check(std::string_view args) {
  return Validate(EventBatchSchema(), json::parse(args));
}

// Expects a VAL_003 naming `field`.
void ExpectInvalid(const core::Result<void>& result, std::string_view field) {
  ASSERT_FALSE(result) << "expected a failure on " << field;
  EXPECT_EQ(result.error().code(), ErrorCode::kValInvalidParameter);
  EXPECT_EQ(result.error().http_status(), 400);
  ASSERT_TRUE(result.error().details().contains("field"));
  EXPECT_EQ(result.error().details().at("field").as_string(), field);
}

TEST(Validate, AcceptsAValidDocument) {
  auto result = Check(R"({"name": "ab", "count": 3, "ratio": 0.5, "enabled": true, "mode": "fast",
      "id": "123e4567-e89b-12d3-a456-426614174000", "day": "2024-02-29",
      "at": "2026-11-22T10:04:05.123Z", "note": null, "tags": {"color": "red"},
      "events": [{"event": "a"}, {"event": "b"}]})");
  EXPECT_TRUE(result) << result.error().message();
}

TEST(Validate, TypeMismatchNamesTheFieldPath) {
  ExpectInvalid(Check(R"({"name": 5})"), "name");
  EXPECT_EQ(Check(R"({"name": 5})").error().message(), "'name' must be a string.");
  ExpectInvalid(Check(R"({"name": "ab", "count": "3"})"), "count");
  EXPECT_EQ(Check(R"({"name": "ab", "count": "3"})").error().message(),
            "'count' must be an integer.");
  ExpectInvalid(Check(R"({"name": "ab", "count": 1.5})"), "count");
  ExpectInvalid(Check(R"({"name": "ab", "ratio": "1"})"), "ratio");
  ExpectInvalid(Check(R"({"name": "ab", "enabled": 1})"), "enabled");
  ExpectInvalid(Check(R"({"name": "ab", "tags": []})"), "tags");
  ExpectInvalid(Check(R"({"name": "ab", "tags": {"color": 1}})"), "tags.color");
  ExpectInvalid(Check(R"({"name": "ab", "events": {}})"), "events");
  ExpectInvalid(Check(R"({"name": "ab", "events": [{"event": "a"}, {"event": "b"}, {"event": "c"},
                                         {"event": 4}]})"),
                "events[3].event");
  ExpectInvalid(Check(R"({"name": "ab", "events": ["x"]})"), "events[0]");
}

TEST(Validate, WholeBodyOfTheWrongTypeIsNamedBody) {
  ExpectInvalid(Check("[]"), "body");
  EXPECT_EQ(Check("[]").error().message(), "'body' must be an object.");
}

TEST(Validate, IntegralDoublesAreIntegers) {
  EXPECT_TRUE(Check(R"({"name": "ab", "count": 3.0})"));
  EXPECT_TRUE(Check(R"({"name": "ab", "ratio": 2})"));  // an integer is a number
}

TEST(Validate, RequiredMembersNameTheirPath) {
  ExpectInvalid(Check("{}"), "name");
  EXPECT_EQ(Check("{}").error().message(), "'name' is required.");
  ExpectInvalid(Check(R"({"name": "ab", "events": [{"event": "a"}, {}]})"), "events[1].event");
}

TEST(Validate, Enum) {
  EXPECT_TRUE(Check(R"({"name": "ab", "mode": "slow"})"));
  auto result = Check(R"({"name": "ab", "mode": "FAST"})");
  ExpectInvalid(result, "mode");
  EXPECT_EQ(result.error().details().at("value").as_string(), "FAST");
  EXPECT_EQ(result.error().message(), R"('mode' must be one of ["fast","slow"].)");
}

TEST(Validate, LengthsCountCodePointsNotBytes) {
  EXPECT_TRUE(Check(R"({"name": "ab"})"));
  EXPECT_TRUE(Check(R"({"name": "abcde"})"));
  ExpectInvalid(Check(R"({"name": "a"})"), "name");
  ExpectInvalid(Check(R"({"name": "abcdef"})"), "name");
  EXPECT_EQ(Check(R"({"name": "abcdef"})").error().message(),
            "'name' must be at most 5 characters long.");
  // Five code points, 15 bytes (CJK) and 20 bytes (emoji): both within maxLength 5.
  EXPECT_TRUE(
      Check("{\"name\": \"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\xE6\x97\xA5\xE6\x9C\xAC\"}"));
  EXPECT_TRUE(
      Check("{\"name\": \"\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80"
            "\xF0\x9F\x98\x80\xF0\x9F\x98\x80\"}"));
  // One code point of two bytes is below minLength 2.
  ExpectInvalid(Check("{\"name\": \"\xC3\xA9\"}"), "name");
  ExpectInvalid(Check("{\"name\": \"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\"}"), "name");
}

TEST(Validate, MinimumAndMaximumAreInclusive) {
  EXPECT_TRUE(Check(R"({"name": "ab", "count": 1})"));
  EXPECT_TRUE(Check(R"({"name": "ab", "count": 10})"));
  ExpectInvalid(Check(R"({"name": "ab", "count": 0})"), "count");
  ExpectInvalid(Check(R"({"name": "ab", "count": 11})"), "count");
  EXPECT_EQ(Check(R"({"name": "ab", "count": 11})").error().message(),
            "'count' must be at most 10.");
  EXPECT_TRUE(Check(R"({"name": "ab", "ratio": -1.5})"));
  ExpectInvalid(Check(R"({"name": "ab", "ratio": -1.6})"), "ratio");
  ExpectInvalid(Check(R"({"name": "ab", "ratio": 2.51})"), "ratio");
  ExpectInvalid(Check(R"({"name": "ab", "count": -9223372036854775808})"), "count");
}

TEST(Validate, MaxItems) {
  ExpectInvalid(Check(R"({"name": "ab", "events": [{"event": "a"}, {"event": "a"},
      {"event": "a"}, {"event": "a"}, {"event": "a"}, {"event": "a"}]})"),
                "events");
}

TEST(Validate, UuidFormat) {
  EXPECT_TRUE(Check(R"({"name": "ab", "id": "123E4567-E89B-12D3-A456-426614174000"})"));
  ExpectInvalid(Check(R"({"name": "ab", "id": "123e4567e89b12d3a456426614174000"})"), "id");
  ExpectInvalid(Check(R"({"name": "ab", "id": ""})"), "id");
  EXPECT_EQ(Check(R"({"name": "ab", "id": "x"})").error().message(), "'id' must be a valid uuid.");
}

TEST(Validate, DateFormatIsARealCalendarDate) {
  EXPECT_TRUE(Check(R"({"name": "ab", "day": "2024-02-29"})"));
  EXPECT_TRUE(Check(R"({"name": "ab", "day": "2000-02-29"})"));
  ExpectInvalid(Check(R"({"name": "ab", "day": "2023-02-29"})"), "day");
  ExpectInvalid(Check(R"({"name": "ab", "day": "1900-02-29"})"), "day");
  ExpectInvalid(Check(R"({"name": "ab", "day": "2024-04-31"})"), "day");
  ExpectInvalid(Check(R"({"name": "ab", "day": "2024-13-01"})"), "day");
  ExpectInvalid(Check(R"({"name": "ab", "day": "2024-00-10"})"), "day");
  ExpectInvalid(Check(R"({"name": "ab", "day": "2024-01-00"})"), "day");
  ExpectInvalid(Check(R"({"name": "ab", "day": "2024-1-01"})"), "day");
  ExpectInvalid(Check(R"({"name": "ab", "day": "2024/01/01"})"), "day");
  ExpectInvalid(Check(R"({"name": "ab", "day": "2024-01-01T00:00:00Z"})"), "day");
  ExpectInvalid(Check(R"({"name": "ab", "day": "+024-01-01"})"), "day");
}

TEST(Validate, DateTimeFormat) {
  for (std::string_view ok :
       {"2026-11-22T10:04:05Z", "2026-11-22T10:04:05.123Z", "2026-11-22t10:04:05z",
        "2026-11-22T10:04:05+05:30", "2026-11-22T10:04:05.5-08:00"}) {
    json::object args{{"name", "ab"}, {"at", ok}};
    EXPECT_TRUE(Validate(EventBatchSchema(), args)) << ok;
  }
  for (std::string_view bad : {"2026-11-22", "2026-11-22 10:04:05Z", "2026-11-22T10:04:05",
                               "2023-02-29T10:04:05Z", "2026-11-22T10:04Z", ""}) {
    json::object args{{"name", "ab"}, {"at", bad}};
    ExpectInvalid(Validate(EventBatchSchema(), args), "at");
  }
}

// BUG (tools/schema.cpp, IsValidDateTime): only the date, the 'T' and the zone suffix are
// checked, so any characters stand in for the time of day. Enable once the time is parsed.
TEST(Validate, DateTimeFormatChecksTheTimeOfDay) {
  for (std::string_view bad :
       {"2026-11-22T25:04:05Z", "2026-11-22T10:61:05Z", "2026-11-22Tab:cd:efZ",
        "2026-11-22T10:04:05.Z", "2026-11-22T10:04:05+5:30Z"}) {
    json::object args{{"name", "ab"}, {"at", bad}};
    ExpectInvalid(Validate(EventBatchSchema(), args), "at");
  }
}

TEST(Validate, NullableAcceptsNullOnlyWhereDeclared) {
  EXPECT_TRUE(Check(R"({"name": "ab", "note": null})"));
  EXPECT_TRUE(Check(R"({"name": "ab", "note": "text"})"));
  ExpectInvalid(Check(R"({"name": "ab", "note": 3})"), "note");
  ExpectInvalid(Check(R"({"name": "ab", "mode": null})"), "mode");
  ExpectInvalid(Check(R"({"name": null})"), "name");
}

TEST(Validate, UnknownPropertiesAreIgnored) {
  EXPECT_TRUE(Check(R"({"name": "ab", "extra": [1, 2, {"x": null}], "tags": {"size": 3}})"));
}

TEST(CoerceFromString, Integer) {
  const json::object schema = Schema(R"({"type": "integer"})");
  EXPECT_EQ(CoerceFromString(schema, "limit", "42").value(), json::value(42));
  EXPECT_EQ(CoerceFromString(schema, "limit", "-7").value(), json::value(-7));
  for (std::string_view bad :
       {"", "4.0", "1e3", "abc", " 1", "1 ", "+1", "0x10", "99999999999999999999"}) {
    auto result = CoerceFromString(schema, "limit", bad);
    ASSERT_FALSE(result) << bad;
    EXPECT_EQ(result.error().code(), ErrorCode::kValInvalidParameter);
    EXPECT_EQ(result.error().details().at("field").as_string(), "limit");
    EXPECT_EQ(result.error().message(), "'limit' must be an integer.");
  }
}

TEST(CoerceFromString, Number) {
  const json::object schema = Schema(R"({"type": "number"})");
  EXPECT_EQ(CoerceFromString(schema, "ratio", "0.25").value(), json::value(0.25));
  EXPECT_EQ(CoerceFromString(schema, "ratio", "-3").value().to_number<double>(), -3.0);
  EXPECT_EQ(CoerceFromString(schema, "ratio", "1e3").value().to_number<double>(), 1000.0);
  for (std::string_view bad : {"", "abc", "1.5x", "nan", "inf", "-inf", "1e999"}) {
    auto result = CoerceFromString(schema, "ratio", bad);
    ASSERT_FALSE(result) << bad;
    EXPECT_EQ(result.error().details().at("field").as_string(), "ratio");
    EXPECT_EQ(result.error().message(), "'ratio' must be a number.");
  }
}

TEST(CoerceFromString, Boolean) {
  const json::object schema = Schema(R"({"type": "boolean"})");
  EXPECT_EQ(CoerceFromString(schema, "on", "true").value(), json::value(true));
  EXPECT_EQ(CoerceFromString(schema, "on", "false").value(), json::value(false));
  for (std::string_view bad : {"", "True", "1", "0", "yes", "false "}) {
    auto result = CoerceFromString(schema, "on", bad);
    ASSERT_FALSE(result) << bad;
    EXPECT_EQ(result.error().message(), "'on' must be true or false.");
  }
}

TEST(CoerceFromString, StringsStayStrings) {
  const json::object schema = Schema(R"({"type": "string"})");
  EXPECT_EQ(CoerceFromString(schema, "q", "42").value(), json::value("42"));
  EXPECT_EQ(CoerceFromString(schema, "q", "").value(), json::value(""));
  EXPECT_EQ(CoerceFromString(Schema("{}"), "q", "true").value(), json::value("true"));
}

TEST(CheckSchema, AcceptsTheSubset) {
  auto result = CheckSchema(EventBatchSchema());
  EXPECT_TRUE(result) << result.error().message();
  EXPECT_TRUE(CheckSchema(Schema(R"({"type": "string", "format": "email"})")));
}

TEST(CheckSchema, RejectsUnknownOrMissingType) {
  EXPECT_FALSE(CheckSchema(Schema(R"({"type": "str"})")));
  EXPECT_FALSE(CheckSchema(Schema(R"({"type": "null"})")));
  EXPECT_FALSE(CheckSchema(Schema("{}")));
  auto nested = CheckSchema(Schema(R"({"type": "object", "properties": {
      "a": {"type": "object", "properties": {"b": {"type": "float"}}}}})"));
  ASSERT_FALSE(nested);
  EXPECT_EQ(nested.error().details().at("field").as_string(), "a.b");
}

TEST(CheckSchema, RejectsArrayWithoutItems) {
  EXPECT_FALSE(CheckSchema(Schema(R"({"type": "array"})")));
  EXPECT_FALSE(CheckSchema(Schema(R"({"type": "array", "items": {"type": "array"}})")));
  EXPECT_FALSE(CheckSchema(Schema(R"({"type": "array", "items": "string"})")));
  EXPECT_TRUE(CheckSchema(Schema(R"({"type": "array", "items": {"type": "string"}})")));
}

TEST(CheckSchema, RejectsRequiredNamingAnUndeclaredProperty) {
  EXPECT_FALSE(CheckSchema(Schema(R"({"type": "object", "required": ["a"]})")));
  EXPECT_FALSE(CheckSchema(
      Schema(R"({"type": "object", "required": ["b"], "properties": {"a": {"type": "string"}}})")));
  EXPECT_FALSE(CheckSchema(
      Schema(R"({"type": "object", "required": [1], "properties": {"a": {"type": "string"}}})")));
}

TEST(CheckSchema, RejectsUnknownFormat) {
  EXPECT_FALSE(CheckSchema(Schema(R"({"type": "string", "format": "ipv4"})")));
  EXPECT_FALSE(CheckSchema(Schema(R"({"type": "string", "format": 3})")));
  EXPECT_FALSE(CheckSchema(Schema(R"({"type": "object", "properties": {
      "xs": {"type": "array", "items": {"type": "string", "format": "uri"}}}})")));
}

TEST(CheckSchema, RejectsPropertiesThatAreNotSchemas) {
  EXPECT_FALSE(CheckSchema(Schema(R"({"type": "object", "properties": []})")));
  EXPECT_FALSE(CheckSchema(Schema(R"({"type": "object", "properties": {"a": "string"}})")));
}

TEST(IsIsoDate, Basics) {
  EXPECT_TRUE(IsIsoDate("2024-02-29"));
  EXPECT_FALSE(IsIsoDate("2023-02-29"));
  EXPECT_TRUE(IsIsoDate("2023-12-31"));
  EXPECT_FALSE(IsIsoDate("2023-12-32"));
  EXPECT_FALSE(IsIsoDate("20231231"));
}

}  // namespace
}  // namespace sightline::tools
