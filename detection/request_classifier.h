// Classifies one forwarded request: human, verified_bot, spoofed_bot, suspected_bot or unknown,
// with the bot's name, vendor, category and AI flag from the catalog, the verification method
// and a confidence. Verification runs strongest first and stops at the first decisive result:
//   1. a Web Bot Auth signature (valid → verified_bot; invalid, expired or not matching its key →
//      spoofed_bot; its signer's directory not yet known → no verdict);
//   2. CIDR, when the vendor's published ranges are loaded (inside → verified_bot, outside →
//      spoofed_bot);
//   3. forward-confirmed reverse DNS for bots with hostname suffixes (a confirmed name under
//      one → verified_bot; none → spoofed_bot; not resolved yet → no verdict).
// A catalog or rule match nothing can verify stays suspected_bot. Thread-safe; never waits for
// the network.
#pragma once

#include "detection/bot_catalog.h"
#include "detection/http_signature.h"
#include "detection/ip_ranges.h"
#include "detection/reverse_dns.h"
#include "detection/signature_directory.h"
#include "detection/ua_cache.h"
#include "detection/user_agent.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace sightline::detection {

struct BotAttribution {
  std::string actor_type = "human";  // human, verified_bot, spoofed_bot, suspected_bot, unknown
  bool is_bot = false;
  std::string bot_name, bot_vendor, actor_category;
  bool is_ai = false;
  bool verified = false;
  std::string verification_method = "none";  // web_bot_auth, cidr, reverse_dns, none
  double confidence = 0;
  // This installation's own crawler (ServiceAuditBot), verified by its signature: stored, but
  // never counted toward bot-event usage.
  bool own_crawler = false;
  UserAgentInfo user_agent;
};

// What is known of a request beyond its User-Agent and IP.
struct RequestEvidence {
  ClientHints hints;
  SignedRequest signed_request;   // empty signature fields: unsigned
  std::int64_t observed_millis = 0;  // when the request was made (signature validity)
};

// Where verification looks; each may be absent (that step then gives no verdict).
struct VerificationSources {
  const LiveRanges* ranges = nullptr;             // vendors' published IP ranges
  SignatureDirectory* signatures = nullptr;       // Web Bot Auth key directories
  ReverseDnsVerifier* reverse_dns = nullptr;      // forward-confirmed reverse DNS
  // The origin this installation's crawler (ServiceAuditBot) signs as, e.g.
  // "https://analytics.example"; empty when it has none.
  std::string own_signer;
};

class RequestClassifier {
 public:
  // Signatures may be at most this far in the future or past their expiry (clock skew between
  // the signer and the server that observed the request).
  static constexpr std::int64_t kSignatureSkewSeconds = 60;

  RequestClassifier(const BotCatalog& catalog, VerificationSources sources)
      : catalog_(catalog), sources_(std::move(sources)), cache_(catalog) {}

  BotAttribution Classify(std::string_view user_agent, std::string_view ip,
                          const ClientHints& hints = {}) const;
  BotAttribution Classify(std::string_view user_agent, std::string_view ip,
                          const RequestEvidence& evidence) const;

 private:
  const BotCatalog& catalog_;
  const VerificationSources sources_;
  mutable UserAgentCache cache_;  // thread-safe; repeated User-Agents skip the parse
};

}  // namespace sightline::detection
