#include "detection/request_classifier.h"

namespace sightline::detection {
namespace {

constexpr double kSigned = 0.999;
constexpr double kVerified = 0.99;
constexpr double kReverseDns = 0.98;
constexpr double kSpoofed = 0.95;
constexpr double kSuspected = 0.60;

enum class Verdict { kVerified, kFailed, kUnknown };

// Inside any of the bot's lists → verified; outside every list it names, all of them loaded →
// failed; otherwise nothing is known (a list not loaded cannot speak against a bot).
Verdict CheckRanges(const BotEntry& bot, const LiveRanges* live, std::string_view ip) {
  const auto ranges = live ? live->Current() : nullptr;
  if (ranges == nullptr || bot.ip_ranges.empty()) return Verdict::kUnknown;
  const auto address = core::IpAddress::Parse(ip);
  if (!address) return Verdict::kUnknown;
  bool all_loaded = true;
  for (const auto& list : bot.ip_ranges) {
    const auto inside = ranges->Contains(list.id, *address);
    if (!inside) all_loaded = false;
    else if (*inside) return Verdict::kVerified;
  }
  return all_loaded ? Verdict::kFailed : Verdict::kUnknown;
}

Verdict CheckReverseDns(const BotEntry& bot, ReverseDnsVerifier* verifier, std::string_view ip) {
  if (verifier == nullptr || bot.rdns_suffixes.empty()) return Verdict::kUnknown;
  const auto names = verifier->ConfirmedNames(std::string(ip));
  if (!names) return Verdict::kUnknown;
  for (const std::string& name : *names) {
    for (const std::string& suffix : bot.rdns_suffixes) {
      if (HostMatchesSuffix(name, suffix)) return Verdict::kVerified;
    }
  }
  return Verdict::kFailed;  // no PTR, not forward-confirmed, or someone else's name
}

struct SignatureCheck {
  Verdict verdict = Verdict::kUnknown;
  bool present = false;
  std::string origin;  // the signer's origin, when named
};

SignatureCheck CheckSignature(const RequestEvidence& evidence, SignatureDirectory* directory) {
  const SignatureParse parsed = ParseWebBotAuth(evidence.signed_request);
  SignatureCheck out;
  out.present = parsed.status != SignatureParse::Status::kNone;
  if (parsed.status == SignatureParse::Status::kMalformed) out.verdict = Verdict::kFailed;
  if (parsed.status != SignatureParse::Status::kParsed) return out;
  const WebBotAuthSignature& signature = parsed.signature;
  out.origin = UrlOrigin(signature.agent).value_or("");
  const std::int64_t now = evidence.observed_millis / 1000;
  const std::int64_t skew = RequestClassifier::kSignatureSkewSeconds;
  if (signature.created > signature.expires || signature.created > now + skew ||
      signature.expires < now - skew) {
    out.verdict = Verdict::kFailed;  // outside its validity window: a replay or a forgery
    return out;
  }
  if (out.origin.empty() || directory == nullptr) return out;
  const auto keys = directory->Keys(out.origin);
  if (!keys) return out;  // the directory is being fetched: no verdict yet
  const auto key = keys->find(signature.keyid);
  if (key == keys->end()) return out;  // perhaps a rotated key the cached copy lacks
  out.verdict = key->second.Verify(signature.base, signature.signature) ? Verdict::kVerified
                                                                        : Verdict::kFailed;
  return out;
}

void Name(BotAttribution& out, const BotEntry& bot) {
  out.bot_name = bot.name;
  out.bot_vendor = bot.vendor;
  out.actor_category = bot.category;
  out.is_ai = bot.is_ai;
}

}  // namespace

BotAttribution RequestClassifier::Classify(std::string_view user_agent, std::string_view ip,
                                           const ClientHints& hints) const {
  RequestEvidence evidence;
  evidence.hints = hints;
  return Classify(user_agent, ip, evidence);
}

BotAttribution RequestClassifier::Classify(std::string_view user_agent, std::string_view ip,
                                           const RequestEvidence& evidence) const {
  const UserAgentClassification ua = cache_.Classify(user_agent, evidence.hints);
  const SignatureCheck signature = CheckSignature(evidence, sources_.signatures);
  // A signer the catalog knows names the bot even behind a browser-shaped User-Agent.
  const bool own_signer =
      !sources_.own_signer.empty() && signature.origin == sources_.own_signer;
  const BotEntry* bot = signature.origin.empty() ? nullptr
                        : own_signer ? catalog_.FindByName("ServiceAuditBot")
                                     : catalog_.FindBySignatureAgent(signature.origin);
  if (bot == nullptr) bot = ua.bot;
  BotAttribution out;
  out.user_agent = ua.info;
  if (bot == nullptr && !ua.info.is_bot && !signature.present) {
    out.confidence = ua.info.device_confidence;
    return out;  // human
  }
  out.is_bot = true;
  out.actor_type = "suspected_bot";
  out.confidence = kSuspected;
  if (bot != nullptr) {
    Name(out, *bot);
  } else {  // a rule-level bot, or a signer the catalog does not name
    out.bot_name = ua.info.is_bot ? ua.info.bot_name : signature.origin;
    out.actor_category = "automation";
  }
  Verdict verdict = signature.verdict;
  std::string method = "web_bot_auth";
  if (verdict == Verdict::kUnknown && bot != nullptr) {
    verdict = CheckRanges(*bot, sources_.ranges, ip);
    method = "cidr";
  }
  if (verdict == Verdict::kUnknown && bot != nullptr) {
    verdict = CheckReverseDns(*bot, sources_.reverse_dns, ip);
    method = "reverse_dns";
  }
  if (verdict == Verdict::kVerified) {
    out.actor_type = "verified_bot";
    out.verified = true;
    out.verification_method = method;
    out.confidence = method == "web_bot_auth" ? kSigned : method == "cidr" ? kVerified : kReverseDns;
    out.own_crawler = own_signer && method == "web_bot_auth";
  } else if (verdict == Verdict::kFailed) {
    out.actor_type = "spoofed_bot";  // claims an identity its signature or ranges refute
    out.confidence = kSpoofed;
  }
  return out;
}

}  // namespace sightline::detection
