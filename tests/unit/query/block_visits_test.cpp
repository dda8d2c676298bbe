// PropertiesOf: the tags most events carry are read without the JSON parser, and must read as
// the parser reads them; everything else is the parser's.
#include "query/block_visits.h"

#include <gtest/gtest.h>

namespace sightline::query {
namespace {

TEST(PropertiesOf, PlainStringObjectsAsTheParserReadsThem) {
  EXPECT_EQ(PropertiesOf(""), Properties());
  EXPECT_EQ(PropertiesOf("{}"), Properties());
  EXPECT_EQ(PropertiesOf(R"({"plan":"pro"})"), (Properties{{"plan", "pro"}}));
  EXPECT_EQ(PropertiesOf(R"({"plan":"pro","step":"","b":"}{,:"})"),
            (Properties{{"plan", "pro"}, {"step", ""}, {"b", "}{,:"}}));
  EXPECT_EQ(PropertiesOf(R"({"$ip":"x","plan":"pro","__sdk":"y"})"),
            (Properties{{"plan", "pro"}}));
}

TEST(PropertiesOf, EverythingElseAsTheParserReadsIt) {
  EXPECT_EQ(PropertiesOf(R"({ "plan" : "pro" })"), (Properties{{"plan", "pro"}}));
  EXPECT_EQ(PropertiesOf(R"({"a":"x\"y","b":"\u00e9"})"),
            (Properties{{"a", "x\"y"}, {"b", "\xc3\xa9"}}));
  EXPECT_EQ(PropertiesOf("{\"city\":\"K\xc3\xb6ln\"}"), (Properties{{"city", "K\xc3\xb6ln"}}));
  EXPECT_EQ(PropertiesOf(R"({"n":2,"ok":true,"none":null,"list":["a"]})"),
            (Properties{{"n", "2"}, {"ok", "true"}}));
  // A repeated key: whatever the parser makes of it, the plain reading makes the same.
  const Properties repeated = PropertiesOf(R"({"a":"1","a":"2"})");
  ASSERT_EQ(repeated.size(), 1u);
  EXPECT_EQ(repeated[0].first, "a");
}

TEST(PropertiesOf, NoPropertiesFromWhatIsNoObject) {
  for (const char* tags : {R"(["a"])", R"("a")", "{", R"({"a":"b")", R"({"a":"b"}x)",
                           R"({"a":"b",})", R"({"a"})", "{\"a\":\"\xff\"}"}) {
    EXPECT_EQ(PropertiesOf(tags), Properties()) << tags;
  }
}

}  // namespace
}  // namespace sightline::query
