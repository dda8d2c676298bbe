// Throughput of the request-verification and log-drain hot paths, per core, uncached:
//   - Web Bot Auth: parsing the signature fields and building the signature base, then the
//     Ed25519 verification (draft-ietf-webbotauth-httpsig-protocol vector E.2.1);
//   - the classifier with a pinned key directory (signed requests) and without (plain bots);
//   - log-drain parsing (Vercel JSON array, Cloudflare NDJSON) in rows per second.
// Usage: build/bench/verify_bench [seconds per figure, default 1]
#include "core/clock.h"
#include "core/crypto.h"
#include "detection/http_signature.h"
#include "detection/request_classifier.h"
#include "ingest/log_drain.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

namespace {

using namespace sightline;
using Clock = std::chrono::steady_clock;

double Rate(double seconds, const std::function<std::size_t()>& once) {
  std::size_t done = 0;
  const auto start = Clock::now();
  const auto until = start + std::chrono::duration<double>(seconds);
  while (Clock::now() < until) done += once();
  return done / std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr char kInput[] =
    R"(sig2=("@authority" "signature-agent";key="sig2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth")";
constexpr char kSignature[] =
    "sig2=:CGokAoY/FrPpyuzTe1Fb2kLTAH9Idw6qSFd1+D77r1firsMRCxeuLu5e6O+ek3zQgDMAzjiXtLVfqE00xnABCQ==:";
constexpr char kAgentHeader[] = R"(sig2="https://signature-agent.test")";
constexpr char kKeyX[] = "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs";

std::string VercelBatch(int rows) {
  std::string out = "[";
  for (int i = 0; i < rows; ++i) {
    out += std::string(i ? "," : "") +
           R"({"id":"x","source":"edge","timestamp":1795000000000,"proxy":{"timestamp":1795000000000,)"
           R"("method":"GET","host":"example.com","path":"/docs/page-)" + std::to_string(i) +
           R"j(","userAgent":["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)"],)j"
           R"("referer":"","clientIp":"192.0.2.)" + std::to_string(i % 250) + R"(","statusCode":200}})";
  }
  return out + "]";
}

std::string CloudflareBatch(int rows) {
  std::string out;
  for (int i = 0; i < rows; ++i) {
    out += R"({"ClientIP":"192.0.2.)" + std::to_string(i % 250) +
           R"j(","ClientRequestUserAgent":"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",)j"
           R"("ClientRequestMethod":"GET","ClientRequestHost":"shop.example","ClientRequestURI":"/p/)" +
           std::to_string(i) + R"(","ClientRequestReferer":"","EdgeStartTimestamp":1794999990123456789})" "\n";
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  const detection::SignedRequest request{.method = "GET", .authority = "example.com",
                                         .target = "/", .signature = kSignature,
                                         .signature_input = kInput,
                                         .signature_agent = kAgentHeader};
  const std::string key = *core::Base64UrlDecode(kKeyX);
  const auto parsed = detection::ParseWebBotAuth(request);
  if (parsed.status != detection::SignatureParse::Status::kParsed ||
      !detection::VerifyEd25519(key, parsed.signature.base, parsed.signature.signature)) {
    std::fprintf(stderr, "verify_bench: the vector does not verify\n");
    return 1;
  }
  std::printf("web bot auth: parse + signature base  %10.0f /s\n",
              Rate(seconds, [&] { return detection::ParseWebBotAuth(request).status ==
                                                 detection::SignatureParse::Status::kParsed
                                             ? 1u
                                             : 0u; }));
  std::printf("web bot auth: ed25519 import + verify %10.0f /s\n",
              Rate(seconds, [&] {
                return detection::VerifyEd25519(key, parsed.signature.base,
                                                parsed.signature.signature) ? 1u : 0u;
              }));
  const auto imported = *detection::Ed25519PublicKey::FromRaw(key);
  std::printf("web bot auth: ed25519 verify (cached) %10.0f /s\n",
              Rate(seconds, [&] {
                return imported.Verify(parsed.signature.base, parsed.signature.signature) ? 1u
                                                                                          : 0u;
              }));

  core::ManualClock clock(1795000000000);
  detection::SignatureDirectory directory(nullptr, clock);
  directory.Add("https://signature-agent.test",
                *detection::ParseSignatureDirectory(
                    R"({"keys":[{"kty":"OKP","crv":"Ed25519","x":")" + std::string(kKeyX) + "\"}]}"));
  const detection::RequestClassifier classifier(detection::BotCatalog::Builtin(),
                                                {.signatures = &directory});
  detection::RequestEvidence evidence{.signed_request = request, .observed_millis = 1795000000000};
  std::printf("classify, signed request (full path)  %10.0f /s\n", Rate(seconds, [&] {
                return classifier.Classify("Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0",
                                           "203.0.113.7", evidence).verified ? 1u : 0u;
              }));
  std::printf("classify, unsigned catalog bot        %10.0f /s\n", Rate(seconds, [&] {
                return classifier.Classify("Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)",
                                           "203.0.113.7").is_bot ? 1u : 0u;
              }));

  for (const auto& [name, source, body] :
       {std::tuple{"vercel json array", ingest::DrainSource::kVercel, VercelBatch(500)},
        std::tuple{"cloudflare ndjson", ingest::DrainSource::kCloudflare, CloudflareBatch(500)}}) {
    const double rows = Rate(seconds, [&, source = source, &body = body] {
      return ingest::ParseDrain(source, body, 1795000000000)->requests.size();
    });
    std::printf("drain parse, %-24s %10.0f rows/s (%.1f MB/s)\n", name, rows,
                rows * (body.size() / 500.0) / 1e6);
  }
  return 0;
}
