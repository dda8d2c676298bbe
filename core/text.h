// Small text helpers shared across layers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sightline::core {

// ASCII lower-casing (emails, slugs, header names); other bytes are kept as they are.
std::string ToLowerAscii(std::string_view text);
std::string ToUpperAscii(std::string_view text);

// Valid UTF-8 from any bytes: each invalid sequence becomes U+FFFD and NUL bytes are dropped
// (headers and percent-decoded URLs arrive as arbitrary bytes; stores and JSON need UTF-8).
std::string ToValidUtf8(std::string_view bytes);
// At most `max_bytes` bytes of valid UTF-8, cut at a character boundary.
std::string TruncateUtf8(std::string text, std::size_t max_bytes);
// Whether `text` contains a control character (below U+0020, or DEL).
bool HasControlCharacter(std::string_view text);

// `text` without leading and trailing spaces and tabs (header values, list items).
std::string_view TrimSpaces(std::string_view text);

// The items of a `separator`-separated list (commas by default; OAuth scopes use spaces),
// trimmed of spaces, empty ones dropped.
std::vector<std::string> SplitList(std::string_view text, char separator = ',');
// The items joined with `separator` between them.
std::string JoinStrings(const std::vector<std::string>& items, std::string_view separator);

}  // namespace sightline::core
