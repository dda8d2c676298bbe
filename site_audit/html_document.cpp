#include "site_audit/html_document.h"

#include "site_audit/gumbo_parse.h"
#include "site_audit/html_text.h"
#include "core/http_types.h"
#include "core/text.h"

#include <gumbo.h>

#include <algorithm>
#include <cstdint>

namespace sightline::site_audit {
namespace {

// Collected texts are capped at kHtmlMaxTextBytes.
void Append(std::string& out, std::string_view text) {
  AppendCollapsed(out, text, kHtmlMaxTextBytes);
}
void Finish(std::string& text) { FinishCollapsed(text, kHtmlMaxTextBytes); }
std::string Collapsed(std::string_view text) { return CollapsedText(text, kHtmlMaxTextBytes); }

std::string WithThousands(std::size_t n) {
  std::string digits = std::to_string(n);
  for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > 0; at -= 3) {
    digits.insert(static_cast<std::size_t>(at), ",");
  }
  return digits;
}

// Budgets an honest page stays well inside: gumbo parses ~15 MB/s here and takes 15-65 times the
// input in memory on dense markup.
std::size_t MemoryBudget(std::size_t input_bytes) { return (32u << 20) + 80 * input_bytes; }
std::int64_t CpuBudgetNanos(std::size_t input_bytes) {
  return 500'000'000 + static_cast<std::int64_t>(input_bytes) * 250'000'000 / (1 << 20);
}
// After an abandoned parse the next try reads 1/16 of the bytes: the costly paths are quadratic,
// so that is ~1/256 of the work, and a page's <head> is in any prefix.
constexpr int kParseAttempts = 3;
constexpr std::size_t kRetryDivisor = 16;

// --- Reading the tree ---

std::string_view Attribute(const GumboElement& element, const char* name) {
  const GumboAttribute* attribute = gumbo_get_attribute(&element.attributes, name);
  return attribute == nullptr ? std::string_view() : std::string_view(attribute->value);
}

bool HasAttribute(const GumboElement& element, const char* name) {
  return gumbo_get_attribute(&element.attributes, name) != nullptr;
}

const GumboVector& Children(const GumboNode& node) {
  return node.type == GUMBO_NODE_DOCUMENT ? node.v.document.children : node.v.element.children;
}

// Builds HtmlFacts in one pre-order walk over the tree with an explicit stack (the tree can be
// as deep as the page has start tags). Text goes to the innermost open <title>, <h1> and link,
// so invalid nesting (a link inside a link through <object>) costs nothing extra.
class FactsBuilder {
 public:
  explicit FactsBuilder(HtmlFacts& facts) : facts_(facts) {}

  void Walk(const GumboNode& document) {
    struct Frame {
      const GumboNode* node;
      unsigned next_child;
      Capture saved;  // the captures to restore on leaving this node
    };
    std::vector<Frame> stack{{&document, 0, capture_}};
    while (!stack.empty()) {
      Frame& top = stack.back();
      const GumboVector& children = Children(*top.node);
      if (top.next_child == children.length) {
        Leave(top.saved);
        stack.pop_back();
        continue;
      }
      const auto& child = *static_cast<const GumboNode*>(children.data[top.next_child++]);
      if (child.type == GUMBO_NODE_ELEMENT) {
        const Capture saved = capture_;
        Enter(child);
        stack.push_back({&child, 0, saved});
      } else if (child.type != GUMBO_NODE_COMMENT && child.type != GUMBO_NODE_TEMPLATE) {
        Text(child.v.text.text);  // TEXT, CDATA, WHITESPACE; <template> content is inert
      }
    }
  }

 private:
  // Indexes of the entries open text goes to, -1 for none.
  struct Capture {
    std::ptrdiff_t title = -1, h1 = -1, link = -1;
    // Inside <head>, <title>, <script>, <style>, <noscript>, or an SVG/MathML style, script,
    // title or desc: text that is not shown on the page.
    bool hidden = false;
  };

  // Whether `list` may take one more entry; notes the first refusal in the problems.
  template <class T>
  bool Room(const std::vector<T>& list, std::string_view what) {
    if (list.size() < kHtmlMaxItems) return true;
    std::string problem = "more than " + WithThousands(kHtmlMaxItems) + " " + std::string(what) +
                          ": the rest were ignored";
    auto& problems = facts_.problems;
    if (std::find(problems.begin(), problems.end(), problem) == problems.end()) {
      problems.push_back(std::move(problem));
    }
    return false;
  }

  void AddSubresource(std::string_view url) {
    url = TrimHtmlSpace(url);
    if (!url.empty() && Room(facts_.subresources, "subresources")) {
      facts_.subresources.emplace_back(url);
    }
  }

  void Text(std::string_view text) {
    if (capture_.title >= 0) Append(facts_.titles[capture_.title], text);
    if (capture_.hidden) return;
    facts_.text_bytes += CollapsedSize(text);
    if (capture_.h1 >= 0) Append(facts_.h1s[capture_.h1], text);
    if (capture_.link >= 0) Append(facts_.links[capture_.link].text, text);
  }

  // Finishes the texts the node being left opened, then restores its parent's captures.
  void Leave(const Capture& saved) {
    if (capture_.title != saved.title) Finish(facts_.titles[capture_.title]);
    if (capture_.h1 != saved.h1) Finish(facts_.h1s[capture_.h1]);
    if (capture_.link != saved.link) Finish(facts_.links[capture_.link].text);
    capture_ = saved;
  }

  void Enter(const GumboNode& node) {
    const GumboElement& element = node.v.element;
    if (element.tag_namespace != GUMBO_NAMESPACE_HTML) return EnterForeign(element);
    switch (element.tag) {
      case GUMBO_TAG_HTML:
        if (node.parent->type == GUMBO_NODE_DOCUMENT && HasAttribute(element, "lang")) {
          facts_.lang = std::string(TrimHtmlSpace(Attribute(element, "lang")));
        }
        return;
      case GUMBO_TAG_HEAD:
      case GUMBO_TAG_STYLE:
      case GUMBO_TAG_NOSCRIPT:
        capture_.hidden = true;
        return;
      case GUMBO_TAG_TITLE:  // the tab's text, not the page's
        capture_.hidden = true;
        if (Room(facts_.titles, "titles")) capture_.title = Open(facts_.titles);
        return;
      case GUMBO_TAG_H1:
        if (Room(facts_.h1s, "h1 headings")) capture_.h1 = Open(facts_.h1s);
        return;
      case GUMBO_TAG_A:
        return EnterLink(element);
      case GUMBO_TAG_AREA:
        return EnterArea(element);
      case GUMBO_TAG_IMG:
        return EnterImage(element);
      case GUMBO_TAG_META:
        return EnterMeta(element);
      case GUMBO_TAG_LINK:
        return EnterLinkElement(element);
      case GUMBO_TAG_SCRIPT:
        return EnterScript(node);
      case GUMBO_TAG_BASE:
        if (facts_.base_href || !HasAttribute(element, "href")) return;
        facts_.base_href = std::string(TrimHtmlSpace(Attribute(element, "href")));
        return;
      default:
        return EnterEmbedding(element);
    }
  }

  // SVG and MathML: links, and no visible text in code or tooltips.
  void EnterForeign(const GumboElement& element) {
    switch (element.tag) {
      case GUMBO_TAG_A:
        return EnterLink(element);  // SVG's xlink:href is read as href
      case GUMBO_TAG_STYLE:
      case GUMBO_TAG_SCRIPT:
      case GUMBO_TAG_TITLE:
      case GUMBO_TAG_DESC:
        capture_.hidden = true;
        return;
      default:
        return;
    }
  }

  static std::ptrdiff_t Open(std::vector<std::string>& texts) {
    texts.emplace_back();
    return static_cast<std::ptrdiff_t>(texts.size()) - 1;
  }

  void EnterLink(const GumboElement& element) {
    if (!HasAttribute(element, "href") || !Room(facts_.links, "links")) return;
    HtmlLink link;
    link.href = TrimHtmlSpace(Attribute(element, "href"));
    link.rel = Attribute(element, "rel");
    link.nofollow = HasToken(link.rel, "nofollow");
    facts_.links.push_back(std::move(link));
    capture_.link = static_cast<std::ptrdiff_t>(facts_.links.size()) - 1;
  }

  // An image-map area has no content: its alt is its text.
  void EnterArea(const GumboElement& element) {
    EnterLink(element);
    if (capture_.link >= 0 && HasAttribute(element, "href")) {
      Append(facts_.links[capture_.link].text, Attribute(element, "alt"));
    }
  }

  void EnterImage(const GumboElement& element) {
    const std::string_view src = TrimHtmlSpace(Attribute(element, "src"));
    AddSubresource(src);
    for (const std::string_view url : SrcsetUrls(Attribute(element, "srcset"))) {
      AddSubresource(url);
    }
    if (!Room(facts_.images, "images")) return;
    HtmlImage image;
    image.src = src;
    if (HasAttribute(element, "alt")) {
      image.alt = std::string(Attribute(element, "alt"));
      // An image's alt is the text it stands for in a link or heading.
      if (capture_.link >= 0) Append(facts_.links[capture_.link].text, *image.alt);
      if (capture_.h1 >= 0) Append(facts_.h1s[capture_.h1], *image.alt);
    }
    facts_.images.push_back(std::move(image));
  }

  void EnterMeta(const GumboElement& element);
  void EnterLinkElement(const GumboElement& element);
  void EnterScript(const GumboNode& node);
  void EnterEmbedding(const GumboElement& element);

  HtmlFacts& facts_;
  Capture capture_;
};

void FactsBuilder::EnterMeta(const GumboElement& element) {
  const std::string name = core::ToLowerAscii(TrimHtmlSpace(Attribute(element, "name")));
  const std::string_view content = TrimHtmlSpace(Attribute(element, "content"));
  const std::string key =
      name.empty() ? core::ToLowerAscii(TrimHtmlSpace(Attribute(element, "property"))) : name;
  if (!key.empty() && Room(facts_.metas, "meta tags")) {
    facts_.metas.emplace_back(key, Collapsed(content));
  }
  if (name == "viewport") facts_.has_viewport = true;
  if (name == "description" && Room(facts_.meta_descriptions, "meta descriptions")) {
    facts_.meta_descriptions.push_back(Collapsed(content));
  }
  if (name != "robots" && name != "serviceauditbot") return;
  const std::string directives = core::ToLowerAscii(content);
  std::string_view rest = directives;
  while (!rest.empty()) {
    const std::size_t comma = std::min(rest.find(','), rest.size());
    const std::string_view directive = TrimHtmlSpace(rest.substr(0, comma));
    rest.remove_prefix(std::min(comma + 1, rest.size()));
    if (directive.empty()) continue;
    if (!Room(facts_.robots_directives, "robots directives")) return;
    facts_.robots_directives.emplace_back(directive);
  }
}

void FactsBuilder::EnterLinkElement(const GumboElement& element) {
  const std::string_view rel = Attribute(element, "rel");
  if (!HasAttribute(element, "href")) return;
  const std::string_view href = TrimHtmlSpace(Attribute(element, "href"));
  if (HasToken(rel, "canonical") && Room(facts_.canonicals, "canonical links")) {
    facts_.canonicals.emplace_back(href);
  }
  if (HasToken(rel, "alternate") && HasAttribute(element, "hreflang") &&
      Room(facts_.alternates, "hreflang alternates")) {
    facts_.alternates.push_back(
        {std::string(TrimHtmlSpace(Attribute(element, "hreflang"))), std::string(href)});
  }
  for (const char* loaded : {"stylesheet", "icon", "preload", "modulepreload", "manifest"}) {
    if (HasToken(rel, loaded)) return AddSubresource(href);
  }
}

void FactsBuilder::EnterScript(const GumboNode& node) {
  const GumboElement& element = node.v.element;
  capture_.hidden = true;
  AddSubresource(Attribute(element, "src"));
  // The MIME type's essence: "application/ld+json; charset=utf-8" counts.
  std::string_view type = Attribute(element, "type");
  type = TrimHtmlSpace(type.substr(0, type.find(';')));
  if (!core::EqualsIgnoreCase(type, "application/ld+json") || !Room(facts_.json_ld, "JSON-LD blocks")) {
    return;
  }
  std::string text;
  for (unsigned i = 0; i < element.children.length; ++i) {
    const auto& child = *static_cast<const GumboNode*>(element.children.data[i]);
    if (child.type == GUMBO_NODE_TEXT || child.type == GUMBO_NODE_WHITESPACE) {
      text += child.v.text.text;
    }
  }
  facts_.json_ld.push_back(std::move(text));
}

// Elements that load a resource (the mixed-content check's subresources), besides img, script
// and link.
void FactsBuilder::EnterEmbedding(const GumboElement& element) {
  switch (element.tag) {
    case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_EMBED:
    case GUMBO_TAG_AUDIO:
    case GUMBO_TAG_TRACK:
      return AddSubresource(Attribute(element, "src"));
    case GUMBO_TAG_VIDEO:
      AddSubresource(Attribute(element, "src"));
      return AddSubresource(Attribute(element, "poster"));
    case GUMBO_TAG_SOURCE:
      AddSubresource(Attribute(element, "src"));
      for (const std::string_view url : SrcsetUrls(Attribute(element, "srcset"))) {
        AddSubresource(url);
      }
      return;
    case GUMBO_TAG_INPUT:
      if (core::EqualsIgnoreCase(TrimHtmlSpace(Attribute(element, "type")), "image")) {
        AddSubresource(Attribute(element, "src"));
      }
      return;
    case GUMBO_TAG_OBJECT:
      return AddSubresource(Attribute(element, "data"));
    case GUMBO_TAG_FORM:
      return AddSubresource(Attribute(element, "action"));
    default:
      return;
  }
}

std::string AbandonedProblem(GumboParse::Outcome outcome, std::size_t kept_bytes) {
  std::string problem = outcome == GumboParse::Outcome::kOverCpu
                            ? "the markup took too long to parse"
                            : "the markup took too much memory to parse";
  problem += " (typically tags nested tens of thousands deep, or formatting tags reopened over "
             "and over): ";
  if (kept_bytes == 0) return problem + "the page was not read";
  return problem + "only the first " + WithThousands(kept_bytes) + " bytes were read";
}

}  // namespace

HtmlFacts ParseHtml(std::string_view html) {
  HtmlFacts facts;
  std::string_view input = html.substr(0, kHtmlMaxBytes);
  if (html.size() > kHtmlMaxBytes) {
    facts.problems.push_back("larger than 15 MB: only the first 15 MB were parsed");
  }
  std::optional<GumboParse::Outcome> abandoned;
  for (int attempt = 0; attempt < kParseAttempts; ++attempt) {
    const GumboParse parse(input, MemoryBudget(input.size()), CpuBudgetNanos(input.size()));
    if (parse.output() == nullptr) {
      abandoned = parse.outcome();
      input = input.substr(0, input.size() / kRetryDivisor);
      continue;
    }
    if (abandoned) facts.problems.push_back(AbandonedProblem(*abandoned, input.size()));
    FactsBuilder(facts).Walk(*parse.output()->document);
    return facts;
  }
  facts.problems.push_back(AbandonedProblem(*abandoned, 0));
  return facts;
}

}  // namespace sightline::site_audit
