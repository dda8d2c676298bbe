// End-to-end: the c-ares resolver's TXT lookups (site-ownership proofs) against a real DNS server
// (dnsmasq) on loopback.
#include "net/dns_resolver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "loopback_services.h"

namespace sightline::e2e {
namespace {

using namespace std::chrono_literals;
using detection::DnsAnswer;

// The one answer of `resolver` to a TXT lookup of `name` (a second answer would throw
// std::future_error, failing the test); kFailed with a test failure if none comes in 10 s.
DnsAnswer TextOf(net::AresResolver& resolver, const std::string& name) {
  auto promise = std::make_shared<std::promise<DnsAnswer>>();
  auto answer = promise->get_future();
  resolver.Text(name, [promise](DnsAnswer got) { promise->set_value(std::move(got)); });
  if (answer.wait_for(10s) != std::future_status::ready) {
    ADD_FAILURE() << "no answer for " << name;
    return {};
  }
  return answer.get();
}

std::unique_ptr<net::AresResolver> ResolverFor(const std::string& server) {
  auto resolver = net::AresResolver::Create(server);
  if (!resolver) throw std::runtime_error(resolver.error().message());
  return std::move(*resolver);
}

// `length` bytes that show where each came from, so a join out of order cannot pass.
std::string Numbered(std::size_t length) {
  std::string text;
  for (std::size_t i = 0; text.size() < length; ++i) text += std::to_string(i) + ";";
  text.resize(length);
  return text;
}

TEST(DnsResolver, TextGivesEachTxtRecordAsOneValue) {
  const std::string long_value = Numbered(300);   // dnsmasq splits it into strings of 255 at most
  const std::string huge_value = Numbered(1500);  // too long for a UDP answer: asked over TCP
  const Dnsmasq dns(
      {"--local=/sightline.test/",  // NXDOMAIN, not REFUSED, for names it lacks
       "--txt-record=proof.sightline.test,sightline-site-verification=c2l0ZQ",
       "--txt-record=split.sightline.test,v=spf1 ip4:192.0.2.0/24, -all",
       "--txt-record=bytes.sightline.test,caf\xc3\xa9", "--txt-record=two.sightline.test,first",
       "--txt-record=two.sightline.test,second", "--txt-record=long.sightline.test," + long_value,
       "--txt-record=huge.sightline.test," + huge_value});
  const auto resolver = ResolverFor(dns.address());

  const DnsAnswer proof = TextOf(*resolver, "proof.sightline.test");
  ASSERT_EQ(proof.status, DnsAnswer::Status::kOk);
  EXPECT_EQ(proof.values, std::vector<std::string>{"sightline-site-verification=c2l0ZQ"});

  const DnsAnswer split = TextOf(*resolver, "split.sightline.test");
  ASSERT_EQ(split.status, DnsAnswer::Status::kOk);
  EXPECT_EQ(split.values, std::vector<std::string>{"v=spf1 ip4:192.0.2.0/24 -all"})
      << "one record's strings joined with nothing between them (RFC 7208 section 3.3)";

  const DnsAnswer bytes = TextOf(*resolver, "bytes.sightline.test");
  ASSERT_EQ(bytes.status, DnsAnswer::Status::kOk);
  EXPECT_EQ(bytes.values, std::vector<std::string>{"caf\xc3\xa9"}) << "bytes as they came";

  DnsAnswer two = TextOf(*resolver, "two.sightline.test");
  ASSERT_EQ(two.status, DnsAnswer::Status::kOk);
  std::sort(two.values.begin(), two.values.end());  // DNS gives records in no set order
  EXPECT_EQ(two.values, (std::vector<std::string>{"first", "second"})) << "one value per record";

  const DnsAnswer long_answer = TextOf(*resolver, "long.sightline.test");
  ASSERT_EQ(long_answer.status, DnsAnswer::Status::kOk);
  EXPECT_EQ(long_answer.values, std::vector<std::string>{long_value});

  const DnsAnswer huge = TextOf(*resolver, "huge.sightline.test");
  ASSERT_EQ(huge.status, DnsAnswer::Status::kOk);
  EXPECT_EQ(huge.values, std::vector<std::string>{huge_value});
}

TEST(DnsResolver, TextTellsNoSuchRecordFromNoAnswer) {
  const Dnsmasq dns({"--local=/sightline.test/", "--host-record=www.sightline.test,127.0.0.1"});
  const auto resolver = ResolverFor(dns.address());
  EXPECT_EQ(TextOf(*resolver, "missing.sightline.test").status, DnsAnswer::Status::kNotFound)
      << "NXDOMAIN";
  EXPECT_EQ(TextOf(*resolver, "www.sightline.test").status, DnsAnswer::Status::kNotFound)
      << "the name exists without TXT records (NODATA)";
  EXPECT_EQ(TextOf(*resolver, "elsewhere.example").status, DnsAnswer::Status::kFailed)
      << "REFUSED says nothing about the name";

  const auto unreachable = ResolverFor("127.0.0.1:" + std::to_string(FreeDnsPort()));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(TextOf(*unreachable, "proof.sightline.test").status, DnsAnswer::Status::kFailed);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s) << "bounded: 2 tries of 1 s";
}

}  // namespace
}  // namespace sightline::e2e
