#include "detection/bot_catalog.h"

#include <algorithm>
#include <array>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <map>
#include <stdexcept>
#include <utility>

#include "detection/ua_text.h"

namespace sightline::detection {

// Defined in the generated build/generated/bot_catalog_data.cpp (cmake/embed_bot_catalog.cmake).
std::string_view BuiltinBotCatalogJson();

namespace {

namespace json = boost::json;
using core::Error;
using core::Result;

constexpr std::array<std::string_view, 11> kCategories = {
    "ai_training",  "ai_search", "ai_user_fetch",    "search_engine", "social_preview", "seo",
    "monitoring",   "security_scanner", "archiver", "feed_fetcher",  "automation"};

// Tokens this short ("yeti", "curl", "wget") must stand as a whole word on both sides; longer
// ones only need a boundary on the left, so "googlebot" still matches "Googlebot/2.1" and
// "slackbot-linkexpanding" alike.
constexpr std::size_t kMaxBoundedLength = 6;
constexpr std::size_t kMinTokenLength = 3;

std::size_t BucketOf(char first, char second) {
  return (static_cast<std::size_t>(static_cast<unsigned char>(first) & 63) << 6) |
         (static_cast<unsigned char>(second) & 63);
}

bool IsLowerToken(std::string_view token) {
  return std::ranges::none_of(token, [](char c) { return c >= 'A' && c <= 'Z'; });
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ua::ToLower(c);
  return out;
}

Error Invalid(std::size_t index, std::string_view name, std::string_view field,
              const std::string& problem) {
  const std::string where = "bots[" + std::to_string(index) + "]." + std::string(field);
  const std::string who = name.empty() ? where : "bot \"" + std::string(name) + "\"";
  return Error::Invalid(where, "bot catalog: " + who + ": " + problem);
}

// A string array member (absent = empty). False when present but not an array of strings.
bool ReadStrings(const json::object& object, std::string_view key, std::vector<std::string>& out) {
  const json::value* value = object.if_contains(key);
  if (value == nullptr) return true;
  if (!value->is_array()) return false;
  for (const json::value& item : value->as_array()) {
    if (!item.is_string()) return false;
    out.emplace_back(item.as_string());
  }
  return true;
}

std::string StringMember(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->as_string()) : "";
}

Result<void> ReadVerification(const json::object& object, std::size_t index, BotEntry& entry) {
  const json::value* value = object.if_contains("verification");
  if (value == nullptr) return {};
  if (!value->is_object()) return Invalid(index, entry.name, "verification", "must be an object");
  const json::object& verification = value->as_object();
  if (!ReadStrings(verification, "web_bot_auth", entry.signature_agents) ||
      !ReadStrings(verification, "rdns_suffixes", entry.rdns_suffixes)) {
    return Invalid(index, entry.name, "verification", "lists must hold strings");
  }
  for (const std::string& agent : entry.signature_agents) {
    if (!agent.starts_with("https://")) {
      return Invalid(index, entry.name, "verification.web_bot_auth", "not an https origin");
    }
  }
  for (const std::string& suffix : entry.rdns_suffixes) {
    if (suffix.size() < 3 || suffix.front() != '.' || suffix != Lower(suffix)) {
      return Invalid(index, entry.name, "verification.rdns_suffixes",
                     "\"" + suffix + "\" must be a lower-case suffix starting with '.'");
    }
  }
  if (const json::value* ranges = verification.if_contains("ip_ranges")) {
    if (!ranges->is_array()) return Invalid(index, entry.name, "verification.ip_ranges", "array");
    for (const json::value& range : ranges->as_array()) {
      IpRangeList list;
      if (range.is_object()) {
        list = {StringMember(range.as_object(), "id"), StringMember(range.as_object(), "url")};
      }
      if (list.id.empty() || !list.url.starts_with("https://")) {
        return Invalid(index, entry.name, "verification.ip_ranges",
                       "each list needs an id and an https url");
      }
      entry.ip_ranges.push_back(std::move(list));
    }
  }
  return {};
}

Result<BotEntry> ReadEntry(const json::value& value, std::size_t index) {
  if (!value.is_object()) return Invalid(index, "", "", "must be an object");
  const json::object& object = value.as_object();
  BotEntry entry;
  entry.name = StringMember(object, "name");
  entry.vendor = StringMember(object, "vendor");
  entry.category = StringMember(object, "category");
  if (entry.name.empty()) return Invalid(index, "", "name", "missing");
  if (entry.vendor.empty()) return Invalid(index, entry.name, "vendor", "missing");
  if (std::ranges::find(kCategories, entry.category) == kCategories.end()) {
    return Invalid(index, entry.name, "category",
                   "unknown actor_category \"" + entry.category + "\"");
  }
  const json::value* is_ai = object.if_contains("is_ai");
  if (is_ai == nullptr || !is_ai->is_bool()) return Invalid(index, entry.name, "is_ai", "boolean");
  entry.is_ai = is_ai->as_bool();
  if (!ReadStrings(object, "ua_tokens", entry.ua_tokens)) {
    return Invalid(index, entry.name, "ua_tokens", "must be an array of strings");
  }
  for (const std::string& token : entry.ua_tokens) {
    if (token.size() < kMinTokenLength || !IsLowerToken(token) || ua::Trim(token) != token) {
      return Invalid(index, entry.name, "ua_tokens",
                     "\"" + token + "\" must be lower-case, trimmed, at least 3 bytes");
    }
  }
  if (auto verified = ReadVerification(object, index, entry); !verified) return verified.error();
  if (entry.ua_tokens.empty() && entry.signature_agents.empty()) {
    return Invalid(index, entry.name, "ua_tokens", "an entry needs tokens or a signature agent");
  }
  return entry;
}

// Names, tokens and signature agents each identify one entry; an IP-range id names one URL.
Result<void> CheckUnique(const std::vector<BotEntry>& entries) {
  std::map<std::string, std::string> names, tokens, agents, range_urls;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const BotEntry& entry = entries[i];
    if (!names.emplace(Lower(entry.name), entry.name).second) {
      return Invalid(i, entry.name, "name", "duplicate name");
    }
    for (const std::string& token : entry.ua_tokens) {
      if (auto [at, fresh] = tokens.emplace(token, entry.name); !fresh) {
        return Invalid(i, entry.name, "ua_tokens",
                       "token \"" + token + "\" already belongs to \"" + at->second + "\"");
      }
    }
    for (const std::string& agent : entry.signature_agents) {
      if (auto [at, fresh] = agents.emplace(agent, entry.name); !fresh) {
        return Invalid(i, entry.name, "verification.web_bot_auth",
                       "signature agent already belongs to \"" + at->second + "\"");
      }
    }
    for (const IpRangeList& list : entry.ip_ranges) {
      if (auto [at, fresh] = range_urls.emplace(list.id, list.url); !fresh && at->second != list.url) {
        return Invalid(i, entry.name, "verification.ip_ranges",
                       "list id \"" + list.id + "\" already names another url");
      }
    }
  }
  return {};
}

bool BoundaryBefore(std::string_view lower, std::size_t at) {
  return at == 0 || !ua::IsAlnum(lower[at - 1]);
}

bool BoundaryAfter(std::string_view lower, std::size_t end) {
  return end >= lower.size() || !ua::IsAlnum(lower[end]);
}

}  // namespace

namespace {

// "assistants": [{"vendor": "OpenAI", "source": "ChatGPT"}, …]; optional.
Result<std::vector<std::pair<std::string, std::string>>> ReadAssistants(const json::object& document) {
  std::vector<std::pair<std::string, std::string>> out;
  const json::value* list = document.if_contains("assistants");
  if (list == nullptr) return out;
  if (!list->is_array()) return Error::Invalid("assistants", "bot catalog: \"assistants\" must be an array");
  for (std::size_t i = 0; i < list->as_array().size(); ++i) {
    const json::value& item = list->as_array()[i];
    const std::string field = "assistants[" + std::to_string(i) + "]";
    const json::value* vendor = item.is_object() ? item.as_object().if_contains("vendor") : nullptr;
    const json::value* source = item.is_object() ? item.as_object().if_contains("source") : nullptr;
    if (!vendor || !vendor->is_string() || !source || !source->is_string() ||
        vendor->as_string().empty() || source->as_string().empty()) {
      return Error::Invalid(field, "bot catalog: " + field + " needs a vendor and a source");
    }
    out.emplace_back(std::string(vendor->as_string()), std::string(source->as_string()));
  }
  return out;
}

}  // namespace

Result<BotCatalog> BotCatalog::Parse(std::string_view text) {
  boost::system::error_code ec;
  const json::value document = json::parse(text, ec);
  if (ec) return Error::Invalid("bot_catalog", "bot catalog: malformed JSON: " + ec.message());
  const json::value* bots = document.is_object() ? document.as_object().if_contains("bots")
                                                 : nullptr;
  if (bots == nullptr || !bots->is_array()) {
    return Error::Invalid("bots", "bot catalog: needs a \"bots\" array");
  }
  BotCatalog catalog;
  for (std::size_t i = 0; i < bots->as_array().size(); ++i) {
    Result<BotEntry> entry = ReadEntry(bots->as_array()[i], i);
    if (!entry) return entry.error();
    catalog.entries_.push_back(std::move(*entry));
  }
  if (auto unique = CheckUnique(catalog.entries_); !unique) return unique.error();
  auto assistants = ReadAssistants(document.as_object());
  if (!assistants) return assistants.error();
  catalog.assistants_ = std::move(*assistants);
  catalog.BuildIndex();
  return catalog;
}

std::string_view BotCatalog::AssistantOf(std::string_view vendor) const {
  for (const auto& [name, source] : assistants_) {
    if (name == vendor) return source;
  }
  return {};
}

const BotCatalog& BotCatalog::Builtin() {
  // Parsed once on first use; the embedded document is checked by unit tests, so a failure
  // here is a build defect.
  static const BotCatalog catalog = [] {
    Result<BotCatalog> parsed = Parse(BuiltinBotCatalogJson());
    if (!parsed) throw std::logic_error("built-in bot catalog: " + parsed.error().message());
    return std::move(*parsed);
  }();
  return catalog;
}

void BotCatalog::BuildIndex() {
  tokens_.clear();
  for (std::uint32_t i = 0; i < entries_.size(); ++i) {
    for (const std::string& token : entries_[i].ua_tokens) {
      // A token that ends in punctuation ("ptst/", "bw/") already carries its own boundary.
      const bool bounded = token.size() <= kMaxBoundedLength && ua::IsAlnum(token.back());
      tokens_.push_back(Token{token, i, bounded});
    }
  }
  std::ranges::stable_sort(tokens_, [](const Token& a, const Token& b) {
    const std::size_t bucket_a = BucketOf(a.text[0], a.text[1]);
    const std::size_t bucket_b = BucketOf(b.text[0], b.text[1]);
    return bucket_a != bucket_b ? bucket_a < bucket_b : a.text.size() > b.text.size();
  });
  bucket_begin_.assign(kBuckets + 1, 0);
  for (const Token& token : tokens_) ++bucket_begin_[BucketOf(token.text[0], token.text[1]) + 1];
  for (std::size_t b = 0; b < kBuckets; ++b) bucket_begin_[b + 1] += bucket_begin_[b];
}

const BotEntry* BotCatalog::Match(std::string_view user_agent) const {
  if (tokens_.empty() || user_agent.size() < kMinTokenLength) return nullptr;
  const std::size_t size = std::min(user_agent.size(), ua::kMaxAnalysedLength);
  std::array<char, ua::kMaxAnalysedLength> buffer;
  for (std::size_t i = 0; i < size; ++i) buffer[i] = ua::ToLower(user_agent[i]);
  const std::string_view lower(buffer.data(), size);
  const Token* best = nullptr;
  for (std::size_t at = 0; at + 1 < size; ++at) {
    const std::size_t bucket = BucketOf(lower[at], lower[at + 1]);
    const std::uint32_t end = bucket_begin_[bucket + 1];
    if (bucket_begin_[bucket] == end || !BoundaryBefore(lower, at)) continue;
    for (std::uint32_t t = bucket_begin_[bucket]; t < end; ++t) {
      const Token& token = tokens_[t];
      // Buckets are longest first: nothing further here can beat the best so far.
      if (best != nullptr && token.text.size() <= best->text.size()) break;
      if (lower.compare(at, token.text.size(), token.text) != 0) continue;
      if (token.bounded_right && !BoundaryAfter(lower, at + token.text.size())) continue;
      best = &token;
      break;
    }
  }
  return best == nullptr ? nullptr : &entries_[best->entry];
}

const BotEntry* BotCatalog::FindByName(std::string_view name) const {
  for (const BotEntry& entry : entries_) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

const BotEntry* BotCatalog::FindBySignatureAgent(std::string_view origin) const {
  for (const BotEntry& entry : entries_) {
    if (std::ranges::find(entry.signature_agents, origin) != entry.signature_agents.end()) {
      return &entry;
    }
  }
  return nullptr;
}

UserAgentClassification ClassifyUserAgent(std::string_view user_agent, const ClientHints& hints,
                                          const BotCatalog& catalog) {
  UserAgentClassification result{ParseUserAgent(user_agent, hints), catalog.Match(user_agent)};
  if (result.bot != nullptr && !result.info.is_bot) {
    result.info.is_bot = true;
    result.info.bot_name = result.bot->name;
    result.info.device = DeviceType::kBot;
    result.info.signal_source = SignalSource::kBotRule;
    result.info.device_confidence = 0.99;
  }
  return result;
}

}  // namespace sightline::detection
