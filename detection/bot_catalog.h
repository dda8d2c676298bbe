// The bot catalog: every crawler, agent and tool the product names, as data reviewed like code
// (detection/bot_catalog.json, embedded at build time). Each entry says who runs the bot, what
// kind it is, whether it serves AI, which User-Agent tokens identify it, and how its requests
// can be verified (Web Bot Auth signature agents, the vendor's published IP-range lists,
// reverse-DNS hostname suffixes). Loaded once; read-only and thread-safe afterwards.
#pragma once

#include "core/result.h"
#include "detection/user_agent.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::detection {

struct IpRangeList {
  std::string id;   // stable file name for --bot-ranges-dir, e.g. "googlebot"
  std::string url;  // the vendor's official JSON list
};

struct BotEntry {
  std::string name;      // "GPTBot"
  std::string vendor;    // "OpenAI"
  std::string category;  // the spec's actor_category: ai_training, ai_search, search_engine, …
  bool is_ai = false;
  std::vector<std::string> ua_tokens;  // lower-case tokens that identify it in a User-Agent
  std::vector<std::string> signature_agents;  // Web Bot Auth Signature-Agent origins
  std::vector<IpRangeList> ip_ranges;
  std::vector<std::string> rdns_suffixes;  // ".googlebot.com"
  bool Verifiable() const {
    return !signature_agents.empty() || !ip_ranges.empty() || !rdns_suffixes.empty();
  }
};

class BotCatalog {
 public:
  // Parses and checks a catalog document (VAL_003 naming the offending entry).
  static core::Result<BotCatalog> Parse(std::string_view json);
  // The catalog built into the binary.
  static const BotCatalog& Builtin();

  // The entry whose token appears in the User-Agent (longest token wins), or null.
  const BotEntry* Match(std::string_view user_agent) const;
  std::span<const BotEntry> entries() const { return entries_; }
  // The entry whose Web Bot Auth signature agent is `origin` (exact, as in the catalog), or null.
  const BotEntry* FindBySignatureAgent(std::string_view origin) const;
  // The entry called `name` exactly, or null.
  const BotEntry* FindByName(std::string_view name) const;
  // The AI assistant whose answers link people to sites, of the vendor `vendor` runs, as
  // ingestion names it as a traffic source ("OpenAI" → "ChatGPT"); "" when the vendor has none.
  std::string_view AssistantOf(std::string_view vendor) const;

 private:
  // One token of one entry. Tokens are bucketed by their first two bytes (see Match), and each
  // bucket is sorted longest first.
  struct Token {
    std::string text;
    std::uint32_t entry = 0;
    bool bounded_right = false;  // short alphanumeric-ended tokens must end a word
  };
  static constexpr std::size_t kBuckets = 4096;
  void BuildIndex();

  std::vector<BotEntry> entries_;
  std::vector<std::pair<std::string, std::string>> assistants_;  // vendor, source
  std::vector<Token> tokens_;
  std::vector<std::uint32_t> bucket_begin_;  // kBuckets + 1 offsets into tokens_
};

// A User-Agent read with both classifiers: ParseUserAgent's answer plus the catalog entry the
// UA names (null when none). When the catalog recognises a UA the general rules missed, `info`
// is marked as a bot (is_bot, bot_name = the entry's name, device kBot from kBotRule at 0.99);
// otherwise `info` is exactly ParseUserAgent's. Thread-safe.
struct UserAgentClassification {
  UserAgentInfo info;
  const BotEntry* bot = nullptr;  // points into `catalog`
};
UserAgentClassification ClassifyUserAgent(std::string_view user_agent, const ClientHints& hints,
                                          const BotCatalog& catalog);

}  // namespace sightline::detection
