// The README's configuration reference must list every flag and environment variable the
// option tables define (the tables also drive `--help`), so the docs cannot fall behind.
#include "app/options.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace sightline::app {
namespace {

std::string ReadRepoFile(const std::string& name) {
  std::ifstream in(std::string(SIGHTLINE_SOURCE_DIR) + "/" + name);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// "--data" must not be satisfied by "--database-url".
bool MentionsFlag(const std::string& text, std::string_view flag) {
  const std::string needle = "--" + std::string(flag);
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    const char next = at + needle.size() < text.size() ? text[at + needle.size()] : ' ';
    if (!std::isalnum(static_cast<unsigned char>(next)) && next != '-') return true;
  }
  return false;
}

void ExpectDocumented(std::span<const OptionDef> defs, const std::string& readme) {
  for (const OptionDef& def : defs) {
    EXPECT_TRUE(MentionsFlag(readme, def.flag)) << "README.md does not document --" << def.flag;
    if (!def.env.empty()) {
      EXPECT_NE(readme.find(std::string(def.env)), std::string::npos)
          << "README.md does not document " << def.env;
    }
  }
}

TEST(Readme, ConfigurationReferenceListsEveryServeOption) {
  ExpectDocumented(ServeOptionDefs(), ReadRepoFile("README.md"));
}

TEST(Readme, BootstrapOptionsAreDocumented) {
  ExpectDocumented(BootstrapOptionDefs(), ReadRepoFile("README.md"));
}

TEST(Readme, DemoOptionsAreDocumented) {
  ExpectDocumented(DemoOptionDefs(), ReadRepoFile("README.md"));
}

TEST(Readme, RefreshRangesOptionsAreDocumented) {
  ExpectDocumented(RefreshRangesOptionDefs(), ReadRepoFile("README.md"));
}

TEST(Readme, ShowsTheTwoCommandsFirst) {
  const std::string readme = ReadRepoFile("README.md");
  const auto server = readme.find("script/server");
  const auto test = readme.find("script/test");
  const auto reference = readme.find("## Configuration reference");
  ASSERT_NE(server, std::string::npos);
  ASSERT_NE(test, std::string::npos);
  EXPECT_LT(server, reference);
  EXPECT_LT(test, reference);
}

}  // namespace
}  // namespace sightline::app
