// Classifies one forwarded request: human, verified_bot, spoofed_bot, suspected_bot or unknown,
// with the bot's name, vendor, category and AI flag from the catalog, the verification method
// and a confidence. Verification runs strongest first and stops at the first decisive result:
// Web Bot Auth signatures and forward-confirmed reverse DNS are still to come; today the CIDR
// step decides when the vendor's published ranges are loaded (inside → verified_bot, outside →
// spoofed_bot), and a catalog or rule match nothing can verify stays suspected_bot.
// Pure over its inputs; thread-safe.
#pragma once

#include "detection/bot_catalog.h"
#include "detection/ip_ranges.h"
#include "detection/user_agent.h"

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
  UserAgentInfo user_agent;
};

class RequestClassifier {
 public:
  // `ranges` may be null (no range data: nothing verifies by CIDR).
  RequestClassifier(const BotCatalog& catalog, const VendorRanges* ranges)
      : catalog_(catalog), ranges_(ranges) {}

  BotAttribution Classify(std::string_view user_agent, std::string_view ip,
                          const ClientHints& hints = {}) const;

 private:
  const BotCatalog& catalog_;
  const VendorRanges* ranges_;
};

}  // namespace sightline::detection
