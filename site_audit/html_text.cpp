#include "site_audit/html_text.h"

#include "core/http_types.h"
#include "core/text.h"

#include <algorithm>

namespace sightline::site_audit {

bool IsHtmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

std::string_view TrimHtmlSpace(std::string_view text) {
  while (!text.empty() && IsHtmlSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsHtmlSpace(text.back())) text.remove_suffix(1);
  return text;
}

bool HasToken(std::string_view list, std::string_view token) {
  while (!list.empty()) {
    const auto begin = std::find_if_not(list.begin(), list.end(), IsHtmlSpace);
    const auto end = std::find_if(begin, list.end(), IsHtmlSpace);
    if (core::EqualsIgnoreCase(std::string_view(begin, end), token)) return true;
    list.remove_prefix(static_cast<std::size_t>(end - list.begin()));
  }
  return false;
}

void AppendCollapsed(std::string& out, std::string_view text, std::size_t max_bytes) {
  for (const char c : text) {
    // A few bytes of slack let FinishCollapsed see whether the last character fits.
    if (out.size() > max_bytes + 4) return;
    if (!IsHtmlSpace(c)) {
      out += c;
    } else if (!out.empty() && out.back() != ' ') {
      out += ' ';
    }
  }
}

std::string& FinishCollapsed(std::string& text, std::size_t max_bytes) {
  if (text.size() > max_bytes) {
    std::size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    text.resize(cut);
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

std::string CollapsedText(std::string_view text, std::size_t max_bytes) {
  std::string out;
  AppendCollapsed(out, text, max_bytes);
  return FinishCollapsed(out, max_bytes);
}

std::size_t CollapsedSize(std::string_view text) {
  text = TrimHtmlSpace(text);
  std::size_t size = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    // A run counts once, at its last space; trimmed, so text[i + 1] exists after a space.
    if (!IsHtmlSpace(text[i]) || !IsHtmlSpace(text[i + 1])) ++size;
  }
  return size;
}

// Candidates are comma-separated, but a URL may itself hold commas (CDN transforms, data: URLs),
// so the URL is the run of non-whitespace, and only a comma outside parentheses ends the
// descriptors after it.
std::vector<std::string_view> SrcsetUrls(std::string_view srcset) {
  std::vector<std::string_view> urls;
  std::size_t at = 0;
  while (at < srcset.size()) {
    while (at < srcset.size() && (IsHtmlSpace(srcset[at]) || srcset[at] == ',')) ++at;
    const std::size_t begin = at;
    while (at < srcset.size() && !IsHtmlSpace(srcset[at])) ++at;
    std::string_view url = srcset.substr(begin, at - begin);
    const bool trailing_comma = !url.empty() && url.back() == ',';
    while (!url.empty() && url.back() == ',') url.remove_suffix(1);
    if (!url.empty()) urls.push_back(url);
    if (trailing_comma) continue;
    for (bool in_parens = false; at < srcset.size(); ++at) {
      if (srcset[at] == '(') in_parens = true;
      if (srcset[at] == ')') in_parens = false;
      if (srcset[at] == ',' && !in_parens) break;
    }
  }
  return urls;
}

}  // namespace sightline::site_audit
