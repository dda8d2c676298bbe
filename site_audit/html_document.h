// The facts a site audit reads from one HTML page (title, meta description, canonical, robots
// directives, headings, links, images, hreflang alternates, JSON-LD, subresources), taken from
// the tree an HTML5 parser builds, so unclosed and misnested markup is read as browsers read it.
// Pure functions; thread-safe.
//
// Hostile pages are expected: only the first kHtmlMaxBytes are parsed, each list stops at
// kHtmlMaxItems and each collected text at kHtmlMaxTextBytes, and a page whose parse outgrows
// its CPU or memory budget (markup nested tens of thousands deep, formatting elements reopened
// thousands of times: the HTML5 algorithms are quadratic there) is parsed again from a shorter
// prefix. Every such cut is reported in `problems`. (Gumbo 0.10 also aborts the process on some
// <svg>/<math> inside tables; see gumbo_parse.h for how that is avoided.)
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sightline::site_audit {

// Googlebot reads the first 15 MB of an HTML file; facts past that point do not count.
inline constexpr std::size_t kHtmlMaxBytes = 15 * 1024 * 1024;
// The most entries any one list in HtmlFacts keeps (links, images, subresources, metas, ...).
inline constexpr std::size_t kHtmlMaxItems = 10000;
// The longest title, heading, link text or meta content kept, cut at a character boundary.
inline constexpr std::size_t kHtmlMaxTextBytes = 4096;

struct HtmlLink {
  std::string href;       // as written, ASCII whitespace trimmed; not resolved against the base
  std::string text;       // visible text, whitespace collapsed, with the alt of images inside
  std::string rel;        // as written
  bool nofollow = false;  // rel holds the token "nofollow" (any case)
};

struct HtmlImage {
  std::string src;                 // "" when the attribute is absent
  std::optional<std::string> alt;  // nullopt when absent; "" is a deliberate empty alt
};

struct HtmlAlternate {
  std::string hreflang;  // as written, trimmed ("en-GB", "x-default")
  std::string href;
};

struct HtmlFacts {
  std::optional<std::string> lang;             // <html lang>, trimmed; nullopt when absent
  std::vector<std::string> titles;             // text of each HTML <title>, whitespace collapsed
  std::vector<std::string> meta_descriptions;  // content of each <meta name=description>
  std::vector<std::string> canonicals;  // href of each <link rel=canonical> (rel token, any case)
  // Content of <meta name=robots> and <meta name=serviceauditbot>, lowercased, split on commas,
  // trimmed: "noindex", "nofollow", "max-snippet:50".
  std::vector<std::string> robots_directives;
  std::vector<std::string> h1s;           // text of each <h1> (and alt of images), collapsed
  std::vector<HtmlLink> links;            // <a href> (HTML and SVG) and <area href>, in order
  std::vector<HtmlImage> images;          // every <img>
  std::vector<HtmlAlternate> alternates;  // <link rel=alternate hreflang=.. href=..>
  std::vector<std::string> json_ld;       // raw text of <script type="application/ld+json">
  // URLs the page loads, in document order, for the mixed-content check: img src and every
  // srcset candidate, source src/srcset, video poster, script src, link rel=stylesheet / icon /
  // preload / modulepreload / manifest href, iframe / embed / video / audio / track src,
  // input type=image src, object data, form action. Duplicates are kept.
  std::vector<std::string> subresources;
  // Every <meta> with a name, or else a property, lowercased, and its content (whitespace
  // collapsed): {"google-site-verification", "abc"}, {"og:title", "..."}.
  std::vector<std::pair<std::string, std::string>> metas;
  std::optional<std::string> base_href;  // href of the first <base href>, trimmed
  bool has_viewport = false;             // a <meta name=viewport> is present
  // Bytes of visible text: the UTF-8 of each text node outside <head>, <title>, <script>,
  // <style>, <noscript> and <template>, trimmed and with whitespace runs counted as one byte.
  std::size_t text_bytes = 0;
  // What was cut or not read: "more than 10,000 links: the rest were ignored", "larger than
  // 15 MB: only the first 15 MB were parsed", a parse abandoned for its cost. Empty normally.
  std::vector<std::string> problems;
};

// Parses any bytes (invalid UTF-8 becomes U+FFFD). Elements inside <template> are not part of
// the page and are skipped. Never fails: a page that cannot be parsed at all yields empty facts
// and a problem.
HtmlFacts ParseHtml(std::string_view html);

}  // namespace sightline::site_audit
