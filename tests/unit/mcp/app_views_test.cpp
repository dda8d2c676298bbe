#include "features/all_operations.h"
#include "mcp/app_views.h"

#include "mcp/tool_catalog.h"
#include "tools/operation.h"
#include "tools/registry.h"

#include <gtest/gtest.h>

namespace sightline::mcp {
namespace {

namespace json = boost::json;

AppViews Reports() {
  return AppViews({{.name = "reports",
                    .title = "Report",
                    .description = "Charts",
                    .html = "<!doctype html><p>view</p>",
                    .digest_hex = "0123456789abcdef0123",
                    .tools = {"get_web_analytics", "get_top_bots"}}});
}

TEST(AppViews, TheUriIsVersionedByTheDigest) {
  const AppViews views = Reports();
  ASSERT_NE(views.ViewOf("get_top_bots"), nullptr);
  EXPECT_EQ(*views.ViewOf("get_top_bots"), "ui://sightline/reports-0123456789ab.html");
  EXPECT_EQ(views.ViewOf("list_projects"), nullptr);
}

TEST(AppViews, ListedAndReadAsAppHtml) {
  const AppViews views = Reports();
  const json::array listed = views.List();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].at("mimeType").as_string(), "text/html;profile=mcp-app");
  const auto read = views.Read("ui://sightline/reports-0123456789ab.html");
  ASSERT_TRUE(read.has_value());
  const json::value& content = read->at("contents").at(0);
  EXPECT_EQ(content.at("text").as_string(), "<!doctype html><p>view</p>");
  EXPECT_EQ(content.at("mimeType").as_string(), "text/html;profile=mcp-app");
  // No network for the view: its data comes through the host.
  EXPECT_TRUE(content.at("_meta").at("ui").at("csp").as_object().empty());
  EXPECT_FALSE(views.Read("ui://sightline/reports.html").has_value()) << "only the versioned URI";
}

TEST(AppViews, ToolsNameTheirViewInBothKeys) {
  const json::object meta = AppToolMeta("ui://sightline/reports-0123456789ab.html");
  EXPECT_EQ(meta.at("ui").at("resourceUri"), "ui://sightline/reports-0123456789ab.html");
  EXPECT_EQ(meta.at("ui/resourceUri"), "ui://sightline/reports-0123456789ab.html");
}

TEST(AppViews, TheCatalogLinksOnlyTheToolsAViewRenders) {
  static const tools::Registry registry =
      *tools::Registry::Build(tools::AllOperations(), tools::AllSchemaDocuments());
  const ToolCatalog catalog(registry, Reports());
  const Tool* summary = catalog.Find("get_web_analytics");
  ASSERT_NE(summary, nullptr);
  EXPECT_EQ(summary->descriptor.at("_meta").at("ui").at("resourceUri"),
            "ui://sightline/reports-0123456789ab.html");
  const Tool* projects = catalog.Find("list_projects");
  ASSERT_NE(projects, nullptr);
  EXPECT_FALSE(projects->descriptor.contains("_meta"));
}

}  // namespace
}  // namespace sightline::mcp
