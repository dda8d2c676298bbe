#include "core/http_types.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace sightline::core {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

TEST(PercentDecode, DecodesEscapesInEitherCase) {
  EXPECT_EQ(PercentDecode("a%20b", false), "a b");
  EXPECT_EQ(PercentDecode("%41%62%2f%2F", false), "Ab//");
  EXPECT_EQ(PercentDecode("%E2%82%AC", false), "\xE2\x82\xAC");  // the euro sign
  EXPECT_EQ(PercentDecode("%00", false), std::string(1, '\0'));
  EXPECT_EQ(PercentDecode("", false), "");
  EXPECT_EQ(PercentDecode("plain-text_1.2~", false), "plain-text_1.2~");
}

TEST(PercentDecode, RejectsBadAndTruncatedEscapes) {
  EXPECT_EQ(PercentDecode("%zz", false), std::nullopt);
  EXPECT_EQ(PercentDecode("%4g", false), std::nullopt);
  EXPECT_EQ(PercentDecode("%G1", false), std::nullopt);
  EXPECT_EQ(PercentDecode("%4", false), std::nullopt);
  EXPECT_EQ(PercentDecode("abc%", false), std::nullopt);
  EXPECT_EQ(PercentDecode("%", false), std::nullopt);
  EXPECT_EQ(PercentDecode("ok%2", true), std::nullopt);
}

TEST(PercentDecode, EscapeAtTheVeryEndIsComplete) {
  EXPECT_EQ(PercentDecode("ab%41", false), "abA");
}

TEST(PercentDecode, PlusIsSpaceOnlyWhenAsked) {
  EXPECT_EQ(PercentDecode("a+b", true), "a b");
  EXPECT_EQ(PercentDecode("a+b", false), "a+b");
  // An escaped plus is always a plus.
  EXPECT_EQ(PercentDecode("a%2Bb", true), "a+b");
}

TEST(ParseQuery, SplitsAndDecodesPairs) {
  EXPECT_EQ(ParseQuery("a=1&b=x%20y&c=p+q"), (Pairs{{"a", "1"}, {"b", "x y"}, {"c", "p q"}}));
  EXPECT_EQ(ParseQuery("na%6De=%C3%A9"), (Pairs{{"name", "\xC3\xA9"}}));
}

TEST(ParseQuery, SkipsEmptyPairsAndKeepsOrderAndDuplicates) {
  EXPECT_EQ(ParseQuery(""), Pairs{});
  EXPECT_EQ(ParseQuery("&&a=1&&b=2&"), (Pairs{{"a", "1"}, {"b", "2"}}));
  EXPECT_EQ(ParseQuery("a=1&a=2"), (Pairs{{"a", "1"}, {"a", "2"}}));
}

TEST(ParseQuery, MissingEqualsMeansEmptyValue) {
  EXPECT_EQ(ParseQuery("flag&x="), (Pairs{{"flag", ""}, {"x", ""}}));
  // Only the first '=' separates; the rest belongs to the value.
  EXPECT_EQ(ParseQuery("e=a=b"), (Pairs{{"e", "a=b"}}));
}

TEST(ParseQuery, LeavesOutPairsWithMalformedEscapes) {
  EXPECT_EQ(ParseQuery("a=%zz&b=2&c%4=3&d=%4"), (Pairs{{"b", "2"}}));
}

TEST(HttpHeaders, GetIsCaseInsensitiveAndReturnsTheFirstField) {
  HttpHeaders headers;
  headers.Add("Content-Type", "application/json");
  headers.Add("X-Thing", "one");
  headers.Add("x-thing", "two");
  EXPECT_EQ(headers.Get("content-type"), "application/json");
  EXPECT_EQ(headers.Get("CONTENT-TYPE"), "application/json");
  EXPECT_EQ(headers.Get("X-THING"), "one");
  EXPECT_TRUE(headers.Has("x-THING"));
  EXPECT_FALSE(headers.Has("Content-Length"));
  EXPECT_EQ(headers.Get("Content-Typ"), std::nullopt);
  EXPECT_EQ(headers.fields().size(), 3u);
}

TEST(HttpHeaders, SetReplacesEveryDuplicateWhateverItsCase) {
  HttpHeaders headers;
  headers.Add("Set-Cookie", "a=1");
  headers.Add("Other", "keep");
  headers.Add("set-cookie", "b=2");
  headers.Add("SET-COOKIE", "c=3");
  headers.Set("Set-Cookie", "only");
  ASSERT_EQ(headers.fields().size(), 2u);
  EXPECT_EQ(headers.fields()[0], (std::pair<std::string, std::string>{"Other", "keep"}));
  EXPECT_EQ(headers.fields()[1], (std::pair<std::string, std::string>{"Set-Cookie", "only"}));
  EXPECT_EQ(headers.Get("set-cookie"), "only");
}

TEST(HttpHeaders, SetAddsAFieldWhenAbsent) {
  HttpHeaders headers;
  headers.Set("ETag", "\"x\"");
  ASSERT_EQ(headers.fields().size(), 1u);
  EXPECT_EQ(headers.Get("etag"), "\"x\"");
}

TEST(EqualsIgnoreCase, ComparesAsciiLettersOnly) {
  EXPECT_TRUE(EqualsIgnoreCase("Bearer ", "bEARER "));
  EXPECT_FALSE(EqualsIgnoreCase("abc", "abcd"));
  EXPECT_FALSE(EqualsIgnoreCase("a-b", "a_b"));
  EXPECT_TRUE(EqualsIgnoreCase("", ""));
}

TEST(HttpRequest, PathAndQuerySplitAtTheFirstQuestionMark) {
  HttpRequest request;
  request.target = "/acme/projects/p1?from=2024-01-01&q=a?b";
  EXPECT_EQ(request.path(), "/acme/projects/p1");
  EXPECT_EQ(request.query(), "from=2024-01-01&q=a?b");

  request.target = "/healthz";
  EXPECT_EQ(request.path(), "/healthz");
  EXPECT_EQ(request.query(), "");

  request.target = "/x?";
  EXPECT_EQ(request.path(), "/x");
  EXPECT_EQ(request.query(), "");

  request.target = "?a=1";
  EXPECT_EQ(request.path(), "");
  EXPECT_EQ(request.query(), "a=1");
}

TEST(HttpMethod, NamesRoundTripAndUnknownIsOther) {
  for (HttpMethod m : {HttpMethod::kGet, HttpMethod::kHead, HttpMethod::kPost, HttpMethod::kPut,
                       HttpMethod::kPatch, HttpMethod::kDelete, HttpMethod::kOptions}) {
    EXPECT_EQ(ParseMethod(MethodName(m)), m) << MethodName(m);
  }
  EXPECT_EQ(MethodName(HttpMethod::kPatch), "PATCH");
  EXPECT_EQ(ParseMethod("get"), HttpMethod::kOther);  // methods are case-sensitive
  EXPECT_EQ(ParseMethod("BREW"), HttpMethod::kOther);
  EXPECT_EQ(MethodName(HttpMethod::kOther), "OTHER");
}

}  // namespace
}  // namespace sightline::core
