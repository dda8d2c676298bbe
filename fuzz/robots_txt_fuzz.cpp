// robots.txt (RFC 9309) as the crawler and the robots-vs-traffic report read it: the file,
// then a decision for a product token and a path, its crawl delay and its rules.
#include "site_audit/robots_match.h"
#include "site_audit/robots_txt.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using sightline::site_audit::RobotsTxt;
  FuzzedDataProvider input(data, size);
  const std::string token = input.ConsumeRandomLengthString(32);
  const std::string path = input.ConsumeRandomLengthString(128);
  const std::string body = input.ConsumeRemainingBytesAsString();
  const RobotsTxt robots = RobotsTxt::Parse(body);
  const auto verdict = robots.Check(token, path);
  sightline::fuzz::Check(verdict.allowed == robots.IsAllowed(token, path),
                         "Check and IsAllowed agree");
  (void)robots.CrawlDelay(token);
  (void)robots.NamesAgent(token);
  // The path side alone: normalizing is idempotent (patterns and paths meet in one form).
  const std::string normalized = sightline::site_audit::NormalizeRobotsPath(path);
  sightline::fuzz::Check(sightline::site_audit::NormalizeRobotsPath(normalized) == normalized,
                         "NormalizeRobotsPath is idempotent");
  for (const auto& rule : robots.RulesFor(token)) {
    (void)sightline::site_audit::RobotsPatternMatches(
        sightline::site_audit::NormalizeRobotsPath(rule.pattern), normalized);
  }
  return 0;
}
