#include "detection/request_classifier.h"

namespace sightline::detection {
namespace {

constexpr double kVerified = 0.99;
constexpr double kSpoofed = 0.95;
constexpr double kSuspected = 0.60;

enum class CidrVerdict { kInside, kOutside, kUnknown };

// Inside any of the bot's lists → inside; outside every list it names, all of them loaded →
// outside; otherwise nothing is known (a list not loaded cannot speak against a bot).
CidrVerdict CheckRanges(const BotEntry& bot, const VendorRanges* ranges, std::string_view ip) {
  if (ranges == nullptr || bot.ip_ranges.empty()) return CidrVerdict::kUnknown;
  const auto address = core::IpAddress::Parse(ip);
  if (!address) return CidrVerdict::kUnknown;
  bool all_loaded = true;
  for (const auto& list : bot.ip_ranges) {
    const auto inside = ranges->Contains(list.id, *address);
    if (!inside) all_loaded = false;
    else if (*inside) return CidrVerdict::kInside;
  }
  return all_loaded ? CidrVerdict::kOutside : CidrVerdict::kUnknown;
}

}  // namespace

BotAttribution RequestClassifier::Classify(std::string_view user_agent, std::string_view ip,
                                           const ClientHints& hints) const {
  const UserAgentClassification ua = ClassifyUserAgent(user_agent, hints, catalog_);
  BotAttribution out;
  out.user_agent = ua.info;
  if (ua.bot == nullptr && !ua.info.is_bot) {
    out.confidence = ua.info.device_confidence;
    return out;  // human
  }
  out.is_bot = true;
  out.actor_type = "suspected_bot";
  out.confidence = kSuspected;
  if (ua.bot == nullptr) {  // a rule-level bot the catalog does not name
    out.bot_name = ua.info.bot_name;
    out.actor_category = "automation";
    return out;
  }
  out.bot_name = ua.bot->name;
  out.bot_vendor = ua.bot->vendor;
  out.actor_category = ua.bot->category;
  out.is_ai = ua.bot->is_ai;
  switch (CheckRanges(*ua.bot, ranges_, ip)) {
    case CidrVerdict::kInside:
      out.actor_type = "verified_bot";
      out.verified = true;
      out.verification_method = "cidr";
      out.confidence = kVerified;
      break;
    case CidrVerdict::kOutside:
      out.actor_type = "spoofed_bot";  // claims a bot whose published ranges exclude this IP
      out.confidence = kSpoofed;
      break;
    case CidrVerdict::kUnknown:
      break;
  }
  return out;
}

}  // namespace sightline::detection
