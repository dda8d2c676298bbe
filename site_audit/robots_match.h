// The path side of RFC 9309 (Robots Exclusion Protocol) §2.2.2-2.2.3: bringing robots.txt
// patterns and request paths to one percent-encoded form, and matching a pattern with `*`
// wildcards and a trailing `$` anchor against a path. Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace sightline::site_audit {

// `text` in the form RFC 9309 §2.2.2 compares: an escape of an unreserved character (RFC 3986
// ALPHA / DIGIT / "-" / "." / "_" / "~") is decoded ("%62" -> "b"), other escapes get uppercase
// hex ("%2f" -> "%2F"), and octets that cannot appear in a URI as they are (non-ASCII, controls,
// space, `"<>\^`{|}` and a `%` that starts no escape) are percent-encoded. Everything else,
// including `*` and `$`, is kept, so the same function serves patterns and paths.
std::string NormalizeRobotsPath(std::string_view text);

// Whether the normalized `pattern` matches a prefix of the normalized `path` (the whole path when
// the pattern ends with `$`). `*` matches any run of octets; `$` elsewhere is literal. Greedy and
// iterative (no backtracking): worst case O(|path| × longest literal run of the pattern).
bool RobotsPatternMatches(std::string_view pattern, std::string_view path);

}  // namespace sightline::site_audit
