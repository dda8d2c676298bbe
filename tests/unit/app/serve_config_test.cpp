#include "app/serve_config.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sightline::app {
namespace {

// Parses `words` as `sightline serve` would (the environment aside: these tests set none).
core::Result<ServeConfig> Parse(std::vector<std::string> words) {
  std::vector<char*> args;
  for (std::string& word : words) args.push_back(word.data());
  auto options = ParseOptions(ServeOptionDefs(), args);
  if (!options) return options.error();
  return ParseServeConfig(*options);
}

std::string FailingField(const core::Result<ServeConfig>& parsed) {
  if (parsed) return "(parsed)";
  const core::Error error = parsed.error();  // a copy: error() returns one
  const boost::json::value* field = error.details().if_contains("field");
  return field && field->is_string() ? std::string(field->as_string()) : "(no field)";
}

TEST(ServeConfig, TheDefaultsParse) {
  auto config = Parse({});
  ASSERT_TRUE(config) << config.error().message();
  EXPECT_EQ(config->listen.host, "127.0.0.1");
  EXPECT_EQ(config->listen.port, 8080);
  EXPECT_EQ(config->rate_limit, 1000);
  EXPECT_EQ(config->public_rate_limit, 60);
  EXPECT_EQ(config->limits.max_body_bytes, 5u * 1024 * 1024);
  EXPECT_EQ(config->limits.workers, 0);  // auto, on SQLite
  EXPECT_EQ(config->changed_days(), reports::ChangedDays::kLeaveToBackground);
  EXPECT_TRUE(config->llm.provider.empty());
  EXPECT_TRUE(config->sdk_script.empty());  // the embedded script
}

// Every whole-number option declares its range beside it in the table, and the range holds.
TEST(ServeConfig, EveryWholeNumberOptionKeepsToItsDeclaredRange) {
  int ranged = 0;
  for (const OptionDef& def : ServeOptionDefs()) {
    if (def.max <= def.min) continue;
    ++ranged;
    const std::string flag = "--" + std::string(def.flag);
    EXPECT_TRUE(Parse({flag, std::to_string(def.min)})) << flag << " " << def.min;
    EXPECT_TRUE(Parse({flag, std::to_string(def.max)})) << flag << " " << def.max;
    EXPECT_EQ(FailingField(Parse({flag, std::to_string(def.min - 1)})), def.flag);
    EXPECT_EQ(FailingField(Parse({flag, std::to_string(def.max + 1)})), def.flag);
    EXPECT_EQ(FailingField(Parse({flag, "12abc"})), def.flag);
  }
  EXPECT_GE(ranged, 18);
}

TEST(ServeConfig, WorkersFollowTheStoreWhenAuto) {
  auto postgres = Parse({"--database-url", "postgresql://db/sightline", "--db-pool-size", "6"});
  ASSERT_TRUE(postgres);
  EXPECT_EQ(postgres->limits.workers, 6);
  auto explicit_workers = Parse({"--workers", "3"});
  ASSERT_TRUE(explicit_workers);
  EXPECT_EQ(explicit_workers->limits.workers, 3);
}

TEST(ServeConfig, MalformedValuesNameTheirOption) {
  EXPECT_EQ(FailingField(Parse({"--listen", "8080"})), "listen");
  EXPECT_EQ(FailingField(Parse({"--listen", "127.0.0.1:70000"})), "listen");
  EXPECT_EQ(FailingField(Parse({"--trusted-proxies", "10.0.0.0/99"})), "trusted-proxies");
  EXPECT_EQ(FailingField(Parse({"--mcp-allowed-origins", "app.example.com"})),
            "mcp-allowed-origins");
  EXPECT_EQ(FailingField(Parse({"--bot-ranges-dir", "/nonexistent/ranges"})), "bot-ranges-dir");
  EXPECT_EQ(FailingField(Parse({"--llm-provider", "openai"})), "llm-model");
  EXPECT_EQ(FailingField(Parse({"--llm-provider", "gemini", "--llm-model", "m"})), "llm-provider");
}

TEST(ServeConfig, IPv6ListenAddressesLoseTheirBrackets) {
  auto config = Parse({"--listen", "[::1]:0"});
  ASSERT_TRUE(config);
  EXPECT_EQ(config->listen.host, "::1");
  EXPECT_EQ(config->listen.port, 0);
}

TEST(ServeConfig, ReportsRollUpFirstWithoutTheBackgroundRefresher) {
  auto config = Parse({"--rollup-interval", "0"});
  ASSERT_TRUE(config);
  EXPECT_EQ(config->changed_days(), reports::ChangedDays::kRollUpFirst);
}

}  // namespace
}  // namespace sightline::app
