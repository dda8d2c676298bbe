#include "detection/ip_ranges.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

namespace sightline::detection {
namespace {

core::IpAddress Ip(std::string_view text) {
  auto address = core::IpAddress::Parse(text);
  EXPECT_TRUE(address.has_value()) << text;
  return address.value_or(core::IpAddress());
}

IpRangeSet Set(std::initializer_list<std::string_view> prefixes) {
  IpRangeSet set;
  for (std::string_view prefix : prefixes) {
    auto range = core::CidrRange::Parse(prefix);
    EXPECT_TRUE(range.has_value()) << prefix;
    if (range) set.Add(*range);
  }
  set.Finalize();
  return set;
}

IpRangeSet Parsed(std::string_view json) {
  auto set = ParseGoogleFormatRanges(json);
  EXPECT_TRUE(set) << (set ? "" : set.error().message());
  return set ? std::move(*set) : IpRangeSet();
}

void ExpectInvalid(std::string_view json, std::string_view message_part) {
  auto set = ParseGoogleFormatRanges(json);
  ASSERT_FALSE(set) << json;
  EXPECT_EQ(set.error().code(), core::ErrorCode::kValInvalidParameter) << json;
  EXPECT_EQ(set.error().http_status(), 400);
  EXPECT_NE(set.error().message().find(message_part), std::string::npos)
      << set.error().message();
}

constexpr std::string_view kGoogleLike = R"({
  "syncToken": "1712345678901",
  "creationTime": "2024-04-05T10:00:00.000000",
  "notes": "hand-made",
  "prefixes": [
    {"ipv4Prefix": "66.249.64.0/24"},
    {"ipv6Prefix": "2001:4860:4801:10::/64"},
    {"ipv4Prefix": "192.0.2.7/32", "service": "x", "scope": "y"}
  ]
})";

TEST(IpRangeSet, ParsesGoogleFormatWithBothFamilies) {
  const IpRangeSet set = Parsed(kGoogleLike);
  EXPECT_EQ(set.size(), 3u);
  EXPECT_TRUE(set.Contains(Ip("66.249.64.10")));
  EXPECT_TRUE(set.Contains(Ip("2001:4860:4801:10::1")));
  EXPECT_TRUE(set.Contains(Ip("192.0.2.7")));
  EXPECT_FALSE(set.Contains(Ip("192.0.2.8")));
  EXPECT_FALSE(set.Contains(Ip("2001:4860:4801:11::1")));
}

TEST(IpRangeSet, BoundariesOfASlash24) {
  const IpRangeSet set = Parsed(R"({"prefixes":[{"ipv4Prefix":"66.249.64.0/24"}]})");
  EXPECT_TRUE(set.Contains(Ip("66.249.64.0")));
  EXPECT_TRUE(set.Contains(Ip("66.249.64.255")));
  EXPECT_FALSE(set.Contains(Ip("66.249.63.255")));
  EXPECT_FALSE(set.Contains(Ip("66.249.65.0")));
}

TEST(IpRangeSet, HostBitsInTheNetworkAreIgnored) {
  const IpRangeSet set = Set({"10.1.2.3/16"});
  EXPECT_TRUE(set.Contains(Ip("10.1.0.0")));
  EXPECT_TRUE(set.Contains(Ip("10.1.255.255")));
  EXPECT_FALSE(set.Contains(Ip("10.2.0.0")));
}

TEST(IpRangeSet, BoundariesOfAnIpv6Slash64) {
  const IpRangeSet set = Parsed(R"({"prefixes":[{"ipv6Prefix":"2001:db8:0:5::/64"}]})");
  EXPECT_TRUE(set.Contains(Ip("2001:db8:0:5::")));
  EXPECT_TRUE(set.Contains(Ip("2001:db8:0:5:ffff:ffff:ffff:ffff")));
  EXPECT_FALSE(set.Contains(Ip("2001:db8:0:4:ffff:ffff:ffff:ffff")));
  EXPECT_FALSE(set.Contains(Ip("2001:db8:0:6::")));
}

TEST(IpRangeSet, SingleAddressPrefixes) {
  const IpRangeSet set = Set({"198.51.100.9/32", "2001:db8::9/128"});
  EXPECT_EQ(set.size(), 2u);
  EXPECT_TRUE(set.Contains(Ip("198.51.100.9")));
  EXPECT_FALSE(set.Contains(Ip("198.51.100.8")));
  EXPECT_FALSE(set.Contains(Ip("198.51.100.10")));
  EXPECT_TRUE(set.Contains(Ip("2001:db8::9")));
  EXPECT_FALSE(set.Contains(Ip("2001:db8::8")));
  EXPECT_FALSE(set.Contains(Ip("2001:db8::a")));
}

TEST(IpRangeSet, Ipv4SlashZeroIsEveryIpv4AddressOnly) {
  const IpRangeSet set = Set({"0.0.0.0/0"});
  EXPECT_TRUE(set.Contains(Ip("0.0.0.0")));
  EXPECT_TRUE(set.Contains(Ip("255.255.255.255")));
  EXPECT_TRUE(set.Contains(Ip("8.8.8.8")));
  EXPECT_FALSE(set.Contains(Ip("::1")));
  EXPECT_FALSE(set.Contains(Ip("2001:db8::1")));
}

TEST(IpRangeSet, Ipv6SlashZeroIsEverything) {
  const IpRangeSet set = Set({"::/0"});
  EXPECT_EQ(set.size(), 1u);
  EXPECT_TRUE(set.Contains(Ip("::")));
  EXPECT_TRUE(set.Contains(Ip("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")));
  EXPECT_TRUE(set.Contains(Ip("8.8.8.8")));
}

TEST(IpRangeSet, OverlappingAndContainedRangesMerge) {
  const IpRangeSet set = Set({"10.0.0.0/16", "10.0.128.0/17", "10.0.255.0/24", "10.0.200.0/22"});
  EXPECT_EQ(set.size(), 1u);
  EXPECT_TRUE(set.Contains(Ip("10.0.0.0")));
  EXPECT_TRUE(set.Contains(Ip("10.0.255.255")));
  EXPECT_FALSE(set.Contains(Ip("10.1.0.0")));
}

TEST(IpRangeSet, AdjacentRangesMergeGapsDoNot) {
  const IpRangeSet adjacent = Set({"192.0.2.128/25", "192.0.2.0/25", "192.0.3.0/24"});
  EXPECT_EQ(adjacent.size(), 1u);
  EXPECT_TRUE(adjacent.Contains(Ip("192.0.2.127")));
  EXPECT_TRUE(adjacent.Contains(Ip("192.0.2.128")));
  EXPECT_TRUE(adjacent.Contains(Ip("192.0.3.255")));
  EXPECT_FALSE(adjacent.Contains(Ip("192.0.4.0")));

  const IpRangeSet gap = Set({"192.0.2.0/25", "192.0.2.130/31"});
  EXPECT_EQ(gap.size(), 2u);
  EXPECT_FALSE(gap.Contains(Ip("192.0.2.128")));
  EXPECT_FALSE(gap.Contains(Ip("192.0.2.129")));
  EXPECT_TRUE(gap.Contains(Ip("192.0.2.130")));
}

TEST(IpRangeSet, AdjacencyAcrossByteCarriesAndTheTopOfTheSpace) {
  EXPECT_EQ(Set({"2001:db8::/64", "2001:db8:0:1::/64"}).size(), 1u);
  EXPECT_EQ(Set({"::/1", "8000::/1"}).size(), 1u);
  const IpRangeSet top = Set({"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00/120", "ffff::/16"});
  EXPECT_EQ(top.size(), 1u);
  EXPECT_TRUE(top.Contains(Ip("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")));
}

TEST(IpRangeSet, FamiliesDoNotMixUnlessTheMappedRangeIsListed) {
  // Real IPv6 lists never cover ::ffff:0:0/96; one that does (::/0, ::/1) matches IPv4 too.
  const IpRangeSet v6_only = Set({"2000::/3", "fe80::/10", "::1/128"});
  EXPECT_FALSE(v6_only.Contains(Ip("192.0.2.1")));
  EXPECT_FALSE(v6_only.Contains(Ip("0.0.0.0")));
  EXPECT_FALSE(Set({"2001:db8::/32"}).Contains(Ip("32.1.13.184")));  // 0x20010db8

  const IpRangeSet v4_only = Set({"32.1.13.184/32", "0.0.0.0/1"});
  EXPECT_FALSE(v4_only.Contains(Ip("2001:db8::")));
  EXPECT_FALSE(v4_only.Contains(Ip("::1")));

  const IpRangeSet mapped = Parsed(R"({"prefixes":[{"ipv6Prefix":"::ffff:0:0/96"}]})");
  EXPECT_TRUE(mapped.Contains(Ip("192.0.2.1")));
  EXPECT_TRUE(mapped.Contains(Ip("0.0.0.0")));
  EXPECT_TRUE(mapped.Contains(Ip("255.255.255.255")));
  EXPECT_FALSE(mapped.Contains(Ip("::1")));
  EXPECT_FALSE(mapped.Contains(Ip("2001:db8::1")));
}

TEST(IpRangeSet, AddAfterFinalizeNeedsAnotherFinalize) {
  IpRangeSet set = Set({"10.0.0.0/24"});
  set.Add(*core::CidrRange::Parse("10.0.1.0/24"));
  set.Finalize();
  EXPECT_EQ(set.size(), 1u);
  EXPECT_TRUE(set.Contains(Ip("10.0.1.255")));
  EXPECT_EQ(IpRangeSet().size(), 0u);
  EXPECT_FALSE(IpRangeSet().Contains(Ip("10.0.0.1")));
}

// Reference model: the merged set answers as a linear scan over the original ranges does.
TEST(IpRangeSet, AgreesWithALinearScanOnRandomRanges) {
  std::mt19937 rng(20240405);
  std::vector<core::CidrRange> ranges;
  IpRangeSet set;
  for (int i = 0; i < 200; ++i) {
    const std::string text = "10." + std::to_string(rng() % 4) + "." + std::to_string(rng() % 256) +
                             ".0/" + std::to_string(18 + rng() % 7);
    ranges.push_back(*core::CidrRange::Parse(text));
    set.Add(ranges.back());
  }
  set.Finalize();
  for (int i = 0; i < 5000; ++i) {
    const auto address = Ip("10." + std::to_string(rng() % 5) + "." + std::to_string(rng() % 256) +
                            "." + std::to_string(rng() % 256));
    bool expected = false;
    for (const auto& range : ranges) expected = expected || range.Contains(address);
    ASSERT_EQ(set.Contains(address), expected) << address.ToString();
  }
}

TEST(ParseGoogleFormatRanges, RejectsWhatIsNotAList) {
  ExpectInvalid("", "malformed JSON");
  ExpectInvalid("{\"prefixes\": [", "malformed JSON");
  ExpectInvalid("[]", "not a JSON object");
  ExpectInvalid("\"prefixes\"", "not a JSON object");
  ExpectInvalid("{}", "\"prefixes\" array");
  ExpectInvalid(R"({"prefixes": {"ipv4Prefix": "10.0.0.0/8"}})", "\"prefixes\" array");
  ExpectInvalid(R"({"prefixes": [], "syncToken": "1"})", "empty");
}

TEST(ParseGoogleFormatRanges, NamesTheMalformedPrefix) {
  ExpectInvalid(R"({"prefixes":[{"ipv4Prefix":"10.0.0.0/8"},{"ipv4Prefix":"10.0.0.0/33"}]})",
                "prefixes[1].ipv4Prefix");
  ExpectInvalid(R"({"prefixes":[{"ipv4Prefix":"10.0.0/8"}]})", "\"10.0.0/8\"");
  ExpectInvalid(R"({"prefixes":[{"ipv4Prefix":"10.0.0.0/"}]})", "prefixes[0].ipv4Prefix");
  ExpectInvalid(R"({"prefixes":[{"ipv6Prefix":"2001:db8::/129"}]})", "prefixes[0].ipv6Prefix");
  ExpectInvalid(R"({"prefixes":[{"ipv6Prefix":"2001:zz8::/32"}]})", "prefixes[0].ipv6Prefix");
  ExpectInvalid(R"({"prefixes":[{"ipv4Prefix":"2001:db8::/32"}]})", "not an IPv4 prefix");
  ExpectInvalid(R"({"prefixes":[{"ipv6Prefix":"10.0.0.0/8"}]})", "not an IPv6 prefix");
  ExpectInvalid(R"({"prefixes":[{"ipv4Prefix":167772160}]})", "not a string");
  ExpectInvalid(R"({"prefixes":["10.0.0.0/8"]})", "prefixes[0] is not an object");
  ExpectInvalid(R"({"prefixes":[{"service":"x"}]})", "exactly one of");
  ExpectInvalid(R"({"prefixes":[{"ipv4Prefix":"10.0.0.0/8","ipv6Prefix":"::/0"}]})",
                "exactly one of");
}

TEST(ParseGoogleFormatRanges, ErrorDetailsNameTheField) {
  auto set = ParseGoogleFormatRanges(R"({"prefixes":[{"ipv6Prefix":"nope"}]})");
  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().details().at("field").as_string(), "prefixes[0].ipv6Prefix");
}

class VendorRangesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           (std::string("sl_vendor_ranges_") + info->name() + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void Write(const std::string& name, std::string_view text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  std::filesystem::path dir_;
};

TEST_F(VendorRangesTest, LoadsPresentFilesAndSkipsMissingOnes) {
  Write("googlebot.json", kGoogleLike);
  Write("unlisted.json", "not even JSON");  // not asked for, so never read
  auto ranges = VendorRanges::LoadDirectory(dir_.string(), {"googlebot", "gptbot"});
  ASSERT_TRUE(ranges) << ranges.error().message();
  EXPECT_EQ(ranges->loaded(), 1u);
  EXPECT_EQ(ranges->Contains("googlebot", Ip("66.249.64.1")), std::optional<bool>(true));
  EXPECT_EQ(ranges->Contains("googlebot", Ip("66.249.65.1")), std::optional<bool>(false));
  EXPECT_EQ(ranges->Contains("gptbot", Ip("66.249.64.1")), std::nullopt);
  EXPECT_EQ(ranges->Contains("unlisted", Ip("66.249.64.1")), std::nullopt);
}

TEST_F(VendorRangesTest, ABrokenFileIsAnErrorNamingIt) {
  Write("googlebot.json", kGoogleLike);
  Write("bingbot.json", R"({"prefixes":[{"ipv4Prefix":"157.55.39.0/33"}]})");
  auto ranges = VendorRanges::LoadDirectory(dir_.string(), {"googlebot", "gptbot", "bingbot"});
  ASSERT_FALSE(ranges);
  EXPECT_EQ(ranges.error().code(), core::ErrorCode::kValInvalidParameter);
  EXPECT_NE(ranges.error().message().find("bingbot.json"), std::string::npos)
      << ranges.error().message();
  EXPECT_NE(ranges.error().message().find("prefixes[0].ipv4Prefix"), std::string::npos);
}

TEST_F(VendorRangesTest, AFileOverSixteenMebibytesIsAnError) {
  std::ofstream(dir_ / "huge.json", std::ios::binary) << std::string((16u << 20) + 1, ' ');
  auto ranges = VendorRanges::LoadDirectory(dir_.string(), {"huge"});
  ASSERT_FALSE(ranges);
  EXPECT_NE(ranges.error().message().find("16 MiB"), std::string::npos);
}

TEST_F(VendorRangesTest, RejectsPathLikeListIdsAndDirectories) {
  std::filesystem::create_directories(dir_ / "dir.json");
  EXPECT_FALSE(VendorRanges::LoadDirectory(dir_.string(), {"dir"}));
  EXPECT_FALSE(VendorRanges::LoadDirectory(dir_.string(), {"../etc"}));
  EXPECT_FALSE(VendorRanges::LoadDirectory(dir_.string(), {""}));
}

TEST(VendorRanges, PutReplacesAndFinalizes) {
  VendorRanges ranges;
  IpRangeSet unfinalized;
  unfinalized.Add(*core::CidrRange::Parse("203.0.113.0/24"));
  ranges.Put("applebot", std::move(unfinalized));
  EXPECT_EQ(ranges.Contains("applebot", Ip("203.0.113.9")), std::optional<bool>(true));
  ranges.Put("applebot", Set({"2001:db8::/32"}));
  EXPECT_EQ(ranges.loaded(), 1u);
  EXPECT_EQ(ranges.Contains("applebot", Ip("203.0.113.9")), std::optional<bool>(false));
  EXPECT_EQ(ranges.Contains("applebot", Ip("2001:db8::9")), std::optional<bool>(true));
}

TEST(IpAddress, OnlyGlobalAddressesAreFetchable) {
  for (const char* global : {"8.8.8.8", "1.1.1.1", "2606:4700::1111", "66.249.66.1"}) {
    EXPECT_TRUE(Ip(global).IsGlobal()) << global;
  }
  for (const char* special :
       {"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
        "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1",
        "fd12:3456::1", "2001:db8::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1"}) {
    EXPECT_FALSE(Ip(special).IsGlobal()) << special;
  }
}

}  // namespace
}  // namespace sightline::detection
