// ServiceAuditBot's Web Bot Auth signer, checked the way a site's Sightline checks it: signed
// headers go through detection's parser, the published directory through its directory parser,
// and the pair through the real RequestClassifier with the directory pinned. Keys and vectors
// are RFC 9421's test-key-ed25519 (Appendix B.1.4) and its B.2.6 example.
#include "site_audit/request_signer.h"

#include "core/clock.h"
#include "core/crypto.h"
#include "detection/bot_catalog.h"
#include "detection/http_signature.h"
#include "detection/request_classifier.h"
#include "detection/signature_directory.h"
#include "detection/structured_fields.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <thread>

namespace sightline::site_audit {
namespace {

using detection::BotAttribution;
using detection::SignatureParse;
using detection::SignedRequest;

// RFC 9421 B.1.4 test-key-ed25519: the JWK's private `d` (the seed) and public `x`.
constexpr char kTestKeyD[] = "n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU";
constexpr char kTestKeyX[] = "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs";
constexpr char kTestKeyThumbprint[] = "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";

constexpr char kAgent[] = "https://sightline.example.com";
constexpr char kCrawlerUa[] =
    "Mozilla/5.0 (compatible; ServiceAuditBot/1.0; +https://sightline.example.com/bot)";
constexpr std::int64_t kNow = 1795000000;  // seconds, 2026-11-18

CrawlerKeyPair TestKey() { return *CrawlerKeyPairFromSeed(*core::Base64UrlDecode(kTestKeyD)); }

SignedRequest Forwarded(const SignatureHeaders& headers, std::string_view authority,
                        std::string_view target = "/", std::string_view method = "GET") {
  return {.method = method,
          .authority = authority,
          .target = target,
          .signature = headers.signature,
          .signature_input = headers.signature_input,
          .signature_agent = headers.signature_agent};
}

// What a verifier does with a signed request and the agent's directory document: parse, look the
// keyid up in the directory, verify the bytes over the rebuilt base.
bool VerifiesAgainst(const SignedRequest& request, const std::string& directory) {
  const SignatureParse parsed = detection::ParseWebBotAuth(request);
  if (parsed.status != SignatureParse::Status::kParsed) return false;
  const auto keys = detection::ParseSignatureDirectory(directory);
  if (!keys) return false;
  const auto key = keys->find(parsed.signature.keyid);
  return key != keys->end() &&
         key->second.Verify(parsed.signature.base, parsed.signature.signature);
}

std::string NonceOf(const SignatureHeaders& headers) {
  const auto input = detection::sf::ParseDictionary(headers.signature_input);
  const auto& list = std::get<detection::sf::InnerList>(input->at(0).second);
  return std::get<std::string>(*list.Parameter("nonce"));
}

TEST(CrawlerKeys, TheRfc9421TestSeedGivesItsPublishedKeyAndThumbprint) {
  const CrawlerKeyPair key = TestKey();
  EXPECT_EQ(core::Base64UrlEncode(key.public_key), kTestKeyX);
  EXPECT_EQ(key.key_id, kTestKeyThumbprint);
  EXPECT_EQ(PublicJwk(key.public_key),
            R"({"kty":"OKP","crv":"Ed25519","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"})");
  EXPECT_FALSE(CrawlerKeyPairFromSeed("short"));
  EXPECT_FALSE(CrawlerKeyPairFromSeed(std::string(33, 'x')));
}

TEST(CrawlerKeys, GeneratedKeysAreFreshAndSelfConsistent) {
  const CrawlerKeyPair a = GenerateCrawlerKeyPair(), b = GenerateCrawlerKeyPair();
  EXPECT_NE(a.private_seed, b.private_seed);
  ASSERT_EQ(a.private_seed.size(), 32u);
  ASSERT_EQ(a.public_key.size(), 32u);
  const auto again = CrawlerKeyPairFromSeed(a.private_seed);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->public_key, a.public_key);
  EXPECT_EQ(a.key_id, detection::Ed25519JwkThumbprint(core::Base64UrlEncode(a.public_key)));
}

TEST(CrawlerKeys, Rfc9421B26SignatureIsReproducedByteForByte) {
  const std::string base =
      "\"date\": Tue, 20 Apr 2021 02:07:55 GMT\n\"@method\": POST\n\"@path\": /foo\n"
      "\"@authority\": example.com\n\"content-type\": application/json\n"
      "\"content-length\": 18\n"
      R"("@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519")";
  const std::string published = *core::Base64Decode(
      "wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==");
  const CrawlerKeyPair key = TestKey();
  EXPECT_TRUE(detection::VerifyEd25519(key.public_key, base, published));
  EXPECT_EQ(SignEd25519(key.private_seed, base), published) << "Ed25519 is deterministic";
  EXPECT_THROW(SignEd25519("short", base), std::invalid_argument);
}

TEST(RequestSigner, SendsTheProfilesFieldsOverAnIndependentlyBuiltBase) {
  const RequestSigner signer(TestKey(), kAgent);
  EXPECT_EQ(signer.key_id(), kTestKeyThumbprint);
  const SignatureHeaders headers = signer.Sign("GET", "Shop.Example:8443", "/a?b=c", kNow);
  EXPECT_EQ(headers.signature_agent, R"("https://sightline.example.com")");
  const std::string params =
      R"(("@authority" "signature-agent");created=1795000000;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1795000300;nonce=")" +
      NonceOf(headers) + R"(";tag="web-bot-auth")";
  EXPECT_EQ(headers.signature_input, "sig1=" + params);
  EXPECT_EQ(core::Base64Decode(NonceOf(headers))->size(), 64u);
  ASSERT_TRUE(headers.signature.starts_with("sig1=:") && headers.signature.ends_with(":"));
  const std::string bytes =
      *core::Base64Decode(headers.signature.substr(6, headers.signature.size() - 7));
  // RFC 9421 §2.5, written out by hand rather than by detection's builder.
  const std::string base =
      "\"@authority\": shop.example:8443\n"
      "\"signature-agent\": \"https://sightline.example.com\"\n"
      "\"@signature-params\": " +
      params;
  EXPECT_TRUE(detection::VerifyEd25519(TestKey().public_key, base, bytes));
}

TEST(RequestSigner, EverySignatureHasItsOwnNonce) {
  const RequestSigner signer(TestKey(), kAgent);
  const SignatureHeaders a = signer.Sign("GET", "example.com", "/", kNow);
  const SignatureHeaders b = signer.Sign("GET", "example.com", "/", kNow);
  EXPECT_NE(NonceOf(a), NonceOf(b));
  EXPECT_NE(a.signature, b.signature);
}

TEST(RequestSigner, RoundTripsThroughDetectionsParserAndDirectory) {
  const CrawlerKeyPair key = GenerateCrawlerKeyPair();
  const std::string directory = SignatureDirectoryDocument({key.public_key});
  for (const SignatureAgentForm form :
       {SignatureAgentForm::kString, SignatureAgentForm::kDictionary}) {
    const RequestSigner signer(key, kAgent, {.agent_form = form});
    const SignatureHeaders headers = signer.Sign("GET", "example.com", "/docs?page=2", kNow);
    const SignedRequest request = Forwarded(headers, "example.com", "/docs?page=2");
    const SignatureParse parsed = detection::ParseWebBotAuth(request);
    ASSERT_EQ(parsed.status, SignatureParse::Status::kParsed) << parsed.problem;
    EXPECT_EQ(parsed.signature.agent, kAgent);
    EXPECT_EQ(parsed.signature.keyid, key.key_id);
    EXPECT_EQ(parsed.signature.expires - parsed.signature.created, 300);
    EXPECT_TRUE(VerifiesAgainst(request, directory));
    EXPECT_FALSE(VerifiesAgainst(Forwarded(headers, "victim.example", "/docs?page=2"), directory))
        << "signed for another host";
    EXPECT_FALSE(VerifiesAgainst(request, SignatureDirectoryDocument({TestKey().public_key})))
        << "a directory without the key";
  }
  const RequestSigner dictionary(key, kAgent, {.agent_form = SignatureAgentForm::kDictionary});
  const SignatureHeaders headers = dictionary.Sign("GET", "example.com", "/", kNow);
  EXPECT_EQ(headers.signature_agent, R"(sig1="https://sightline.example.com")");
  EXPECT_NE(headers.signature_input.find(R"("signature-agent";key="sig1")"), std::string::npos);
}

TEST(RequestSigner, TheTargetIsCoveredOnlyWhenAsked) {
  const CrawlerKeyPair key = TestKey();
  const std::string directory = SignatureDirectoryDocument({key.public_key});
  const SignatureHeaders host_only = RequestSigner(key, kAgent).Sign("GET", "a.test", "/x", kNow);
  EXPECT_TRUE(VerifiesAgainst(Forwarded(host_only, "a.test", "/elsewhere", "HEAD"), directory))
      << "the profile's minimum binds the host, not the path";
  const RequestSigner narrow(key, kAgent, {.cover_method_and_path = true});
  const SignatureHeaders headers = narrow.Sign("get", "a.test", "/x?q=1", kNow);
  EXPECT_NE(headers.signature_input.find(R"("@method" "@path")"), std::string::npos);
  EXPECT_TRUE(VerifiesAgainst(Forwarded(headers, "a.test", "/x?q=1"), directory));
  EXPECT_TRUE(VerifiesAgainst(Forwarded(headers, "a.test", "/x"), directory)) << "query uncovered";
  EXPECT_FALSE(VerifiesAgainst(Forwarded(headers, "a.test", "/y?q=1"), directory));
  EXPECT_FALSE(VerifiesAgainst(Forwarded(headers, "a.test", "/x?q=1", "POST"), directory));
  EXPECT_FALSE(VerifiesAgainst(Forwarded(headers, "b.test", "/x?q=1"), directory));
}

TEST(RequestSigner, RefusesAKeyOrAgentThatCannotWork) {
  CrawlerKeyPair mismatched = TestKey();
  mismatched.public_key = GenerateCrawlerKeyPair().public_key;
  EXPECT_THROW(RequestSigner(mismatched, kAgent), std::invalid_argument);
  CrawlerKeyPair wrong_id = TestKey();
  wrong_id.key_id = "test-key-ed25519";
  EXPECT_THROW(RequestSigner(wrong_id, kAgent), std::invalid_argument);
  EXPECT_THROW(RequestSigner(CrawlerKeyPair{}, kAgent), std::invalid_argument);
  EXPECT_THROW(RequestSigner(TestKey(), "sightline.example.com"), std::invalid_argument);
  EXPECT_THROW(RequestSigner(TestKey(), "https://sightline.example.com/\xc3\xa9"),
               std::invalid_argument);
  EXPECT_THROW(RequestSigner(TestKey(), kAgent, 0), std::invalid_argument);
}

TEST(RequestSigner, OneSignerSignsOnManyThreads) {
  const CrawlerKeyPair key = GenerateCrawlerKeyPair();
  const std::string directory = SignatureDirectoryDocument({key.public_key});
  const RequestSigner signer(key, kAgent);
  std::vector<std::vector<SignatureHeaders>> signed_by(4);
  std::vector<std::thread> threads;
  for (auto& out : signed_by) {
    threads.emplace_back([&signer, &out] {
      for (int i = 0; i < 50; ++i) out.push_back(signer.Sign("GET", "example.com", "/", kNow));
    });
  }
  for (auto& thread : threads) thread.join();
  std::set<std::string> nonces;
  for (const auto& out : signed_by) {
    for (const SignatureHeaders& headers : out) {
      EXPECT_TRUE(VerifiesAgainst(Forwarded(headers, "example.com"), directory));
      nonces.insert(NonceOf(headers));
    }
  }
  EXPECT_EQ(nonces.size(), 200u);
}

TEST(SignatureDirectoryDocument, ListsEachKeyOnceByThumbprint) {
  const CrawlerKeyPair current = GenerateCrawlerKeyPair(), previous = TestKey();
  const std::string document =
      SignatureDirectoryDocument({current.public_key, previous.public_key, current.public_key});
  const auto keys = detection::ParseSignatureDirectory(document);
  ASSERT_TRUE(keys);
  EXPECT_EQ(keys->size(), 2u);
  EXPECT_TRUE(keys->contains(current.key_id));
  EXPECT_TRUE(keys->contains(previous.key_id));
  EXPECT_NE(
      document.find(
          R"({"kty":"OKP","crv":"Ed25519","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","kid":"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U","use":"sig"})"),
      std::string::npos)
      << document;
  EXPECT_EQ(SignatureDirectoryDocument({}), R"({"keys":[]})");
  EXPECT_EQ(kSignatureDirectoryMediaType, "application/http-message-signatures-directory+json");
}

TEST(SignDirectoryResponse, EachKeyBindsTheResponseToTheAuthority) {
  const CrawlerKeyPair current = GenerateCrawlerKeyPair(), previous = TestKey();
  const SignatureHeaders headers =
      SignDirectoryResponse({current, previous, current}, "Sightline.Example.com", kNow);
  EXPECT_TRUE(headers.signature_agent.empty());
  const auto input = detection::sf::ParseDictionary(headers.signature_input);
  const auto signatures = detection::sf::ParseDictionary(headers.signature);
  ASSERT_TRUE(input && signatures);
  ASSERT_EQ(input->size(), 2u) << "the repeated key signs once";
  ASSERT_EQ(signatures->size(), 2u);
  const CrawlerKeyPair* signers[] = {&current, &previous};
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ((*input)[i].first, "binding" + std::to_string(i));
    const std::string params =
        detection::sf::Serialize(std::get<detection::sf::InnerList>((*input)[i].second));
    EXPECT_EQ(params,
              R"(("@authority";req);created=1795000000;keyid=")" + signers[i]->key_id +
                  R"(";alg="ed25519";expires=1795086400;tag="http-message-signatures-directory")");
    const auto& bytes = std::get<detection::sf::ByteSequence>(
        std::get<detection::sf::Item>((*signatures)[i].second).value);
    const std::string base =
        "\"@authority\";req: sightline.example.com\n\"@signature-params\": " + params;
    EXPECT_TRUE(detection::VerifyEd25519(signers[i]->public_key, base, bytes.bytes));
  }
  EXPECT_TRUE(SignDirectoryResponse({}, "a.test", kNow).signature.empty());
}

TEST(SignDirectoryResponse, MatchesNpmWebBotAuthByteForByte) {
  // npm web-bot-auth 0.1.3's directoryResponseHeaders, test key, same instant and authority.
  const SignatureHeaders headers =
      SignDirectoryResponse({TestKey()}, "sightline.example.com", kNow);
  EXPECT_EQ(
      headers.signature_input,
      R"(binding0=("@authority";req);created=1795000000;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=1795086400;tag="http-message-signatures-directory")");
  EXPECT_EQ(
      headers.signature,
      "binding0=:7jgzlpw7lCxysUOOo9L3ds4akw4PXy1WPCkIocasX0MAucfHbcIxv9DifOxIEtSDwY5ELZSmpH0RVv0a"
      "xtrrCQ==:");
}

// The real classification path of a site whose Sightline is this installation: the directory
// pinned as the fetched one would be, own_signer set to the agent origin.
class OwnCrawlerClassification : public ::testing::Test {
 protected:
  OwnCrawlerClassification() : directory_(nullptr, clock_) {
    directory_.Add(kAgent, *detection::ParseSignatureDirectory(SignatureDirectoryDocument(
                               {key_.public_key, previous_.public_key})));
  }
  BotAttribution Classify(const SignedRequest& request, std::int64_t observed_seconds = kNow) {
    const detection::RequestEvidence evidence{.signed_request = request,
                                              .observed_millis = observed_seconds * 1000};
    return classifier_.Classify(kCrawlerUa, "203.0.113.7", evidence);
  }
  const CrawlerKeyPair key_ = GenerateCrawlerKeyPair(), previous_ = GenerateCrawlerKeyPair();
  core::ManualClock clock_{kNow * 1000};
  detection::SignatureDirectory directory_;
  const detection::RequestClassifier classifier_{detection::BotCatalog::Builtin(),
                                                 {.signatures = &directory_, .own_signer = kAgent}};
};

TEST_F(OwnCrawlerClassification, SignedRequestsAreVerifiedServiceAuditBot) {
  for (const SignatureAgentForm form :
       {SignatureAgentForm::kString, SignatureAgentForm::kDictionary}) {
    const RequestSigner signer(key_, kAgent, {.agent_form = form});
    const BotAttribution bot = Classify(Forwarded(
        signer.Sign("GET", "shop.example", "/pricing", kNow), "shop.example", "/pricing"));
    EXPECT_EQ(bot.actor_type, "verified_bot");
    EXPECT_EQ(bot.bot_name, "ServiceAuditBot");
    EXPECT_EQ(bot.bot_vendor, "Sightline");
    EXPECT_EQ(bot.verification_method, "web_bot_auth");
    EXPECT_TRUE(bot.verified);
    EXPECT_TRUE(bot.own_crawler);
  }
  const RequestSigner rotated_out(previous_, kAgent);
  EXPECT_TRUE(
      Classify(Forwarded(rotated_out.Sign("GET", "shop.example", "/", kNow), "shop.example"))
          .own_crawler)
      << "a previous key still published keeps verifying";
}

TEST_F(OwnCrawlerClassification, TamperedOrExpiredSignaturesAreSpoofs) {
  const RequestSigner signer(key_, kAgent);
  const SignatureHeaders headers = signer.Sign("GET", "shop.example", "/", kNow);
  const BotAttribution moved = Classify(Forwarded(headers, "other.example"));
  EXPECT_EQ(moved.actor_type, "spoofed_bot") << "replayed against another host";
  EXPECT_FALSE(moved.own_crawler);
  const std::int64_t skew = detection::RequestClassifier::kSignatureSkewSeconds;
  EXPECT_TRUE(Classify(Forwarded(headers, "shop.example"), kNow + 300 + skew).own_crawler)
      << "at expiry, within the allowed skew";
  const BotAttribution expired = Classify(Forwarded(headers, "shop.example"), kNow + 301 + skew);
  EXPECT_EQ(expired.actor_type, "spoofed_bot");
  EXPECT_FALSE(expired.own_crawler);
  EXPECT_EQ(Classify(Forwarded(headers, "shop.example"), kNow - skew - 1).actor_type, "spoofed_bot")
      << "created in the future";
  SignatureHeaders forged = headers;
  forged.signature_agent = R"("https://sightline.example.com/elsewhere")";
  EXPECT_EQ(Classify(Forwarded(forged, "shop.example")).actor_type, "spoofed_bot")
      << "the Signature-Agent is covered";
}

TEST_F(OwnCrawlerClassification, AnUnpublishedKeyIsNotTheOwnCrawler) {
  const RequestSigner stranger(GenerateCrawlerKeyPair(), kAgent);
  const BotAttribution bot =
      Classify(Forwarded(stranger.Sign("GET", "shop.example", "/", kNow), "shop.example"));
  EXPECT_EQ(bot.bot_name, "ServiceAuditBot");
  EXPECT_FALSE(bot.verified);
  EXPECT_FALSE(bot.own_crawler);
}

}  // namespace
}  // namespace sightline::site_audit
