// Checks of the texts search results show: the title and the meta description of each page,
// alone (present, single, of a sensible length) and across pages (unique).
#include <boost/json.hpp>
#include <unordered_map>

#include "site_audit/checks_context.h"
#include "core/text.h"

namespace sightline::site_audit::checks {
namespace {

namespace json = boost::json;

struct TextRule {
  std::string_view key;  // the details member: "titles" or "descriptions"
  std::string_view evidence_key;
  std::string_view missing, multiple, duplicate, too_long, too_short;  // multiple may be ""
  std::size_t min_length, max_length;  // in characters (code points)
  // A noindex page never shows a snippet, but every page needs a title (tabs, screen readers).
  bool even_if_noindex;
};

constexpr TextRule kTitle{"titles",
                          "title",
                          "title/missing",
                          "title/multiple",
                          "title/duplicate",
                          "title/too-long",
                          "title/too-short",
                          10,
                          60,
                          true};
constexpr TextRule kDescription{"descriptions",
                                "description",
                                "description/missing",
                                "",
                                "description/duplicate",
                                "description/too-long",
                                "description/too-short",
                                50,
                                160,
                                false};

// Search engines count characters, not bytes: a title in Cyrillic is not twice as long.
std::size_t CodePoints(std::string_view text) {
  std::size_t count = 0;
  for (char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

using Groups = std::unordered_map<std::string_view, std::vector<std::string_view>>;

void CheckLength(CheckContext& context, const TextRule& rule, const PageView& view,
                 std::string_view text) {
  const std::size_t length = CodePoints(text);
  if (length > rule.max_length) {
    context.Add(rule.too_long, view.url(),
                {{rule.evidence_key, text}, {"length", length}, {"max", rule.max_length}});
  } else if (length < rule.min_length) {
    context.Add(rule.too_short, view.url(),
                {{rule.evidence_key, text}, {"length", length}, {"min", rule.min_length}});
  }
}

// One page's text; returns it (trimmed) for the duplicate check, "" when it has none.
std::string_view CheckOne(CheckContext& context, const TextRule& rule, const PageView& view) {
  const std::vector<std::string_view> texts = StringsAt(view.details, rule.key);
  const std::string_view text = texts.empty() ? "" : core::TrimSpaces(texts.front());
  if (view.noindex && !rule.even_if_noindex) return "";
  if (text.empty()) {
    context.Add(rule.missing, view.url(), {});
    return "";
  }
  if (!rule.multiple.empty() && texts.size() > 1) {
    context.Add(rule.multiple, view.url(),
                {{rule.key, CappedStrings(texts)}, {"count", texts.size()}});
  }
  if (view.noindex) return "";
  CheckLength(context, rule, view, text);
  return text;
}

void ReportDuplicates(CheckContext& context, const TextRule& rule, const Groups& groups) {
  for (const auto& [text, urls] : groups) {
    if (urls.size() < 2) continue;
    for (std::string_view url : urls) {
      json::array others;
      for (std::string_view other : urls) {
        if (others.size() == kMaxSources) break;
        if (other != url) others.emplace_back(other);
      }
      context.Add(
          rule.duplicate, std::string(url),
          {{rule.evidence_key, text}, {"pages", std::move(others)}, {"count", urls.size()}});
    }
  }
}

void CheckText(CheckContext& context, const TextRule& rule) {
  Groups groups;
  for (const PageView& view : context.views()) {
    if (!view.html) continue;
    const std::string_view text = CheckOne(context, rule, view);
    if (!text.empty()) groups[text].push_back(view.url());
  }
  ReportDuplicates(context, rule, groups);
}

}  // namespace

void CheckTexts(CheckContext& context) {
  CheckText(context, kTitle);
  CheckText(context, kDescription);
}

}  // namespace sightline::site_audit::checks
