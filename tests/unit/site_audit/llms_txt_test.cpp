// llms.txt structure per llmstxt.org: the H1, summary, sections, links and each problem.
#include "site_audit/llms_txt.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sightline::site_audit {
namespace {

using Strings = std::vector<std::string>;

// The example on llmstxt.org, abridged.
constexpr char kExample[] =
    "# FastHTML\n"
    "\n"
    "> FastHTML is a python library which brings together Starlette, Uvicorn, HTMX, and\n"
    "> fastcore's `FT` \"FastTags\" into a library for server-rendered hypermedia applications.\n"
    "\n"
    "Important notes:\n"
    "\n"
    "- Although parts of its API are inspired by FastAPI, it is *not* compatible with it\n"
    "- FastHTML is compatible with JS-native web components and any vanilla JS library\n"
    "\n"
    "## Docs\n"
    "\n"
    "- [FastHTML quick start](https://fastht.ml/docs/tutorials/quickstart.html.md): A brief "
    "overview of many FastHTML features\n"
    "- [HTMX reference](https://raw.githubusercontent.com/path/reference.md): All HTMX attributes\n"
    "\n"
    "## Examples\n"
    "\n"
    "- [Todo list application](https://raw.githubusercontent.com/path/adv_app.py)\n"
    "\n"
    "## Optional\n"
    "\n"
    "- [Starlette full documentation](https://gist.githubusercontent.com/path/starlette-sml.md): "
    "A subset of the Starlette documentation\n";

TEST(LlmsTxt, TheLlmstxtOrgExampleIsWellFormed) {
  const LlmsTxtReport report = CheckLlmsTxt(kExample);
  EXPECT_TRUE(report.well_formed);
  EXPECT_TRUE(report.problems.empty());
  EXPECT_EQ(report.title, "FastHTML");
  EXPECT_EQ(report.summary,
            "FastHTML is a python library which brings together Starlette, Uvicorn, HTMX, and "
            "fastcore's `FT` \"FastTags\" into a library for server-rendered hypermedia "
            "applications.");
  EXPECT_EQ(report.sections, (Strings{"Docs", "Examples", "Optional"}));
  EXPECT_EQ(report.link_count, 4);
  EXPECT_EQ(report.optional_link_count, 1);
  EXPECT_EQ(report.links, (Strings{"https://fastht.ml/docs/tutorials/quickstart.html.md",
                                   "https://raw.githubusercontent.com/path/reference.md",
                                   "https://raw.githubusercontent.com/path/adv_app.py",
                                   "https://gist.githubusercontent.com/path/starlette-sml.md"}));
}

TEST(LlmsTxt, OnlyTheTitleIsRequired) {
  const LlmsTxtReport report = CheckLlmsTxt("\n\n# Just a name #\n");
  EXPECT_TRUE(report.well_formed);
  EXPECT_EQ(report.title, "Just a name");  // the closing run of '#' is not part of it
  EXPECT_EQ(report.link_count, 0);
  EXPECT_TRUE(report.sections.empty());
}

TEST(LlmsTxt, EmptyFile) {
  for (const char* body : {"", " \n\t\n"}) {
    const LlmsTxtReport report = CheckLlmsTxt(body);
    EXPECT_FALSE(report.well_formed);
    EXPECT_EQ(report.problems, Strings{"line 1: the file is empty"});
  }
}

TEST(LlmsTxt, HtmlIsReportedAlone) {
  const LlmsTxtReport report =
      CheckLlmsTxt("\n  \n<!DOCTYPE html>\n<html><body># x</body></html>\n");
  EXPECT_FALSE(report.well_formed);
  EXPECT_EQ(report.problems, Strings{"line 3: the file looks like HTML, not Markdown"});
}

TEST(LlmsTxt, MissingTitle) {
  const LlmsTxtReport report =
      CheckLlmsTxt("#NotAHeading\n## Docs\n- [Guide](https://example.com/guide.md)\n");
  EXPECT_FALSE(report.well_formed);
  EXPECT_EQ(report.problems, Strings{"line 1: the file must start with an H1 title"});
  EXPECT_EQ(report.title, "");
  EXPECT_EQ(report.link_count, 1);  // the rest is still read
}

TEST(LlmsTxt, TitleNotFirst) {
  const LlmsTxtReport report = CheckLlmsTxt("Welcome!\n\n# Site\n> Summary\n");
  EXPECT_FALSE(report.well_formed);
  EXPECT_EQ(report.problems,
            Strings{"line 3: the H1 title must be the first non-blank line (line 1 comes before "
                    "it)"});
  EXPECT_EQ(report.title, "Site");
  EXPECT_EQ(report.summary, "Summary");
}

TEST(LlmsTxt, SecondTitle) {
  const LlmsTxtReport report = CheckLlmsTxt("# One\n\ntext\n# Two\n");
  EXPECT_EQ(report.problems, Strings{"line 4: a second H1 title; only one is allowed"});
  EXPECT_EQ(report.title, "One");
}

TEST(LlmsTxt, SectionItemsMustBeLinks) {
  const LlmsTxtReport report = CheckLlmsTxt(
      "# Site\n"
      "## Docs\n"
      "Some prose in a section is fine.\n"
      "- just words\n"
      "- [Guide]()\n"
      "- [API](<https://example.com/api.md> \"The API\"): notes\n"
      "  - a nested note need not be a link\n"
      "* [Other bullet](https://example.com/o.md)\n");
  EXPECT_FALSE(report.well_formed);
  EXPECT_EQ(report.problems,
            (Strings{"line 4: the list item in section \"Docs\" is not a markdown link [name](url)",
                     "line 5: the link \"Guide\" has an empty URL"}));
  EXPECT_EQ(report.links, (Strings{"https://example.com/api.md", "https://example.com/o.md"}));
  EXPECT_EQ(report.link_count, 2);
}

TEST(LlmsTxt, CodeFencesAreNotStructure) {
  const LlmsTxtReport report = CheckLlmsTxt(
      "# Tool\n"
      "```bash\n"
      "# install it\n"
      "- not a list\n"
      "```\n"
      "## Docs\n"
      "~~~\n"
      "- also not a list\n"
      "~~~\n"
      "- [Docs](https://example.com/docs.md)\n");
  EXPECT_TRUE(report.well_formed) << report.problems.front();
  EXPECT_EQ(report.link_count, 1);
}

TEST(LlmsTxt, BomAndCrlf) {
  const LlmsTxtReport report = CheckLlmsTxt(
      "\xEF\xBB\xBF# Site\r\n\r\n> One\r\n> two\r\n## Docs\r\n- [x](https://e.test/x): notes\r\n"
      "- words\r\n");
  EXPECT_EQ(report.title, "Site");
  EXPECT_EQ(report.summary, "One two");
  EXPECT_EQ(report.links, Strings{"https://e.test/x"});
  EXPECT_EQ(
      report.problems,
      Strings{"line 7: the list item in section \"Docs\" is not a markdown link [name](url)"});
}

TEST(LlmsTxt, SummaryOnlyRightAfterTheTitle) {
  const LlmsTxtReport report = CheckLlmsTxt("# Site\nText first.\n> a later quote\n");
  EXPECT_TRUE(report.well_formed);
  EXPECT_EQ(report.summary, "");
}

}  // namespace
}  // namespace sightline::site_audit
