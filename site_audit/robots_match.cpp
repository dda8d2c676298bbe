#include "site_audit/robots_match.h"

namespace sightline::site_audit {
namespace {

constexpr char kUpperHexDigits[] = "0123456789ABCDEF";

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsUnreservedOctet(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

// Octets a URI never carries unescaped; crawlers send them encoded, so patterns must be too.
bool NeedsPercentEscape(unsigned char c) {
  if (c <= 0x20 || c >= 0x7F) return true;
  switch (c) {
    case '"':
    case '<':
    case '>':
    case '\\':
    case '^':
    case '`':
    case '{':
    case '|':
    case '}':
      return true;
    default:
      return false;
  }
}

void AppendPercentEscape(std::string& out, unsigned char c) {
  out += '%';
  out += kUpperHexDigits[c >> 4];
  out += kUpperHexDigits[c & 0xF];
}

}  // namespace

std::string NormalizeRobotsPath(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '%' && i + 2 < text.size() && HexDigitValue(text[i + 1]) >= 0 &&
        HexDigitValue(text[i + 2]) >= 0) {
      const auto value =
          static_cast<unsigned char>(HexDigitValue(text[i + 1]) * 16 + HexDigitValue(text[i + 2]));
      if (IsUnreservedOctet(value)) {
        out += static_cast<char>(value);
      } else {
        AppendPercentEscape(out, value);
      }
      i += 2;
    } else if (c == '%' || NeedsPercentEscape(c)) {
      AppendPercentEscape(out, c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

bool RobotsPatternMatches(std::string_view pattern, std::string_view path) {
  const bool anchored = !pattern.empty() && pattern.back() == '$';
  if (anchored) pattern.remove_suffix(1);
  auto star = pattern.find('*');
  if (star == std::string_view::npos) {
    return anchored ? path == pattern : path.starts_with(pattern);
  }
  // The literal runs between stars must appear in order; taking each at its leftmost place
  // leaves the most room for the rest, so no choice ever needs revisiting.
  if (!path.starts_with(pattern.substr(0, star))) return false;
  std::size_t at = star;  // the first run matched path[0, star)
  pattern.remove_prefix(star + 1);
  while ((star = pattern.find('*')) != std::string_view::npos) {
    const std::string_view run = pattern.substr(0, star);
    pattern.remove_prefix(star + 1);
    if (run.empty()) continue;
    const auto found = path.find(run, at);
    if (found == std::string_view::npos) return false;
    at = found + run.size();
  }
  // `pattern` is now the run after the last star.
  if (!anchored) return path.find(pattern, at) != std::string_view::npos;
  return path.size() - at >= pattern.size() && path.ends_with(pattern);
}

}  // namespace sightline::site_audit
