#include "app/docs.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace sightline::app {

namespace {

TEST(ErrorCodesMarkdown, CommittedDocsMatchTheCode) {
  const std::string path = std::string(SIGHTLINE_SOURCE_DIR) + "/docs/errors.md";
  std::ifstream file(path, std::ios::binary);
  ASSERT_TRUE(file) << "cannot read " << path
                    << "; regenerate it with `build/sightline docs errors > docs/errors.md`";
  std::ostringstream committed;
  committed << file.rdbuf();
  EXPECT_TRUE(committed.str() == ErrorCodesMarkdown())
      << path << " is out of date with core/error.cpp; regenerate it with "
      << "`build/sightline docs errors > docs/errors.md` and commit the result.";
}

TEST(ErrorCodesMarkdown, HasOneRowPerCode) {
  const std::string text = ErrorCodesMarkdown();
  for (const core::ErrorInfo& info : core::AllErrorInfos()) {
    const std::string row =
        "| `" + std::string(info.id) + "` | " + std::to_string(info.http_status) + " | ";
    const std::size_t at = text.find(row);
    EXPECT_NE(at, std::string::npos) << info.id;
    EXPECT_EQ(text.find(row, at + 1), std::string::npos) << info.id << " listed twice";
  }
}

}  // namespace
}  // namespace sightline::app

namespace sightline::app {
namespace {

TEST(PermissionsMarkdown, CommittedDocsMatchTheCode) {
  const std::string path = std::string(SIGHTLINE_SOURCE_DIR) + "/docs/permissions.md";
  std::ifstream file(path, std::ios::binary);
  ASSERT_TRUE(file) << "cannot read " << path;
  std::stringstream committed;
  committed << file.rdbuf();
  EXPECT_TRUE(committed.str() == PermissionsMarkdown())
      << path << " is out of date; regenerate it with "
      << "`build/sightline docs permissions > docs/permissions.md` and commit the result.";
}

TEST(PermissionsMarkdown, ListsEveryOperationWithItsPermission) {
  const std::string text = PermissionsMarkdown();
  EXPECT_NE(text.find("| `get_project` | `GET /{orgSlug}/projects/{projectId}` | `project.view` |"),
            std::string::npos);
  EXPECT_NE(text.find("| `sdk_key.create` |"), std::string::npos);
}

TEST(SiteAuditRulesMarkdown, CommittedDocsMatchTheCode) {
  const std::string path = std::string(SIGHTLINE_SOURCE_DIR) + "/docs/site-audit-rules.md";
  std::ifstream file(path, std::ios::binary);
  ASSERT_TRUE(file) << "cannot read " << path;
  std::stringstream committed;
  committed << file.rdbuf();
  EXPECT_TRUE(committed.str() == SiteAuditRulesMarkdown())
      << path << " is out of date; regenerate it with "
      << "`build/sightline docs audit-rules > docs/site-audit-rules.md` and commit the result.";
}

}  // namespace
}  // namespace sightline::app
