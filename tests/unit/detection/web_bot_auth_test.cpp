// Web Bot Auth verification against published vectors: RFC 9421 Appendix B.2.6 (Ed25519) and
// draft-ietf-webbotauth-httpsig-protocol Appendix E.2 (dictionary and legacy Signature-Agent),
// all signed with RFC 9421's test-key-ed25519.
#include "detection/http_signature.h"
#include "detection/request_classifier.h"
#include "detection/signature_directory.h"
#include "detection/structured_fields.h"

#include "core/clock.h"
#include "core/crypto.h"

#include <gtest/gtest.h>

#include <deque>

namespace sightline::detection {
namespace {

constexpr char kTestKeyX[] = "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs";
constexpr char kTestKeyThumbprint[] = "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";
constexpr char kAgent[] = "https://signature-agent.test";

// Draft E.2.1: dictionary-form Signature-Agent, expires in 2124.
constexpr char kDictAgent[] = R"(sig2="https://signature-agent.test")";
constexpr char kDictInput[] =
    R"(sig2=("@authority" "signature-agent";key="sig2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth")";
constexpr char kDictSignature[] =
    "sig2=:CGokAoY/FrPpyuzTe1Fb2kLTAH9Idw6qSFd1+D77r1firsMRCxeuLu5e6O+ek3zQgDMAzjiXtLVfqE00xnABCQ==:";
constexpr char kDictBase[] =
    "\"@authority\": example.com\n"
    "\"signature-agent\";key=\"sig2\": \"https://signature-agent.test\"\n"
    R"("@signature-params": ("@authority" "signature-agent";key="sig2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth")";

// Draft E.2.2: legacy sf-string Signature-Agent, expired 2025-01-01T01:00Z.
constexpr char kLegacyAgent[] = R"("https://signature-agent.test")";
constexpr char kLegacyInput[] =
    R"(sig2=("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth")";
constexpr char kLegacySignature[] =
    "sig2=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:";

constexpr std::int64_t kNow = 1795000000000;  // 2026-11-18

SignedRequest Dict(std::string_view authority = "example.com") {
  return {.method = "GET", .authority = authority, .target = "/",
          .signature = kDictSignature, .signature_input = kDictInput, .signature_agent = kDictAgent};
}

std::string RawTestKey() { return *core::Base64UrlDecode(kTestKeyX); }

TEST(HttpSignature, Rfc9421B26Ed25519VectorVerifies) {
  const std::string base =
      "\"date\": Tue, 20 Apr 2021 02:07:55 GMT\n\"@method\": POST\n\"@path\": /foo\n"
      "\"@authority\": example.com\n\"content-type\": application/json\n"
      "\"content-length\": 18\n"
      R"("@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519")";
  const std::string signature = *core::Base64Decode(
      "wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==");
  EXPECT_TRUE(VerifyEd25519(RawTestKey(), base, signature));
  EXPECT_FALSE(VerifyEd25519(RawTestKey(), base + " ", signature));
  EXPECT_FALSE(VerifyEd25519("short", base, signature));
}

TEST(HttpSignature, Rfc9421B26BaseFromDerivedComponents) {
  // The same request covering only derived components: the base follows RFC 9421 §2.2.
  const SignedRequest request{
      .method = "post", .authority = "Example.COM", .target = "/foo?param=Value&Pet=dog",
      .signature_input = R"(s=("@method" "@path" "@query" "@authority");created=1618884473)"};
  auto base = SignatureBase(request, "s");
  ASSERT_TRUE(base);
  EXPECT_EQ(*base,
            "\"@method\": POST\n\"@path\": /foo\n\"@query\": ?param=Value&Pet=dog\n"
            "\"@authority\": example.com\n"
            R"("@signature-params": ("@method" "@path" "@query" "@authority");created=1618884473)");
}

TEST(HttpSignature, JwkThumbprintIsTheRfc7638Value) {
  EXPECT_EQ(Ed25519JwkThumbprint(kTestKeyX), kTestKeyThumbprint);
}

TEST(HttpSignature, DraftDictionaryVectorParsesToItsBaseAndVerifies) {
  const SignatureParse parsed = ParseWebBotAuth(Dict());
  ASSERT_EQ(parsed.status, SignatureParse::Status::kParsed) << parsed.problem;
  EXPECT_EQ(parsed.signature.base, kDictBase);
  EXPECT_EQ(parsed.signature.keyid, kTestKeyThumbprint);
  EXPECT_EQ(parsed.signature.agent, kAgent);
  EXPECT_EQ(parsed.signature.created, 1735689600);
  EXPECT_TRUE(VerifyEd25519(RawTestKey(), parsed.signature.base, parsed.signature.signature));
}

TEST(HttpSignature, LegacyStringAgentVectorVerifies) {
  const SignedRequest request{.method = "GET", .authority = "example.com", .target = "/",
                              .signature = kLegacySignature, .signature_input = kLegacyInput,
                              .signature_agent = kLegacyAgent};
  const SignatureParse parsed = ParseWebBotAuth(request);
  ASSERT_EQ(parsed.status, SignatureParse::Status::kParsed) << parsed.problem;
  EXPECT_EQ(parsed.signature.agent, kAgent);
  EXPECT_TRUE(VerifyEd25519(RawTestKey(), parsed.signature.base, parsed.signature.signature));
}

TEST(HttpSignature, RefusesWhatTheProfileForbids) {
  using Status = SignatureParse::Status;
  SignedRequest r = Dict();
  EXPECT_EQ(ParseWebBotAuth({.method = "GET", .authority = "a"}).status, Status::kNone);
  r.signature_input = "sig2=(";
  EXPECT_EQ(ParseWebBotAuth(r).status, Status::kMalformed);
  std::string untagged = kDictInput;
  untagged.replace(untagged.find("web-bot-auth"), 12, "other");
  r.signature_input = untagged;
  EXPECT_EQ(ParseWebBotAuth(r).status, Status::kMalformed) << "tag must be web-bot-auth";
  r.signature_input =
      R"(sig2=("signature-agent";key="sig2");created=1;expires=2;keyid="k";tag="web-bot-auth")";
  EXPECT_EQ(ParseWebBotAuth(r).status, Status::kMalformed) << "@authority must be covered";
  r.signature_input =
      R"(sig2=("@authority" "signature-agent";key="sig2" "accept-language");created=1;expires=2;keyid="k";tag="web-bot-auth")";
  EXPECT_EQ(ParseWebBotAuth(r).status, Status::kUnsupported) << "a header nobody forwarded";
  r.signature_input =
      R"(sig2=("@authority" "signature-agent";key="sig2");created=1;keyid="k";tag="web-bot-auth")";
  EXPECT_EQ(ParseWebBotAuth(r).status, Status::kMalformed) << "expires is required";
  r.signature_input =
      R"(sig2=("@authority" "signature-agent";key="sig2");created=1;expires=2;keyid="k";alg="rsa-pss-sha512";tag="web-bot-auth")";
  EXPECT_EQ(ParseWebBotAuth(r).status, Status::kMalformed) << "Ed25519 only";
}

TEST(StructuredFields, DictionaryRoundTripsCanonically) {
  const auto dictionary =
      sf::ParseDictionary(R"(a=("x" "y";key="b");n=1;s="q\"t", b=?0, c, d=:aGk=:, e=tok/1)");
  ASSERT_TRUE(dictionary);
  ASSERT_EQ(dictionary->size(), 5u);
  EXPECT_EQ(sf::Serialize(std::get<sf::InnerList>((*dictionary)[0].second)),
            R"(("x" "y";key="b");n=1;s="q\"t")");
  EXPECT_EQ(sf::Serialize(std::get<sf::Item>((*dictionary)[1].second)), "?0");
  EXPECT_EQ(sf::Serialize(std::get<sf::Item>((*dictionary)[2].second)), "?1");
  EXPECT_EQ(sf::Serialize(std::get<sf::Item>((*dictionary)[3].second)), ":aGk=:");
  EXPECT_EQ(sf::Serialize(std::get<sf::Item>((*dictionary)[4].second)), "tok/1");
  EXPECT_FALSE(sf::ParseDictionary("a=1,"));
  EXPECT_FALSE(sf::ParseDictionary("A=1"));
  EXPECT_FALSE(sf::ParseDictionary("a=\"unterminated"));
  EXPECT_FALSE(sf::ParseDictionary("a=(1 2"));
}

// Directory fetches answered by the test, in order.
class QueuedFetcher final : public core::UrlFetcher {
 public:
  void Fetch(const std::string& url,
             std::function<void(core::Result<std::string>)> done) override {
    urls.push_back(url);
    pending.push_back(std::move(done));
  }
  void Answer(core::Result<std::string> body) {
    auto done = std::move(pending.front());
    pending.pop_front();
    done(std::move(body));
  }
  std::vector<std::string> urls;
  std::deque<std::function<void(core::Result<std::string>)>> pending;
};

std::string Directory() {
  return R"({"keys":[{"kty":"OKP","crv":"Ed25519","x":")" + std::string(kTestKeyX) +
         R"("},{"kty":"RSA","n":"x","e":"AQAB"}]})";
}

TEST(SignatureDirectory, ParsesEd25519KeysByThumbprint) {
  auto keys = ParseSignatureDirectory(Directory());
  ASSERT_TRUE(keys);
  ASSERT_EQ(keys->size(), 1u) << "the RSA key is skipped";
  EXPECT_EQ(keys->begin()->first, kTestKeyThumbprint);
  EXPECT_FALSE(ParseSignatureDirectory("[]"));
  EXPECT_FALSE(ParseSignatureDirectory(R"({"keys":{}})"));
}

TEST(SignatureDirectory, FetchesInTheBackgroundAndKeepsKeysThroughFailures) {
  core::ManualClock clock(kNow);
  QueuedFetcher fetcher;
  SignatureDirectory directory(&fetcher, clock, {.ttl_millis = 1000, .retry_millis = 500});
  EXPECT_FALSE(directory.Keys(kAgent)) << "nothing cached: no answer, a fetch starts";
  EXPECT_FALSE(directory.Keys(kAgent));
  ASSERT_EQ(fetcher.urls.size(), 1u) << "one fetch at a time per origin";
  EXPECT_EQ(fetcher.urls[0],
            "https://signature-agent.test/.well-known/http-message-signatures-directory");
  fetcher.Answer(Directory());
  ASSERT_TRUE(directory.Keys(kAgent));
  EXPECT_EQ(fetcher.urls.size(), 1u) << "fresh: no refetch";

  clock.Advance(std::chrono::milliseconds(1001));
  ASSERT_TRUE(directory.Keys(kAgent)) << "stale keys still answer while refreshing";
  fetcher.Answer(core::Error(core::ErrorCode::kUnavailable, "down"));
  ASSERT_TRUE(directory.Keys(kAgent)) << "a failed fetch evicts nothing";
  EXPECT_EQ(fetcher.urls.size(), 2u) << "retries wait for the back-off";
  clock.Advance(std::chrono::milliseconds(501));
  directory.Keys(kAgent);
  EXPECT_EQ(fetcher.urls.size(), 3u);
  fetcher.Answer(Directory());
}

TEST(SignatureDirectory, RemembersABoundedNumberOfSigners) {
  core::ManualClock clock(kNow);
  QueuedFetcher fetcher;
  SignatureDirectory directory(&fetcher, clock, {.max_origins = 2});
  directory.Keys("https://a.test");
  directory.Keys("https://b.test");
  directory.Keys("https://c.test");
  EXPECT_EQ(fetcher.urls.size(), 2u) << "a third signer is not fetched";
  while (!fetcher.pending.empty()) fetcher.Answer(Directory());
}

TEST(SignatureDirectory, AFetchFinishingAfterTheDirectoryIsGoneIsHarmless) {
  core::ManualClock clock(kNow);
  QueuedFetcher fetcher;
  {
    SignatureDirectory directory(&fetcher, clock);
    directory.Keys(kAgent);
  }
  fetcher.Answer(Directory());
}

class WebBotAuthClassification : public ::testing::Test {
 protected:
  WebBotAuthClassification() : directory_(nullptr, clock_) {
    directory_.Add(kAgent, *ParseSignatureDirectory(Directory()));
  }
  BotAttribution Classify(const SignedRequest& request, std::int64_t observed = kNow,
                          std::string_view ua = "Mozilla/5.0 (X11; Linux x86_64) "
                                                "AppleWebKit/537.36 Chrome/126.0 Safari/537.36") {
    RequestEvidence evidence{.signed_request = request, .observed_millis = observed};
    return classifier_.Classify(ua, "203.0.113.7", evidence);
  }
  core::ManualClock clock_{kNow};
  SignatureDirectory directory_;
  RequestClassifier classifier_{BotCatalog::Builtin(), {.signatures = &directory_}};
};

TEST_F(WebBotAuthClassification, AValidSignatureVerifiesEvenBehindABrowserUserAgent) {
  const BotAttribution bot = Classify(Dict());
  EXPECT_EQ(bot.actor_type, "verified_bot");
  EXPECT_EQ(bot.verification_method, "web_bot_auth");
  EXPECT_TRUE(bot.verified);
  EXPECT_EQ(bot.bot_name, kAgent) << "a signer the catalog does not know is named by its origin";
}

TEST_F(WebBotAuthClassification, ForgedOrExpiredSignaturesAreSpoofs) {
  EXPECT_EQ(Classify(Dict("victim.example")).actor_type, "spoofed_bot")
      << "signed for another site";
  const SignedRequest legacy{.method = "GET", .authority = "example.com", .target = "/",
                             .signature = kLegacySignature, .signature_input = kLegacyInput,
                             .signature_agent = kLegacyAgent};
  EXPECT_EQ(Classify(legacy).actor_type, "spoofed_bot") << "expired in 2025";
  EXPECT_EQ(Classify(legacy, 1735690000000).actor_type, "verified_bot")
      << "observed inside its validity window";
}

TEST_F(WebBotAuthClassification, AnUnknownSignerIsOnlySuspected) {
  SignedRequest request = Dict();
  const std::string other = R"(sig2="https://unknown-agent.test")";
  request.signature_agent = other;
  const BotAttribution bot = Classify(request);
  EXPECT_EQ(bot.actor_type, "suspected_bot") << "its directory is not known here";
  EXPECT_FALSE(bot.verified);
}

TEST_F(WebBotAuthClassification, TheInstallationsOwnSignerIsServiceAuditBot) {
  const RequestClassifier own(BotCatalog::Builtin(),
                              {.signatures = &directory_, .own_signer = kAgent});
  RequestEvidence evidence{.signed_request = Dict(), .observed_millis = kNow};
  const BotAttribution bot = own.Classify("Mozilla/5.0 (compatible; ServiceAuditBot/1.0)",
                                          "203.0.113.7", evidence);
  EXPECT_EQ(bot.bot_name, "ServiceAuditBot");
  EXPECT_EQ(bot.actor_type, "verified_bot");
  EXPECT_TRUE(bot.own_crawler);
  // Its User-Agent alone, unsigned, is a claim like any other.
  const BotAttribution claim = own.Classify("Mozilla/5.0 (compatible; ServiceAuditBot/1.0)",
                                            "203.0.113.7", RequestEvidence{});
  EXPECT_EQ(claim.bot_name, "ServiceAuditBot");
  EXPECT_FALSE(claim.own_crawler);
  EXPECT_FALSE(Classify(Dict()).own_crawler) << "another installation's classifier";
}

TEST_F(WebBotAuthClassification, UnsignedRequestsAreUntouched) {
  EXPECT_EQ(Classify({}).actor_type, "human");
}

}  // namespace
}  // namespace sightline::detection
