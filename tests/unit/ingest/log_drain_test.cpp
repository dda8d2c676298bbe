#include "ingest/log_drain.h"

#include "core/compression.h"
#include "core/crypto.h"
#include "core/json_util.h"
#include "features/all_operations.h"
#include "features/ingestion/forwarding_operations.h"
#include "tools/registry.h"

#include <gtest/gtest.h>

namespace sightline::ingest {
namespace {

namespace json = boost::json;

constexpr std::int64_t kNow = 1795000000000;  // 2026-11-18

TEST(LogDrain, SourceNamesRoundTrip) {
  for (std::string_view name : DrainSourceNames()) EXPECT_TRUE(ParseDrainSource(name)) << name;
  EXPECT_FALSE(ParseDrainSource("server"));
  EXPECT_FALSE(ParseDrainSource("Vercel"));
}

TEST(LogDrain, TheOperationSchemaListsExactlyTheDrains) {
  auto registry = tools::Registry::Build(tools::AllOperations(), tools::AllSchemaDocuments());
  ASSERT_TRUE(registry);
  const json::object* schema = &registry->Find(tools::kIngestLogDrain.name)->input_schema;
  const auto& listed = schema->at("properties").at("source").at("enum").as_array();
  ASSERT_EQ(listed.size(), DrainSourceNames().size());
  for (std::size_t i = 0; i < listed.size(); ++i) {
    EXPECT_EQ(listed[i].as_string(), DrainSourceNames()[i]);
  }
}

TEST(LogDrain, VercelReadsProxyLogsAndSkipsOthers) {
  const std::string body = R"([
    {"id":"1","type":"stdout","source":"build","message":"Compiling"},
    {"id":"2","source":"edge","timestamp":1794999999000,"proxy":{"timestamp":1794999998000,
      "method":"GET","host":"example.com","path":"/docs?x=1","userAgent":["GPTBot/1.1"],
      "referer":"https://chatgpt.com/","clientIp":"192.0.2.10","statusCode":200}},
    {"id":"3","source":"static","proxy":{"method":"GET","path":"/","clientIp":"192.0.2.11"}}])";
  auto batch = ParseDrain(DrainSource::kVercel, body, kNow);
  ASSERT_TRUE(batch) << batch.error().message();
  EXPECT_EQ(batch->received, 3);
  ASSERT_EQ(batch->requests.size(), 1u) << "the build log and the row without a UA are skipped";
  const ServerItem& item = batch->requests[0];
  EXPECT_EQ(item.user_agent, "GPTBot/1.1");
  EXPECT_EQ(item.ip_address, "192.0.2.10");
  EXPECT_EQ(item.host, "example.com");
  EXPECT_EQ(item.path, "/docs?x=1");
  EXPECT_EQ(item.referrer, "https://chatgpt.com/");
  EXPECT_EQ(item.client_timestamp, 1794999998000);
}

TEST(LogDrain, VercelNdjsonCountsUnreadableLines) {
  const std::string body =
      R"({"proxy":{"clientIp":"192.0.2.1","userAgent":"curl/8.5.0","path":"/"}})"
      "\n{not json\n\n"
      R"({"proxy":{"clientIp":"not-an-ip","userAgent":"curl/8.5.0"}})";
  auto batch = ParseDrain(DrainSource::kVercel, body, kNow);
  ASSERT_TRUE(batch);
  EXPECT_EQ(batch->received, 3);
  EXPECT_EQ(batch->requests.size(), 1u);
  EXPECT_FALSE(batch->requests[0].client_timestamp) << "no time given: receipt time";
}

TEST(LogDrain, NetlifyTrafficLogsWithAbsoluteUrls) {
  const std::string body = R"([
    {"log_type":"traffic","client_ip":"2001:db8::1","user_agent":"ClaudeBot/1.0","method":"GET",
     "url":"https://site.netlify.app/blog/post","referrer":"","timestamp":"2026-11-17T10:00:00.250Z"},
    {"log_type":"functions","message":"hello"}])";
  auto batch = ParseDrain(DrainSource::kNetlify, body, kNow);
  ASSERT_TRUE(batch);
  EXPECT_EQ(batch->received, 2);
  ASSERT_EQ(batch->requests.size(), 1u);
  EXPECT_EQ(batch->requests[0].host, "site.netlify.app");
  EXPECT_EQ(batch->requests[0].path, "/blog/post");
  EXPECT_FALSE(batch->requests[0].referrer);
  EXPECT_EQ(batch->requests[0].client_timestamp, ParseRfc3339Millis("2026-11-17T10:00:00.250Z"));
}

TEST(LogDrain, CloudflareLogpushNdjsonWithNanosecondTimes) {
  const std::string body =
      R"({"ClientIP":"192.0.2.7","ClientRequestUserAgent":"Bytespider","ClientRequestMethod":"GET",)"
      R"("ClientRequestHost":"shop.example","ClientRequestURI":"/p/1","ClientRequestReferer":"",)"
      R"("EdgeStartTimestamp":1794999990123456789})"
      "\n"
      R"({"content":"test","filename":"test.txt"})";
  auto batch = ParseDrain(DrainSource::kCloudflare, body, kNow);
  ASSERT_TRUE(batch);
  EXPECT_EQ(batch->received, 2) << "Logpush's setup probe is a row, not a request";
  ASSERT_EQ(batch->requests.size(), 1u);
  EXPECT_EQ(batch->requests[0].client_timestamp, 1794999990123);
  EXPECT_EQ(batch->requests[0].host, "shop.example");
}

TEST(LogDrain, FastlyJsonLinesWithCommonSpellings) {
  const std::string body =
      R"({"timestamp":"2026-11-17T10:00:00+01:00","client_ip":"192.0.2.8","request_method":"HEAD",)"
      R"("host":"cdn.example","url":"/a.css","request_referer":"-","request_user_agent":"AhrefsBot/7.0"})";
  auto batch = ParseDrain(DrainSource::kFastly, body, kNow);
  ASSERT_TRUE(batch);
  ASSERT_EQ(batch->requests.size(), 1u);
  EXPECT_EQ(batch->requests[0].method, "HEAD");
  EXPECT_EQ(batch->requests[0].user_agent, "AhrefsBot/7.0");
  EXPECT_FALSE(batch->requests[0].referrer) << "'-' is an absent header";
  EXPECT_EQ(batch->requests[0].client_timestamp, ParseRfc3339Millis("2026-11-17T09:00:00Z"));
}


TEST(LogDrain, CloudFrontRecordsInAFirehoseEnvelope) {
  const std::string record =
      R"j({"timestamp":"1794999990.5","c-ip":"192.0.2.9","cs-method":"GET",)j"
      R"j("x-host-header":"d1.example","cs-uri-stem":"/img.png","cs-uri-query":"w=10",)j"
      R"j("cs-referer":"-","cs-user-agent":"Mozilla/5.0%20(compatible;%20bingbot/2.0)"})j";
  const std::string body = R"({"requestId":"ed4acda5-034f","timestamp":1795000000000,"records":[)"
                           R"({"data":")" + core::Base64Encode("x") + R"("},)"
                           R"({"data":")" + core::Base64Encode(record) + R"("}]})";
  auto batch = ParseDrain(DrainSource::kCloudFront, body, kNow);
  ASSERT_TRUE(batch) << batch.error().message();
  EXPECT_EQ(batch->firehose_request_id, "ed4acda5-034f");
  EXPECT_EQ(batch->received, 2);
  ASSERT_EQ(batch->requests.size(), 1u);
  EXPECT_EQ(batch->requests[0].user_agent, "Mozilla/5.0 (compatible; bingbot/2.0)");
  EXPECT_EQ(batch->requests[0].path, "/img.png?w=10");
  EXPECT_EQ(batch->requests[0].client_timestamp, 1794999990500);
}

// CloudFront writes real-time log records as tab-separated values in the configuration's field
// order, "-" for an empty value, one record per line.
TEST(LogDrain, CloudFrontTabSeparatedRecordsWithTheConfiguredFields) {
  auto fields = ParseCloudFrontFields("timestamp, c-ip,cs-method,cs-uri-stem,cs-user-agent,cs-referer");
  ASSERT_TRUE(fields);
  const std::string lines =
      "1794999990.5\t192.0.2.9\tGET\t/a\tMozilla/5.0%20(compatible;%20bingbot/2.0)\t-\n"
      "1794999991.0\t192.0.2.10\tGET\t/b\tGPTBot/1.1\thttps://x.test/\r\n"
      "1794999992.0\t192.0.2.11\tGET\t/c\n"  // too few values: counted, skipped
      "\n";
  const std::string body = R"({"requestId":"r-1","timestamp":1795000000000,"records":[)"
                           R"({"data":")" + core::Base64Encode(lines) + R"("}]})";
  auto batch = ParseDrain(DrainSource::kCloudFront, body, kNow, {.cloudfront_fields = *fields});
  ASSERT_TRUE(batch) << batch.error().message();
  EXPECT_EQ(batch->received, 3);
  ASSERT_EQ(batch->requests.size(), 2u);
  EXPECT_EQ(batch->requests[0].user_agent, "Mozilla/5.0 (compatible; bingbot/2.0)");
  EXPECT_EQ(batch->requests[0].path, "/a");
  EXPECT_FALSE(batch->requests[0].referrer);
  EXPECT_EQ(batch->requests[0].client_timestamp, 1794999990500);
  EXPECT_EQ(batch->requests[1].referrer, "https://x.test/");
  EXPECT_EQ(batch->requests[1].ip_address, "192.0.2.10");
}

TEST(LogDrain, CloudFrontFieldListsAreChecked) {
  for (std::string_view bad : {"", "c-ip,,cs-method", "c-ip,c-ip", "C-IP", "c ip", "c-ip;x"}) {
    auto parsed = ParseCloudFrontFields(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().details().at("field").as_string(), "fields");
  }
}

TEST(LogDrain, UnreadableBatchesAreRefused) {
  EXPECT_EQ(ParseDrain(DrainSource::kVercel, "hello", kNow).error().code(),
            core::ErrorCode::kValMalformedJson);
  EXPECT_EQ(ParseDrain(DrainSource::kNetlify, "[1,", kNow).error().code(),
            core::ErrorCode::kValMalformedJson);
  EXPECT_EQ(ParseDrain(DrainSource::kCloudFront, R"({"records":[]})", kNow).error().code(),
            core::ErrorCode::kValMalformedJson);
  auto empty = ParseDrain(DrainSource::kFastly, "  \n", kNow);
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->received, 0);
}

TEST(LogDrain, ImplausibleTimesFallBackToReceipt) {
  const std::string body =
      R"({"client_ip":"192.0.2.8","user_agent":"x-bot","timestamp":"2099-01-01T00:00:00Z"})";
  auto batch = ParseDrain(DrainSource::kFastly, body, kNow);
  ASSERT_TRUE(batch);
  ASSERT_EQ(batch->requests.size(), 1u);
  EXPECT_FALSE(batch->requests[0].client_timestamp);
}

// Epoch numbers too large for any unit fall back to receipt time too. 1e300 "nanoseconds" did
// not fit an int64 as milliseconds: undefined behaviour, which UBSan aborts on (the fuzz build;
// fuzz/corpus/log_drain/regression-epoch-1e300 replays it in every smoke run) and which x86
// happened to turn into a time the range check dropped.
TEST(LogDrain, EpochNumbersOutOfRangeFallBackToReceipt) {
  for (const char* timestamp : {"1e300", "9.3e18", "-1e300", "1e999"}) {
    SCOPED_TRACE(timestamp);
    const std::string body = std::string(R"({"client_ip":"192.0.2.8","user_agent":"x-bot",)") +
                             R"("timestamp":)" + timestamp + "}";
    auto batch = ParseDrain(DrainSource::kFastly, body, kNow);
    ASSERT_TRUE(batch);
    ASSERT_EQ(batch->requests.size(), 1u);
    EXPECT_FALSE(batch->requests[0].client_timestamp);
  }
}

TEST(Rfc3339, ParsesOffsetsAndFractionsAndRefusesNonsense) {
  EXPECT_EQ(ParseRfc3339Millis("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseRfc3339Millis("1970-01-01T01:00:00.5+01:00"), 500);
  EXPECT_EQ(ParseRfc3339Millis("2000-03-01T00:00:00Z"), 951868800000);
  EXPECT_FALSE(ParseRfc3339Millis("2026-02-30T00:00:00Z"));
  EXPECT_FALSE(ParseRfc3339Millis("2026-11-17T10:00:00"));
  EXPECT_FALSE(ParseRfc3339Millis("yesterday"));
  EXPECT_FALSE(ParseRfc3339Millis("2026-11-17T10:00:00Zjunk"));
  // Signs where digits belong (std::from_chars reads them): hour -1 shifted the time.
  EXPECT_FALSE(ParseRfc3339Millis("2026-11-17T-1:00:00Z"));
  EXPECT_FALSE(ParseRfc3339Millis("2026-11-17T10:-1:00Z"));
  EXPECT_FALSE(ParseRfc3339Millis("-001-11-17T10:00:00Z"));
  EXPECT_FALSE(ParseRfc3339Millis("2026-11-17T10:00:00+-1:00"));
}

TEST(Compression, GzipRoundTripsAndIsBounded) {
  const std::string text(100000, 'a');
  auto back = core::Gunzip(core::Gzip(text), 1 << 20);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, text);
  // Two concatenated members (as `cat a.gz b.gz` makes) inflate to both.
  auto both = core::Gunzip(core::Gzip("ab") + core::Gzip("cd"), 100);
  ASSERT_TRUE(both);
  EXPECT_EQ(*both, "abcd");
  EXPECT_EQ(core::Gunzip(core::Gzip(text), 1000).error().code(), core::ErrorCode::kValBodyTooLarge);
  EXPECT_EQ(core::Gunzip("not gzip", 1000).error().code(), core::ErrorCode::kValBadRequest);
  EXPECT_EQ(core::Gunzip(core::Gzip(text).substr(0, 20), 1 << 20).error().code(),
            core::ErrorCode::kValBadRequest)
      << "a truncated stream";
}

TEST(Base64, StandardAlphabetWithPadding) {
  EXPECT_EQ(core::Base64Decode("aGk="), "hi");
  EXPECT_EQ(core::Base64Decode("aGk"), "hi");
  EXPECT_EQ(core::Base64Decode("+/8="), std::string("\xfb\xff", 2));
  EXPECT_FALSE(core::Base64Decode("a-8="));
  EXPECT_FALSE(core::Base64Decode("aGk=="));
}

}  // namespace
}  // namespace sightline::ingest
