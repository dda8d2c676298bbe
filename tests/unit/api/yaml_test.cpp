#include "api/yaml.h"

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <string>

namespace sightline::api {
namespace {

namespace json = boost::json;

TEST(ToYaml, Scalars) {
  EXPECT_EQ(ToYaml(json::value(42)), "42\n");
  EXPECT_EQ(ToYaml(json::value(-7)), "-7\n");
  EXPECT_EQ(ToYaml(json::value(true)), "true\n");
  EXPECT_EQ(ToYaml(json::value(nullptr)), "null\n");
  EXPECT_EQ(ToYaml(json::value("true")), "\"true\"\n");  // quoted: never read as a boolean
  EXPECT_EQ(ToYaml(json::value("1.0")), "\"1.0\"\n");
  EXPECT_EQ(ToYaml(json::value("")), "\"\"\n");
}

TEST(ToYaml, EmptyContainersAreFlow) {
  EXPECT_EQ(ToYaml(json::object()), "{}\n");
  EXPECT_EQ(ToYaml(json::array()), "[]\n");
  EXPECT_EQ(ToYaml(json::parse(R"({"a": {}, "b": [], "c": [{}, []]})")),
            "\"a\": {}\n"
            "\"b\": []\n"
            "\"c\":\n"
            "  - {}\n"
            "  - []\n");
}

TEST(ToYaml, NestedObjectsAndArrays) {
  const json::value value = json::parse(R"({
    "openapi": "3.0.3",
    "info": {"title": "T", "version": "1.0.0"},
    "tags": ["a", "b"],
    "servers": [{"url": "http://x", "variables": {"v": {"default": "d"}}}, {"url": "y"}],
    "matrix": [[1, 2], [], [[3]]],
    "deep": {"list": [{"k": [true, false]}]}
  })");
  EXPECT_EQ(ToYaml(value),
            "\"openapi\": \"3.0.3\"\n"
            "\"info\":\n"
            "  \"title\": \"T\"\n"
            "  \"version\": \"1.0.0\"\n"
            "\"tags\":\n"
            "  - \"a\"\n"
            "  - \"b\"\n"
            "\"servers\":\n"
            "  - \"url\": \"http://x\"\n"
            "    \"variables\":\n"
            "      \"v\":\n"
            "        \"default\": \"d\"\n"
            "  - \"url\": \"y\"\n"
            "\"matrix\":\n"
            "  - - 1\n"
            "    - 2\n"
            "  - []\n"
            "  - - - 3\n"
            "\"deep\":\n"
            "  \"list\":\n"
            "    - \"k\":\n"
            "        - true\n"
            "        - false\n");
}

TEST(ToYaml, TopLevelArrayOfObjects) {
  EXPECT_EQ(ToYaml(json::parse(R"([{"a": 1, "b": 2}, 3])")),
            "- \"a\": 1\n"
            "  \"b\": 2\n"
            "- 3\n");
}

TEST(ToYaml, StringsAreDoubleQuotedWithJsonEscapes) {
  json::object object;
  object["quote"] = "say \"hi\"";
  object["backslash"] = "C:\\dir";
  object["lines"] = "one\ntwo\r\n\tthree";
  object["control"] = std::string(
      "a\x01"
      "b");
  object["unicode"] = "caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80";
  object["yaml syntax"] = "- [a]: {b} # c & *d !e | >f '";
  object["key: with \"quotes\""] = "v";
  EXPECT_EQ(ToYaml(object),
            "\"quote\": \"say \\\"hi\\\"\"\n"
            "\"backslash\": \"C:\\\\dir\"\n"
            "\"lines\": \"one\\ntwo\\r\\n\\tthree\"\n"
            "\"control\": \"a\\u0001b\"\n"
            "\"unicode\": \"caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80\"\n"
            "\"yaml syntax\": \"- [a]: {b} # c & *d !e | >f '\"\n"
            "\"key: with \\\"quotes\\\"\": \"v\"\n");
}

TEST(ToYaml, EveryOutputLineEndsWithANewline) {
  const std::string yaml = ToYaml(json::parse(R"({"a": [1, {"b": "x\ny"}]})"));
  ASSERT_FALSE(yaml.empty());
  EXPECT_EQ(yaml.back(), '\n');
  EXPECT_EQ(yaml.find("\n\n"), std::string::npos);
}

// BUG (api/yaml.cpp, Scalar): JSON escapes only characters below U+0020, but YAML 1.2 allows
// neither DEL (U+007F) nor C1 controls other than U+0085 unescaped in a stream, so such a
// string yields a document YAML parsers reject. Enable once Scalar escapes them.
TEST(ToYaml, EscapesCharactersYamlDoesNotAllowRaw) {
  const std::string yaml =
      ToYaml(json::value(std::string("a\x7F"
                                     "b\xC2\x80"
                                     "c")));
  EXPECT_EQ(yaml.find('\x7F'), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("\xC2\x80"), std::string::npos) << yaml;
}

}  // namespace
}  // namespace sightline::api
