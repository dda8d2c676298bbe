#include "site_audit/sitemap.h"

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <climits>

namespace sightline::site_audit {
namespace {

using Kind = SitemapParse::Kind;

constexpr std::string_view kSitemapNamespace = "http://www.sitemaps.org/schemas/sitemap/0.9";
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
constexpr std::size_t kMaxProblems = 100;
constexpr std::size_t kMaxLocBytes = 2048;  // sitemaps.org: "less than 2,048 characters"

static_assert(kSitemapMaxBytes <= INT_MAX, "libxml2 takes the size as an int");

void AddProblem(SitemapParse& out, std::string problem) {
  if (out.problems.size() < kMaxProblems) {
    out.problems.push_back(std::move(problem));
  } else if (out.problems.size() == kMaxProblems) {
    out.problems.push_back("more problems were not listed");
  }
}

std::string AtLine(int line, std::string_view what) {
  return "line " + std::to_string(line) + ": " + std::string(what);
}

bool IsXmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view Trim(std::string_view text) {
  while (!text.empty() && IsXmlSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsXmlSpace(text.back())) text.remove_suffix(1);
  return text;
}

bool StartsWithIgnoreCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    const char c = text[i];
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != prefix[i]) return false;
  }
  return true;
}

bool IsHttpUrl(std::string_view text) {
  return StartsWithIgnoreCase(text, "http://") || StartsWithIgnoreCase(text, "https://");
}

// Adds `location` unless the cap is reached; false once it is (the caller stops reading).
bool AddLocation(SitemapParse& out, std::string location, std::string_view noun) {
  if (out.locations.size() == kSitemapMaxUrls) {
    out.truncated = true;
    AddProblem(out, "more than 50,000 " + std::string(noun) + ": the rest were ignored");
    return false;
  }
  out.locations.push_back(std::move(location));
  return true;
}

// --- Text sitemaps ---

void ParseText(std::string_view body, SitemapParse& out) {
  out.kind = Kind::kText;
  int line_number = 0;
  while (!body.empty()) {
    const std::size_t end = std::min(body.find('\n'), body.size());
    const std::string_view line = Trim(body.substr(0, end));
    body.remove_prefix(std::min(end + 1, body.size()));
    ++line_number;
    if (line.empty()) continue;
    if (!IsHttpUrl(line)) {
      AddProblem(out, AtLine(line_number, "not an absolute http(s) URL"));
    } else if (!AddLocation(out, std::string(line), "URLs")) {
      return;
    }
  }
  if (out.locations.empty()) {
    out.kind = Kind::kInvalid;
    AddProblem(out, "no line is a URL");
  }
}

// --- XML sitemaps ---

// libxml2 asks to be initialised once before parsing on several threads; a function-local
// static makes that happen once, race-free, on first use.
void InitLibxml() {
  static const bool initialized = [] {
    xmlInitParser();
    return true;
  }();
  (void)initialized;
}

std::string_view View(const xmlChar* text, int length = -1) {
  if (text == nullptr) return {};
  const auto* chars = reinterpret_cast<const char*>(text);
  return length < 0 ? std::string_view(chars) : std::string_view(chars, length);
}

// SAX callbacks following root > entry > loc. Entries (<url> in a urlset, <sitemap> in an index)
// and their <loc> count only in the root's namespace, so extension elements such as <image:loc>
// or <xhtml:link href> are never locations. SAX rather than xmlTextReader because the reader
// parses ahead and drops the nodes before a well-formedness error. The handler has no entity
// callbacks at all: declared entities are never stored, so never expanded or fetched.
class XmlSitemapReader {
 public:
  explicit XmlSitemapReader(SitemapParse& out) : out_(out) {}

  void Parse(std::string_view body) {
    xmlSAXHandler handler{};
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = &OnStart;
    handler.endElementNs = &OnEnd;
    handler.characters = handler.ignorableWhitespace = handler.cdataBlock = &OnText;
    handler.internalSubset = &OnDoctype;
    handler.serror = &OnError;
    // The first bytes go in at creation so that libxml2 detects the encoding (UTF-16 too).
    const int head = static_cast<int>(std::min<std::size_t>(body.size(), 4));
    ctxt_ = xmlCreatePushParserCtxt(&handler, this, body.data(), head, nullptr);
    if (ctxt_ == nullptr) return AddProblem(out_, "the XML parser could not start");
    // No XML_PARSE_NOENT, DTDLOAD, DTDATTR or DTDVALID; no XML_PARSE_HUGE, so libxml2 keeps
    // its size and depth limits; XML_PARSE_NONET in case anything still tried to fetch.
    xmlCtxtUseOptions(ctxt_, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlParseChunk(ctxt_, body.data() + head, static_cast<int>(body.size()) - head, 1);
    // For expat compatibility libxml2 records a DTD's entity declarations in a stand-in
    // document (looked up only when the SAX user data is the context itself, never here).
    if (ctxt_->myDoc != nullptr) xmlFreeDoc(ctxt_->myDoc);
    xmlFreeParserCtxt(ctxt_);
    if (out_.kind == Kind::kInvalid && !saw_error_ && !stopped_) {
      AddProblem(out_, "no root element");
    }
  }

 private:
  static XmlSitemapReader& Self(void* self) { return *static_cast<XmlSitemapReader*>(self); }

  static void OnStart(void* self, const xmlChar* name, const xmlChar* /*prefix*/,
                      const xmlChar* uri, int, const xmlChar**, int, int, const xmlChar**) {
    Self(self).Start(View(name), View(uri));
  }
  static void OnEnd(void* self, const xmlChar*, const xmlChar*, const xmlChar*) {
    Self(self).End();
  }
  static void OnText(void* self, const xmlChar* text, int length) {
    auto& reader = Self(self);
    if (reader.in_loc_ && reader.depth_ == 3) reader.loc_ += View(text, length);
  }
  static void OnDoctype(void* self, const xmlChar*, const xmlChar*, const xmlChar*) {
    Self(self).Problem("the sitemap has a DTD: its entities are not expanded");
  }
  static void OnError(void* self, xmlErrorPtr error) {
    if (error == nullptr || error->level < XML_ERR_ERROR) return;  // warnings are not problems
    auto& reader = Self(self);
    reader.saw_error_ = true;
    const std::string_view message = error->message == nullptr ? "malformed XML" : error->message;
    AddProblem(reader.out_, AtLine(error->line, Trim(message)));
  }

  void Problem(std::string_view what) { AddProblem(out_, AtLine(Line(), what)); }
  int Line() const { return xmlSAX2GetLineNumber(ctxt_); }
  void Stop() {
    stopped_ = true;
    xmlStopParser(ctxt_);
  }

  void Start(std::string_view name, std::string_view uri) {
    const int depth = depth_++;
    if (stopped_) return;
    if (depth == 0) return StartRoot(name, uri);
    if (depth == 1 && name == entry_name_ && uri == root_namespace_) {
      in_entry_ = true;
      has_loc_ = false;
      entry_line_ = Line();
    } else if (depth == 2 && in_entry_ && name == "loc" && uri == root_namespace_) {
      has_loc_ = in_loc_ = true;
      loc_.clear();
      loc_line_ = Line();
    }
  }

  void StartRoot(std::string_view name, std::string_view uri) {
    root_namespace_ = uri;
    if (name == "urlset") {
      out_.kind = Kind::kUrlSet;
      entry_name_ = "url";
    } else if (name == "sitemapindex") {
      out_.kind = Kind::kIndex;
      entry_name_ = "sitemap";
    } else {
      AddProblem(out_,
                 "the root element is <" + std::string(name) + ">, not <urlset> or <sitemapindex>");
      return Stop();
    }
    if (uri != kSitemapNamespace) {
      AddProblem(out_, "<" + std::string(name) + "> is not in the sitemaps.org namespace " +
                           std::string(kSitemapNamespace));
    }
  }

  void End() {
    const int depth = --depth_;
    if (stopped_) return;
    if (depth == 1 && in_entry_) {
      in_entry_ = false;
      if (!has_loc_) AddProblem(out_, AtLine(entry_line_, "<" + entry_name_ + "> without <loc>"));
    } else if (depth == 2 && in_loc_) {
      in_loc_ = false;
      EndLoc();
    }
  }

  void EndLoc() {
    const std::string_view loc = Trim(loc_);
    if (loc.empty()) return AddProblem(out_, AtLine(loc_line_, "empty <loc>"));
    if (!IsHttpUrl(loc)) {
      AddProblem(out_, AtLine(loc_line_, "<loc> is not an absolute http(s) URL"));
    }
    if (loc.size() >= kMaxLocBytes) {
      AddProblem(out_, AtLine(loc_line_, "<loc> is 2,048 characters or longer"));
    }
    const bool index = out_.kind == Kind::kIndex;
    if (!AddLocation(out_, std::string(loc), index ? "sitemaps" : "URLs")) Stop();
  }

  SitemapParse& out_;
  xmlParserCtxt* ctxt_ = nullptr;
  int depth_ = 0;
  std::string root_namespace_;
  std::string entry_name_;
  bool in_entry_ = false, has_loc_ = false, in_loc_ = false;
  int entry_line_ = 0, loc_line_ = 0;
  std::string loc_;
  bool saw_error_ = false, stopped_ = false;
};

// Whether the body is XML: its first character, after any byte order mark and whitespace, is
// '<', or it starts with a UTF-16 byte order mark.
bool LooksLikeXml(std::string_view body) {
  if (body.starts_with("\xFE\xFF") || body.starts_with("\xFF\xFE")) return true;
  if (body.starts_with(kUtf8Bom)) body.remove_prefix(3);
  body = Trim(body);
  return !body.empty() && body.front() == '<';
}

}  // namespace

bool LooksGzipped(std::string_view body) { return body.starts_with("\x1F\x8B"); }

SitemapParse ParseSitemap(std::string_view body) {
  SitemapParse out;
  if (LooksGzipped(body)) {
    AddProblem(out, "the body is gzip-compressed: it must be gunzipped first");
    return out;
  }
  if (body.size() > kSitemapMaxBytes) {
    out.truncated = true;
    AddProblem(out, "larger than 50 MB uncompressed: only the first 50 MB were read");
    body = body.substr(0, kSitemapMaxBytes);
  }
  const std::string_view content = body.starts_with(kUtf8Bom) ? body.substr(3) : body;
  if (Trim(content).empty()) {
    AddProblem(out, "empty");
  } else if (LooksLikeXml(body)) {
    InitLibxml();
    XmlSitemapReader(out).Parse(body);  // libxml2 reads byte order marks itself
  } else {
    ParseText(content, out);
  }
  return out;
}

}  // namespace sightline::site_audit
