#include "site_audit/llms_txt.h"

#include "core/text.h"

#include <algorithm>
#include <optional>

namespace sightline::site_audit {
namespace {

// An ATX heading's level (1-6) and text, or level 0 for any other line (CommonMark §4.2: up to
// three spaces of indent, then 1-6 '#' followed by a space, a tab or the line end).
struct Heading {
  int level = 0;
  std::string_view text;
};

Heading ParseHeading(std::string_view line) {
  const auto start = line.find_first_not_of(' ');
  if (start == std::string_view::npos || start > 3 || line[start] != '#') return {};
  line.remove_prefix(start);
  const auto hashes = std::min(line.find_first_not_of('#'), line.size());
  if (hashes > 6 || (hashes < line.size() && line[hashes] != ' ' && line[hashes] != '\t')) {
    return {};
  }
  std::string_view text = core::TrimSpaces(line.substr(hashes));
  // An optional closing run of '#' is not part of the text.
  const auto closing = text.find_last_not_of('#');
  if (closing == std::string_view::npos) return {static_cast<int>(hashes), {}};
  if (closing + 1 < text.size() && (text[closing] == ' ' || text[closing] == '\t')) {
    text = core::TrimSpaces(text.substr(0, closing + 1));
  }
  return {static_cast<int>(hashes), text};
}

bool IsFence(std::string_view trimmed) {
  return trimmed.starts_with("```") || trimmed.starts_with("~~~");
}

// The text of a bullet list item ("- x", "* x", "+ x") and whether it is indented (nested).
struct ListItem {
  std::string_view text;
  bool nested = false;
};

std::optional<ListItem> ParseListItem(std::string_view line) {
  const auto start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos || start + 1 >= line.size()) return std::nullopt;
  const char bullet = line[start];
  if ((bullet != '-' && bullet != '*' && bullet != '+') ||
      (line[start + 1] != ' ' && line[start + 1] != '\t')) {
    return std::nullopt;
  }
  return ListItem{core::TrimSpaces(line.substr(start + 1)), start >= 2};
}

// A run between `open` and its matching `close` at the front of `text`, nesting counted.
std::optional<std::string_view> Bracketed(std::string_view text, char open, char close) {
  if (text.empty() || text.front() != open) return std::nullopt;
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == open) {
      ++depth;
    } else if (text[i] == close && --depth == 0) {
      return text.substr(1, i - 1);
    }
  }
  return std::nullopt;
}

struct MarkdownLink {
  std::string_view name, url;
};

// `[name](url "title")` at the front of a list item.
std::optional<MarkdownLink> ParseLeadingLink(std::string_view item) {
  const auto name = Bracketed(item, '[', ']');
  if (!name) return std::nullopt;
  const auto target = Bracketed(item.substr(name->size() + 2), '(', ')');
  if (!target) return std::nullopt;
  std::string_view url = core::TrimSpaces(*target);
  url = url.substr(0, url.find_first_of(" \t"));
  if (url.size() >= 2 && url.front() == '<' && url.back() == '>')
    url = url.substr(1, url.size() - 2);
  return MarkdownLink{core::TrimSpaces(*name), url};
}

std::string At(int line, std::string_view sentence) {
  return "line " + std::to_string(line) + ": " + std::string(sentence);
}

class LlmsTxtChecker {
 public:
  // Returns false when the rest of the file is not worth reading.
  bool Line(int number, std::string_view text) {
    const std::string_view trimmed = core::TrimSpaces(text);
    if (in_fence_) {
      in_fence_ = !IsFence(trimmed);
      return true;
    }
    if (trimmed.empty()) return true;
    if (first_line_ == 0) {
      first_line_ = number;
      if (trimmed.front() == '<') {
        report_.problems.push_back(At(number, "the file looks like HTML, not Markdown"));
        looks_like_html_ = true;
        return false;
      }
    }
    if (IsFence(trimmed)) {
      in_fence_ = true;
      summary_open_ = false;
      return true;
    }
    const Heading heading = ParseHeading(text);
    if (heading.level == 1) return Title(number, heading.text);
    if (heading.level == 2) return Section(number, heading.text);
    if (!section_.has_value() && summary_open_ && trimmed.front() == '>') return Summary(trimmed);
    summary_open_ = false;
    if (section_.has_value()) Item(number, text);
    return true;
  }

  LlmsTxtReport Finish() && {
    if (first_line_ == 0) {
      report_.problems.push_back(At(1, "the file is empty"));
    } else if (title_line_ == 0 && !looks_like_html_) {
      // First, as it is about the earliest line.
      report_.problems.insert(report_.problems.begin(),
                              At(first_line_, "the file must start with an H1 title"));
    }
    report_.well_formed = report_.problems.empty();
    return std::move(report_);
  }

 private:
  bool Title(int number, std::string_view text) {
    summary_open_ = false;
    if (title_line_ != 0) {
      report_.problems.push_back(At(number, "a second H1 title; only one is allowed"));
      return true;
    }
    title_line_ = number;
    report_.title = std::string(text);
    summary_open_ = !section_.has_value();
    if (number != first_line_) {
      report_.problems.push_back(At(number, "the H1 title must be the first non-blank line (line " +
                                                std::to_string(first_line_) + " comes before it)"));
    }
    if (text.empty()) report_.problems.push_back(At(number, "the H1 title is empty"));
    return true;
  }

  bool Section(int number, std::string_view name) {
    summary_open_ = false;
    section_ = std::string(name);
    report_.sections.push_back(*section_);
    if (name.empty()) report_.problems.push_back(At(number, "an H2 section without a name"));
    return true;
  }

  bool Summary(std::string_view trimmed) {
    trimmed = core::TrimSpaces(trimmed.substr(1));
    if (trimmed.empty()) return true;
    if (!report_.summary.empty()) report_.summary += ' ';
    report_.summary += trimmed;
    return true;
  }

  void Item(int number, std::string_view text) {
    const auto item = ParseListItem(text);
    if (!item || item->nested) return;
    const auto link = ParseLeadingLink(item->text);
    if (!link) {
      report_.problems.push_back(At(number, "the list item in section \"" + *section_ +
                                                "\" is not a markdown link [name](url)"));
      return;
    }
    if (link->url.empty()) {
      report_.problems.push_back(
          At(number, "the link \"" + std::string(link->name) + "\" has an empty URL"));
      return;
    }
    ++report_.link_count;
    report_.links.emplace_back(link->url);
    if (core::ToLowerAscii(*section_) == "optional") ++report_.optional_link_count;
  }

  LlmsTxtReport report_;
  int first_line_ = 0;  // the first non-blank line
  int title_line_ = 0;
  bool in_fence_ = false;
  bool looks_like_html_ = false;        // then nothing else is reported
  bool summary_open_ = false;           // right after the H1, where the blockquote may stand
  std::optional<std::string> section_;  // the H2 being read
};

}  // namespace

LlmsTxtReport CheckLlmsTxt(std::string_view body) {
  if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);
  LlmsTxtChecker checker;
  int number = 1;
  std::size_t start = 0;
  while (start <= body.size()) {
    auto end = body.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = body.size();
    if (!checker.Line(number++, body.substr(start, end - start))) break;
    if (end + 1 < body.size() && body[end] == '\r' && body[end + 1] == '\n') ++end;
    start = end + 1;
  }
  return std::move(checker).Finish();
}

}  // namespace sightline::site_audit
