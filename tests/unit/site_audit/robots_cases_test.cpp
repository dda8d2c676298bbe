// The shared robots.txt cases (robots_cases.json beside this file) answered by Sightline's own
// parser. The same file is answered by npm robots-parser in tests/interop/robots_oracle.test.mjs,
// so the two implementations are compared through one list of expected verdicts; the cases where
// robots-parser departs from RFC 9309 say why in "rfc_differs".
#include "site_audit/robots_txt.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "site_audit/crawl_url.h"

namespace sightline::site_audit {
namespace {

namespace json = boost::json;

json::array Cases() {
  std::ifstream in(std::string(SIGHTLINE_SOURCE_DIR) + "/tests/unit/site_audit/robots_cases.json");
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str()).at("cases").as_array();
}

TEST(RobotsCases, SightlineGivesEveryExpectedVerdict) {
  const json::array cases = Cases();
  ASSERT_GT(cases.size(), 50u);
  for (const json::value& entry : cases) {
    const json::object& c = entry.as_object();
    const std::string url(c.at("url").as_string());
    const RobotsTxt robots = RobotsTxt::Parse(c.at("robots").as_string());
    EXPECT_EQ(robots.IsAllowed(c.at("agent").as_string(), UrlTarget(url)),
              c.at("expected").as_bool())
        << c.at("name").as_string() << " (" << c.at("agent").as_string() << " " << url << ")";
  }
}

}  // namespace
}  // namespace sightline::site_audit
