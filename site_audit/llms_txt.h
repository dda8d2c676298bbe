// Well-formedness of an llms.txt file as llmstxt.org describes it: an H1 with the site or
// project name (the only required part, and the first thing in the file), then optionally a
// blockquote summary, free text without headings, and H2 sections whose list items are links
// `- [name](url)` optionally followed by `: notes`. Links under `## Optional` may be skipped by
// agents short of context. Lines inside fenced code blocks are not read as structure; nested
// (indented) list items are not required to be links. Pure function; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sightline::site_audit {

struct LlmsTxtReport {
  bool well_formed = false;           // no problems
  std::string title;                  // the H1 text
  std::string summary;                // the blockquote after the H1, its lines joined by spaces
  std::vector<std::string> sections;  // H2 names, in order
  int link_count = 0;                 // list-item links in H2 sections
  std::vector<std::string> links;     // their URLs, as written, in order
  int optional_link_count = 0;        // those of them under "## Optional"
  // Sentences naming a line, e.g. "line 1: the file must start with an H1 title".
  std::vector<std::string> problems;
};

// REQUIRES: `body` is the file's bytes (a UTF-8 BOM and CR/CRLF/LF line ends are accepted).
LlmsTxtReport CheckLlmsTxt(std::string_view body);

}  // namespace sightline::site_audit
