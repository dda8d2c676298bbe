#include "query/custom_properties.h"

#include <algorithm>

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>

#include "core/json_util.h"

namespace sightline::query {
namespace {

bool IsCustomProperty(std::string_view key) {
  return !key.starts_with("$") && !key.starts_with("__");  // Sightline's and the SDK's are not
}

// A quoted string at `at` with nothing to unescape or check (printable ASCII, no `"` or `\`),
// `at` moved past it; none for anything else.
std::optional<std::string_view> PlainString(std::string_view text, std::size_t& at) {
  if (at >= text.size() || text[at] != '"') return std::nullopt;
  const std::size_t start = ++at;
  at = text.find('"', start);
  if (at == std::string_view::npos) return std::nullopt;
  // Checked without an early exit, so that the compiler checks many bytes at once.
  bool plain = true;
  for (std::size_t i = start; i < at; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    plain &= byte >= 0x20 && byte <= 0x7e && byte != '\\';
  }
  if (!plain) return std::nullopt;
  return text.substr(start, at++ - start);
}

}  // namespace

PropertyTable::PropertyTable(std::optional<std::vector<std::string>> keys)
    : keys_(std::move(keys)) {
  if (!keys_) return;
  for (const std::string& key : *keys_) quoted_keys_.push_back('"' + key + '"');
}

std::size_t PropertyTable::Add(std::string_view tags) {
  // Most events carry none of the few keys a query reads: their tags are not read at all.
  if (!CannotHoldAKeyKept(tags) && !AddPlain(tags)) {
    properties_.resize(starts_.back());  // what the plain reading added before it gave up
    AddParsed(tags);
  }
  starts_.push_back(static_cast<std::uint32_t>(properties_.size()));
  return size() - 1;
}

// True when no key kept can be among the tags' keys: none of them is written as it is, and
// without a backslash none can be written otherwise (escaped).
bool PropertyTable::CannotHoldAKeyKept(std::string_view tags) const {
  if (!keys_ || tags.find('\\') != std::string_view::npos) return false;
  return std::none_of(quoted_keys_.begin(), quoted_keys_.end(), [&](const std::string& quoted) {
    return tags.find(quoted) != std::string_view::npos;
  });
}

bool PropertyTable::Kept(std::string_view key) const {
  if (!IsCustomProperty(key)) return false;
  return !keys_ || std::find(keys_->begin(), keys_->end(), key) != keys_->end();
}

// Tags that are an object of plain strings without spaces or a repeated key
// (`{"plan":"pro","step":"2"}`, what the SDK sends) are read without a JSON parser, exactly as
// the parser reads them; false for any other text, left to the parser.
bool PropertyTable::AddPlain(std::string_view tags) {
  if (tags == "{}") return true;
  if (!tags.starts_with('{')) return false;
  seen_.clear();
  for (std::size_t at = 1;;) {
    const auto key = PlainString(tags, at);
    if (!key || at >= tags.size() || tags[at++] != ':') return false;
    const auto value = PlainString(tags, at);
    if (!value || at >= tags.size()) return false;
    // A repeated key is the parser's to read.
    if (std::find(seen_.begin(), seen_.end(), *key) != seen_.end()) return false;
    seen_.push_back(*key);
    if (Kept(*key)) properties_.push_back({*key, *value});
    const char next = tags[at++];
    if (next == '}' && at == tags.size()) return true;
    if (next != ',') return false;
  }
}

void PropertyTable::AddParsed(std::string_view tags) {
  if (tags.empty()) return;
  // Most tags are a few short members: parsed in a buffer on the stack, without the heap.
  unsigned char buffer[4096];
  boost::json::monotonic_resource memory(buffer, sizeof buffer);
  boost::system::error_code failed;
  const boost::json::value parsed = boost::json::parse(tags, failed, &memory);
  if (failed || !parsed.is_object()) return;
  for (const auto& [key, value] : parsed.as_object()) {
    if (!Kept(key)) continue;
    std::string text;
    if (value.is_string()) {
      text = std::string(value.as_string());
    } else if (value.is_bool() || value.is_number()) {
      text = core::ToJson(value);
    } else {
      continue;
    }
    const std::string& owned_key = owned_.emplace_back(key);
    properties_.push_back({owned_key, owned_.emplace_back(std::move(text))});
  }
}

}  // namespace sightline::query
