// RFC 9309 §2.2.2 path normalization and the wildcard matcher on their own, with Google's
// published examples for `*` and `$`.
#include "site_audit/robots_match.h"

#include <gtest/gtest.h>

#include <string>

namespace sightline::site_audit {
namespace {

TEST(RobotsMatch, NormalizationFollowsRfc9309Table) {
  EXPECT_EQ(NormalizeRobotsPath("/foo/bar?baz=quz"), "/foo/bar?baz=quz");
  EXPECT_EQ(NormalizeRobotsPath("/foo/bar/ツ"), "/foo/bar/%E3%83%84");
  EXPECT_EQ(NormalizeRobotsPath("/foo/bar/%E3%83%84"), "/foo/bar/%E3%83%84");
  EXPECT_EQ(NormalizeRobotsPath("/foo/bar/%62%61%7A"), "/foo/bar/baz");
}

TEST(RobotsMatch, NormalizationKeepsReservedAndEscapesTheRest) {
  EXPECT_EQ(NormalizeRobotsPath("/a%2fb%3F%7e"), "/a%2Fb%3F~");  // ~ is unreserved
  EXPECT_EQ(NormalizeRobotsPath("/*.php$"), "/*.php$");
  EXPECT_EQ(NormalizeRobotsPath("/%2A"), "/%2A");  // an escaped star is not a wildcard
  EXPECT_EQ(NormalizeRobotsPath("/a b\"<>"), "/a%20b%22%3C%3E");
  EXPECT_EQ(NormalizeRobotsPath("/100%"), "/100%25");  // a '%' that starts no escape
  EXPECT_EQ(NormalizeRobotsPath("/%zz%4"), "/%25zz%254");
  EXPECT_EQ(NormalizeRobotsPath("/[x]"), "/[x]");
}

TEST(RobotsMatch, PrefixWildcardAndAnchor) {
  EXPECT_TRUE(RobotsPatternMatches("/", "/x"));
  EXPECT_TRUE(RobotsPatternMatches("", "/x"));  // callers never pass one; still well-defined
  EXPECT_TRUE(RobotsPatternMatches("*", "/x"));
  EXPECT_TRUE(RobotsPatternMatches("*$", "/x"));
  EXPECT_TRUE(RobotsPatternMatches("/x$", "/x"));
  EXPECT_FALSE(RobotsPatternMatches("/x$", "/xy"));
  EXPECT_TRUE(RobotsPatternMatches("/a*b*c", "/aXbYcZ"));
  EXPECT_FALSE(RobotsPatternMatches("/a*b*c", "/aXcYb"));
  EXPECT_TRUE(RobotsPatternMatches("/a**b$", "/ab"));
  // The last run must end the path, even after an earlier place where it also occurs.
  EXPECT_TRUE(RobotsPatternMatches("/*ab$", "/abxab"));
  EXPECT_FALSE(RobotsPatternMatches("/*abab$", "/aba"));
  // Runs may not overlap: "/a*ab" needs two a's.
  EXPECT_FALSE(RobotsPatternMatches("/a*ab$", "/ab"));
  EXPECT_TRUE(RobotsPatternMatches("/a*ab$", "/aab"));
  EXPECT_TRUE(RobotsPatternMatches("/a$b", "/a$bc"));  // '$' inside is literal
}

struct PatternCase {
  const char* pattern;
  const char* path;
  bool matches;
};

// developers.google.com/search/docs/crawling-indexing/robots/robots_txt, "URL matching based on
// path values".
constexpr PatternCase kGoogleExamples[] = {
    {"/", "/", true},
    {"/", "/anything/else", true},
    {"/*", "/", true},
    {"/*", "/any", true},
    {"/$", "/", true},
    {"/$", "/page.htm", false},
    {"/fish", "/fish", true},
    {"/fish", "/fish.html", true},
    {"/fish", "/fish/salmon.html", true},
    {"/fish", "/fishheads/yummy.html", true},
    {"/fish", "/fish.php?id=anything", true},
    {"/fish", "/Fish.asp", false},
    {"/fish", "/catfish", false},
    {"/fish", "/?id=fish", false},
    {"/fish", "/desert/fish", false},
    {"/fish*", "/fish", true},
    {"/fish*", "/fish.html", true},
    {"/fish*", "/fishheads", true},
    {"/fish*", "/catfish", false},
    {"/fish*", "/Fish.asp", false},
    {"/fish/", "/fish/", true},
    {"/fish/", "/fish/?id=anything", true},
    {"/fish/", "/fish/salmon.htm", true},
    {"/fish/", "/fish", false},
    {"/fish/", "/fish.html", false},
    {"/fish/", "/animals/fish/", false},
    {"/fish/", "/Fish/Salmon.asp", false},
    {"/*.php", "/index.php", true},
    {"/*.php", "/folder/filename.php?parameters", true},
    {"/*.php", "/folder/any.php.file.html", true},
    {"/*.php", "/filename.php/", true},
    {"/*.php", "/", false},
    {"/*.php", "/windows.PHP", false},
    {"/*.php$", "/filename.php", true},
    {"/*.php$", "/folder/filename.php", true},
    {"/*.php$", "/filename.php?parameters", false},
    {"/*.php$", "/filename.php/", false},
    {"/*.php$", "/filename.php5", false},
    {"/*.php$", "/windows.PHP", false},
    {"/fish*.php", "/fish.php", true},
    {"/fish*.php", "/fishheads/catfish.php?parameters", true},
    {"/fish*.php", "/Fish.PHP", false},
};

TEST(RobotsMatch, GoogleWildcardExamples) {
  for (const PatternCase& c : kGoogleExamples) {
    EXPECT_EQ(RobotsPatternMatches(NormalizeRobotsPath(c.pattern), NormalizeRobotsPath(c.path)),
              c.matches)
        << c.pattern << " on " << c.path;
  }
}

TEST(RobotsMatch, LinearOnManyStars) {
  std::string pattern = "/";
  for (int i = 0; i < 5000; ++i) pattern += "*a";
  pattern += "*b$";
  const std::string path = "/" + std::string(20000, 'a');
  EXPECT_FALSE(RobotsPatternMatches(pattern, path));
  EXPECT_TRUE(RobotsPatternMatches(pattern, path + "b"));
  EXPECT_FALSE(RobotsPatternMatches(pattern, "/" + std::string(4999, 'a') + "b"));
}

}  // namespace
}  // namespace sightline::site_audit
