#include "core/json_util.h"

#include <gtest/gtest.h>

#include <bit>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace sightline::core {
namespace {

namespace json = boost::json;

std::string Written(double number) { return ToJson(json::value(number)); }

TEST(ToJson, WritesDoublesInTheShortestNotationThatReadsBack) {
  EXPECT_EQ(Written(1.5), "1.5");
  EXPECT_EQ(Written(0.4), "0.4");
  EXPECT_EQ(Written(2.0 / 3.0), "0.6666666666666666");
  EXPECT_EQ(Written(-0.1), "-0.1");
  EXPECT_EQ(Written(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(Written(1e-7), "1e-07");
  EXPECT_EQ(Written(1.5e300), "1.5e+300");
  EXPECT_EQ(Written(std::numeric_limits<double>::denorm_min()), "5e-324");
  EXPECT_EQ(Written(-std::numeric_limits<double>::max()), "-1.7976931348623157e+308");
}

TEST(ToJson, WritesDoublesWithoutAFractionAsIntegers) {
  EXPECT_EQ(Written(50.0), "50");
  EXPECT_EQ(Written(2.0), "2");
  EXPECT_EQ(Written(0.0), "0");
  EXPECT_EQ(Written(-0.0), "0") << "JSON readers differ on -0";
  EXPECT_EQ(Written(-3.0), "-3");
  EXPECT_EQ(Written(9007199254740991.0), "9007199254740991");
  EXPECT_EQ(Written(-9007199254740991.0), "-9007199254740991");
  // From 2^53 on, a double is not one integer but a range of them: its shortest form is written.
  EXPECT_EQ(Written(9007199254740992.0), "9007199254740992");
  EXPECT_EQ(Written(1e17), "1e+17");
}

TEST(ToJson, WritesWhatJsonCannotExpressAsNull) {
  EXPECT_EQ(Written(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(Written(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(Written(-std::numeric_limits<double>::infinity()), "null");
}

TEST(ToJson, WritesIntegersExactly) {
  EXPECT_EQ(ToJson(json::value(std::numeric_limits<std::int64_t>::min())), "-9223372036854775808");
  EXPECT_EQ(ToJson(json::value(std::numeric_limits<std::int64_t>::max())), "9223372036854775807");
  EXPECT_EQ(ToJson(json::value(std::numeric_limits<std::uint64_t>::max())), "18446744073709551615");
  EXPECT_EQ(ToJson(json::value(std::int64_t{0})), "0");
}

TEST(ToJson, WritesReportsCompactly) {
  const json::value report = {
      {"viewsPerVisit", {{"value", 1.5}, {"previous", nullptr}}},
      {"bounceRate", {{"value", 50.0}}},
      {"brands", json::array{{{"averagePosition", 2.0}, {"shareOfVoice", 0.4}, {"ok", true}}}},
      {"empty", json::object()},
      {"none", json::array()}};
  EXPECT_EQ(ToJson(report),
            R"({"viewsPerVisit":{"value":1.5,"previous":null},"bounceRate":{"value":50},)"
            R"("brands":[{"averagePosition":2,"shareOfVoice":0.4,"ok":true}],"empty":{},)"
            R"("none":[]})");
}

TEST(ToJson, EscapesStringsAndKeysAsBoostDoes) {
  std::string every_byte;
  for (int byte = 1; byte < 256; ++byte) every_byte += static_cast<char>(byte);
  every_byte += '\0';
  const json::value samples = {{"plain", "text"},
                               {"quote\"key\\", "tab\there\nnew \"q\" back\\slash"},
                               {std::string("\x01\x1f\x7f/"), "\b\f\r\x7f"},
                               {"utf8", "Zürich — 東京 😀"},
                               {"", ""}};
  EXPECT_EQ(ToJson(samples), json::serialize(samples));
  const json::value bytes = {{every_byte, every_byte}};  // not UTF-8: passed through as Boost does
  EXPECT_EQ(ToJson(bytes), json::serialize(bytes));
  EXPECT_EQ(ToJson(json::string("\x01")), R"("\u0001")");
  EXPECT_EQ(ToJson(json::string("a\"b")), R"("a\"b")");
  EXPECT_EQ(json::parse(ToJson(samples)), samples);
}

// Property: whatever double is written reads back as the same double, bit for bit, and the
// text never carries Boost's exponent form for a number people read.
TEST(ToJson, EveryFiniteDoubleReadsBackBitForBit) {
  std::mt19937_64 random(20261127);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  for (int i = 0; i < 200000; ++i) {
    // Any bit pattern, any magnitude, two decimals (a report's percentages), large integers.
    const double number =
        i % 4 == 0   ? std::bit_cast<double>(random())
        : i % 4 == 1 ? unit(random) * std::pow(10.0, exponent(random))
        : i % 4 == 2 ? std::round(unit(random) * 10000) / 100
                     : static_cast<double>(static_cast<std::int64_t>(random()) >> (i % 64));
    if (!std::isfinite(number)) continue;
    const std::string text = Written(number);
    ASSERT_TRUE(json::parse(text).is_number()) << text;
    // Read back with from_chars: Boost.JSON 1.81 reads doubles fast, not always to the last bit.
    double back = 0;
    ASSERT_EQ(std::from_chars(text.data(), text.data() + text.size(), back).ec, std::errc())
        << text;
    const double expected = number == 0.0 ? 0.0 : number;  // -0.0 is written as 0
    ASSERT_EQ(std::bit_cast<std::uint64_t>(back), std::bit_cast<std::uint64_t>(expected))
        << text << " from " << number;
    ASSERT_EQ(text.find('E'), std::string::npos) << text;
  }
}

TEST(ToJson, IntegersAtTheExtremesReadBackExactly) {
  for (const std::int64_t number : {std::numeric_limits<std::int64_t>::min(), std::int64_t{-1},
                                    std::int64_t{0}, std::numeric_limits<std::int64_t>::max()}) {
    EXPECT_EQ(json::parse(ToJson(json::value(number))).as_int64(), number);
  }
  for (const std::uint64_t number :
       {std::uint64_t{9223372036854775808u}, std::numeric_limits<std::uint64_t>::max()}) {
    EXPECT_EQ(json::parse(ToJson(json::value(number))).as_uint64(), number);
  }
}

}  // namespace
}  // namespace sightline::core
