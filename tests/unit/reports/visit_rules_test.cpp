#include "reports/visit_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sightline::reports {
namespace {

TEST(ReferrerDomain, IsTheHostOfAnotherSite) {
  EXPECT_EQ(ReferrerDomain("https://www.News.YCombinator.com:443/item?id=1", "Organic Social", {}),
            "news.ycombinator.com");
  EXPECT_EQ(ReferrerDomain(" https://t.co/abc ", "Organic Social", {}), "t.co");
  EXPECT_EQ(ReferrerDomain("android-app://com.google.android.gm/", "Email", {}),
            "com.google.android.gm");
  // Campaign parameters decide the channel; the referrer is still another site's.
  EXPECT_EQ(ReferrerDomain("https://partner.example/", "Email", {}), "partner.example");
}

TEST(ReferrerDomain, IsNoneWithoutAnotherSite) {
  EXPECT_EQ(ReferrerDomain("", "Referral", {}), "");
  EXPECT_EQ(ReferrerDomain("not a url", "Referral", {}), "");
  // Ingestion found it on the page's own host: Direct.
  EXPECT_EQ(ReferrerDomain("https://site.test/old", "Direct", {}), "");
  EXPECT_EQ(ReferrerDomain("http://localhost:3000/", "Referral", {}), "");
  EXPECT_EQ(ReferrerDomain("http://127.0.0.1/", "Referral", {}), "");
  EXPECT_EQ(ReferrerDomain("http://app.localhost/", "Referral", {}), "");
  const std::vector<std::string> own = {"example.com"};
  EXPECT_EQ(ReferrerDomain("https://blog.example.com/post", "Referral", own), "");
  EXPECT_EQ(ReferrerDomain("https://www.example.com/", "Email", own), "");
  EXPECT_EQ(ReferrerDomain("https://example.com.evil.test/", "Referral", own),
            "example.com.evil.test");
}

}  // namespace
}  // namespace sightline::reports
