#include "detection/reverse_dns.h"
#include "detection/request_classifier.h"

#include "core/clock.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>

namespace sightline::detection {
namespace {

constexpr std::int64_t kNow = 1795000000000;

// A zone held by the test: PTR and address records, answered at once; `failing` makes every
// answer a resolver failure (timeouts, SERVFAIL).
class ZoneResolver final : public DnsResolver {
 public:
  void Reverse(const std::string& ip, std::function<void(DnsAnswer)> done) override {
    ++queries;
    if (failing) return done({});
    const auto it = ptr.find(ip);
    if (it == ptr.end()) return done({DnsAnswer::Status::kNotFound, {}});
    done({DnsAnswer::Status::kOk, it->second});
  }
  void Forward(const std::string& host, std::function<void(DnsAnswer)> done) override {
    ++queries;
    if (failing) return done({});
    const auto it = addresses.find(host);
    if (it == addresses.end()) return done({DnsAnswer::Status::kNotFound, {}});
    done({DnsAnswer::Status::kOk, it->second});
  }
  std::map<std::string, std::vector<std::string>> ptr, addresses;
  bool failing = false;
  int queries = 0;
};

class ReverseDns : public ::testing::Test {
 protected:
  ReverseDns() {
    zone_.ptr["66.249.66.1"] = {"crawl-66-249-66-1.GoogleBot.com."};
    zone_.addresses["crawl-66-249-66-1.googlebot.com"] = {"66.249.66.1"};
    zone_.ptr["203.0.113.50"] = {"crawl-fake.googlebot.com"};  // forward says otherwise
    zone_.addresses["crawl-fake.googlebot.com"] = {"203.0.113.99"};
    zone_.ptr["2001:db8::5"] = {"bot.example.net"};
    zone_.addresses["bot.example.net"] = {"2001:db8:0:0::5"};
  }
  ZoneResolver zone_;
  core::ManualClock clock_{kNow};
  ReverseDnsVerifier verifier_{&zone_, clock_};
};

TEST_F(ReverseDns, ConfirmsOnlyNamesWhoseForwardLookupReturnsTheIp) {
  EXPECT_FALSE(verifier_.ConfirmedNames("66.249.66.1")) << "the first sight starts resolution";
  EXPECT_EQ(verifier_.ConfirmedNames("66.249.66.1"),
            std::vector<std::string>{"crawl-66-249-66-1.googlebot.com"});
  verifier_.ConfirmedNames("203.0.113.50");
  EXPECT_EQ(verifier_.ConfirmedNames("203.0.113.50"), std::vector<std::string>{});
  verifier_.ConfirmedNames("198.51.100.1");
  EXPECT_EQ(verifier_.ConfirmedNames("198.51.100.1"), std::vector<std::string>{}) << "no PTR";
  verifier_.ConfirmedNames("2001:db8::5");
  EXPECT_EQ(verifier_.ConfirmedNames("2001:DB8::5"), std::vector<std::string>{"bot.example.net"});
}

TEST_F(ReverseDns, CachesAndRetriesFailuresLater) {
  verifier_.ConfirmedNames("66.249.66.1");
  const int after_first = zone_.queries;
  verifier_.ConfirmedNames("66.249.66.1");
  EXPECT_EQ(zone_.queries, after_first) << "cached";
  zone_.failing = true;
  verifier_.ConfirmedNames("192.0.2.77");
  EXPECT_FALSE(verifier_.ConfirmedNames("192.0.2.77")) << "a failure is no verdict";
  const int after_failure = zone_.queries;
  verifier_.ConfirmedNames("192.0.2.77");
  EXPECT_EQ(zone_.queries, after_failure) << "not retried before the back-off";
  clock_.Advance(std::chrono::minutes(2));
  verifier_.ConfirmedNames("192.0.2.77");
  EXPECT_GT(zone_.queries, after_failure);
  clock_.Advance(std::chrono::hours(2));
  EXPECT_TRUE(verifier_.ConfirmedNames("66.249.66.1")) << "stale names answer while refreshing";
}

// A resolver that does not look TXT records up (this fake) still answers, once: a failure.
TEST(DnsResolver, TextAnswersFailedUnlessTheResolverLooksItUp) {
  ZoneResolver zone;
  std::optional<DnsAnswer> answer;
  zone.Text("example.com", [&answer](DnsAnswer got) { answer = std::move(got); });
  ASSERT_TRUE(answer.has_value());
  EXPECT_EQ(answer->status, DnsAnswer::Status::kFailed);
  EXPECT_TRUE(answer->values.empty());
}

TEST(HostSuffix, MatchesWholeLabelsOnly) {
  EXPECT_TRUE(HostMatchesSuffix("crawl-1.googlebot.com", ".googlebot.com"));
  EXPECT_TRUE(HostMatchesSuffix("googlebot.com", ".googlebot.com"));
  EXPECT_FALSE(HostMatchesSuffix("evilgooglebot.com", ".googlebot.com"));
  EXPECT_FALSE(HostMatchesSuffix("googlebot.com.evil.net", ".googlebot.com"));
}

TEST_F(ReverseDns, TheClassifierVerifiesAndRefutesByHostname) {
  const RequestClassifier classifier(BotCatalog::Builtin(), {.reverse_dns = &verifier_});
  const char* googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
  classifier.Classify(googlebot, "66.249.66.1");
  const BotAttribution real = classifier.Classify(googlebot, "66.249.66.1");
  EXPECT_EQ(real.actor_type, "verified_bot");
  EXPECT_EQ(real.verification_method, "reverse_dns");
  classifier.Classify(googlebot, "203.0.113.50");
  EXPECT_EQ(classifier.Classify(googlebot, "203.0.113.50").actor_type, "spoofed_bot");
  EXPECT_EQ(classifier.Classify("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0", "66.249.66.1")
                .actor_type,
            "human")
      << "people are never looked up";
}

}  // namespace
}  // namespace sightline::detection
