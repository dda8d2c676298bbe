// Custom properties: the tags most events carry are read without the JSON parser, and must
// read as the parser reads them; everything else is the parser's. A table keeps the keys asked.
#include "query/custom_properties.h"

#include <gtest/gtest.h>

namespace sightline::query {
namespace {

using Properties = std::vector<std::pair<std::string, std::string>>;

// Every custom property of `tags`, as owned strings.
Properties PropertiesOf(std::string_view tags) {
  PropertyTable table;
  Properties properties;
  for (const Property& p : table[table.Add(tags)]) properties.emplace_back(p.key, p.value);
  return properties;
}

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

namespace sightline::query {
namespace {

TEST(PropertyTable, EntriesInOrderWithTheKeysAsked) {
  const std::string plain = R"({"plan":"pro","step":"2","$ip":"x"})";
  const std::string parsed = R"({"plan": "pro\u0021", "n": 2, "step": true})";
  PropertyTable all;
  EXPECT_EQ(all.Add(""), 0u);
  EXPECT_EQ(all.Add(plain), 1u);
  EXPECT_EQ(all.Add(parsed), 2u);
  EXPECT_TRUE(all[0].empty());
  EXPECT_EQ(std::vector<Property>(all[1].begin(), all[1].end()),
            (std::vector<Property>{{"plan", "pro"}, {"step", "2"}}));
  EXPECT_EQ(std::vector<Property>(all[2].begin(), all[2].end()),
            (std::vector<Property>{{"plan", "pro!"}, {"n", "2"}, {"step", "true"}}));
  // Plain values are views into the tags, not copies.
  EXPECT_GE(all[1][0].value.data(), plain.data());
  EXPECT_LT(all[1][0].value.data(), plain.data() + plain.size());

  PropertyTable step(std::vector<std::string>{"step", "$ip"});
  step.Add(plain);
  step.Add(parsed);
  // A table moved keeps its views valid, the owned values included.
  const PropertyTable moved = std::move(step);
  EXPECT_EQ(std::vector<Property>(moved[0].begin(), moved[0].end()),
            (std::vector<Property>{{"step", "2"}}));  // `$ip` is no custom property
  EXPECT_EQ(std::vector<Property>(moved[1].begin(), moved[1].end()),
            (std::vector<Property>{{"step", "true"}}));
}

TEST(PropertyTable, TagsWithoutAKeyAskedAreSkippedUnlessTheKeyMayBeEscaped) {
  PropertyTable step(std::vector<std::string>{"step"});
  step.Add(R"({"plan":"pro","steps":"9"})");
  step.Add(R"({"st\u0065p":"3"})");  // the key written with an escape: found by the parser
  step.Add(R"({"plan":"step"})");       // `"step"` as a value: read, nothing kept
  EXPECT_TRUE(step[0].empty());
  ASSERT_EQ(step[1].size(), 1u);
  EXPECT_EQ(step[1][0], (Property{"step", "3"}));
  EXPECT_TRUE(step[2].empty());
}

TEST(PropertyTable, APlainReadingGivenUpLeavesNothingBehind) {
  // The plain reading takes `a` before it meets the repeated key, then leaves it to the parser.
  PropertyTable table;
  table.Add(R"({"a":"1","b":"2","b":"3"})");
  ASSERT_EQ(table[0].size(), 2u);
  EXPECT_EQ(table[0][0].key, "a");
  EXPECT_EQ(table[0][1].key, "b");
}

}  // namespace
}  // namespace sightline::query
