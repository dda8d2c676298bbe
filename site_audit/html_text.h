// HTML's small text rules, as the audit's HTML reader applies them: "ASCII whitespace" (space,
// tab, LF, FF, CR), case-insensitive token lists (rel), whitespace collapsing for visible text,
// and the URLs of a srcset. Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::site_audit {

bool IsHtmlSpace(char c);
std::string_view TrimHtmlSpace(std::string_view text);

// Whether the whitespace-separated token list `list` (a rel value) holds `token`, in any case.
bool HasToken(std::string_view list, std::string_view token);

// Visible text is built in pieces: AppendCollapsed adds a piece with whitespace runs collapsed
// to one space and no leading space, stopping a few bytes past `max_bytes`; FinishCollapsed then
// cuts it to `max_bytes` at a UTF-8 character boundary and drops a trailing space.
void AppendCollapsed(std::string& out, std::string_view text, std::size_t max_bytes);
std::string& FinishCollapsed(std::string& text, std::size_t max_bytes);
std::string CollapsedText(std::string_view text, std::size_t max_bytes);
// The size CollapsedText would give `text`, uncapped, without building it.
std::size_t CollapsedSize(std::string_view text);

// The URL of each image candidate in a srcset, in order (HTML "parse a srcset attribute").
std::vector<std::string_view> SrcsetUrls(std::string_view srcset);

}  // namespace sightline::site_audit
