// JSON-LD checks for the site audit: each schema.org item on a page, with the properties
// Google's rich results require or recommend for its type that the item lacks. Pure functions;
// thread-safe.
#pragma once

#include <string>
#include <vector>

namespace sightline::site_audit {

struct StructuredDataItem {
  // The schema.org type without its vocabulary: "Product" for "Product",
  // "https://schema.org/Product" or "schema:Product"; other IRIs as written.
  std::string type;
  // Property names as schema.org spells them, in the table's order. "a|b|c" means one of them
  // is required and none is present.
  std::vector<std::string> missing_required;
  std::vector<std::string> missing_recommended;
};

struct StructuredDataReport {
  // One item per type of every node with an @type, top-level or nested, in document order
  // (a node typed ["Product", "Thing"] gives two). Types with no rich-result rules are listed
  // with nothing missing.
  std::vector<StructuredDataItem> items;
  // "block 2: syntax error at line 3, column 14", "block 1: empty". Blocks are numbered from 1.
  std::vector<std::string> parse_errors;
};

// `blocks` are the texts of a page's <script type="application/ld+json"> elements (HtmlFacts::
// json_ld). A block may hold an object, an array of them, or an @graph. At most 1,000 items are
// listed over all blocks.
StructuredDataReport CheckJsonLd(const std::vector<std::string>& blocks);

}  // namespace sightline::site_audit
