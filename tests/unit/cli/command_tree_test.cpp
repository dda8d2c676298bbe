// The CLI's command tree is the registry: every operation is a command, under one name in its
// group (and its whole name), with a flag per input property; requests and output follow the
// operation's definition.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <set>
#include <sstream>

#include "cli/command_tree.h"
#include "cli/render.h"
#include "features/all_operations.h"
#include "tools/operation.h"

namespace sightline::cli {
namespace {

namespace json = boost::json;

const std::vector<Command>& Tree() { return AllCommands(); }

TEST(CommandTree, EveryOperationIsOneCommandFoundByEitherName) {
  std::set<std::pair<std::string, std::string>> names;
  ASSERT_EQ(Tree().size(), tools::AllOperations().size());
  for (const tools::OperationSpec& spec : tools::AllOperations()) {
    const auto command = std::ranges::find(Tree(), &spec, &Command::spec);
    ASSERT_NE(command, Tree().end()) << spec.name;
    EXPECT_TRUE(names.insert({command->group, command->name}).second)
        << command->group << " " << command->name << " names two operations";
    EXPECT_EQ(FindCommand(Tree(), command->group, command->name), &*command);
    EXPECT_EQ(FindCommand(Tree(), command->group, command->full_name), &*command);
    const json::value* properties = command->input_schema.if_contains("properties");
    EXPECT_EQ(command->flags.size(), properties ? properties->as_object().size() : 0u)
        << spec.name;
  }
  const Command* summary = FindCommand(Tree(), "web-analytics", "get");
  ASSERT_NE(summary, nullptr);
  EXPECT_EQ(summary->spec->name, "get_web_analytics");
  EXPECT_NE(FindCommand(Tree(), "web-analytics", "get-timeline"), nullptr);
  EXPECT_NE(FindCommand(Tree(), "projects", "list"), nullptr);
}

TEST(CommandTree, FlagsAreTypedAndCheckedBeforeSending) {
  const Command& breakdown = *FindCommand(Tree(), "web-analytics", "get-breakdown");
  const json::object defaults{{"projectId", "p-1"}, {"orgSlug", "acme"}};
  auto args = ArgumentsOf(breakdown, {{"dimension", "country"}, {"limit", "5"}}, defaults);
  ASSERT_TRUE(args) << args.error().message();
  EXPECT_EQ(json::serialize(*args), R"({"dimension":"country","limit":5,"projectId":"p-1"})");
  const CommandRequest request = RequestOf(breakdown, *args);
  EXPECT_EQ(request.method, core::HttpMethod::kGet);
  EXPECT_EQ(request.target, "/web-analytics/breakdown?dimension=country&limit=5&projectId=p-1");
  EXPECT_TRUE(request.body.empty());

  EXPECT_FALSE(ArgumentsOf(breakdown, {{"limit", "5"}}, defaults)) << "dimension is required";
  EXPECT_FALSE(ArgumentsOf(breakdown, {{"dimension", "shoe_size"}}, defaults));
  EXPECT_FALSE(ArgumentsOf(breakdown, {{"dimension", "country"}, {"limit", "many"}}, defaults));
  auto unknown = ArgumentsOf(breakdown, {{"colour", "red"}}, defaults);
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message().find("--colour"), std::string::npos);

  // Path parameters go into the path; the rest of a POST into its JSON body.
  const Command& create = *FindCommand(Tree(), "keys", "create-sdk");
  auto key = ArgumentsOf(create, {{"name", "web"}}, defaults);
  ASSERT_TRUE(key) << key.error().message();
  const CommandRequest post = RequestOf(create, *key);
  EXPECT_EQ(post.method, core::HttpMethod::kPost);
  EXPECT_EQ(post.target, "/acme/projects/p-1/sdk-keys");
  EXPECT_EQ(post.body, R"({"name":"web"})");
  // A key's organization is the server's to fill in, except in a path: the client names it.
  auto unnamed = ArgumentsOf(create, {{"name", "web"}}, {});
  ASSERT_FALSE(unnamed);
  EXPECT_NE(unnamed.error().message().find("SIGHTLINE_ORG"), std::string::npos);
}

std::string Rendered(std::string_view answer, OutputFormat format) {
  std::ostringstream out;
  Render(json::parse(answer), format, TableStyle{60, false}, out);
  return out.str();
}

TEST(Render, TablesCsvAndTheExactAnswer) {
  constexpr std::string_view kRows =
      R"({"total":2,"rows":[{"value":"/pricing","count":12345,"percentageChange":12.5},)"
      R"({"value":"/, \"home\"","count":7,"percentageChange":-3}]})";
  EXPECT_EQ(Rendered(kRows, OutputFormat::kTable),
            "value      count   percentageChange\n"
            "/pricing   12,345  +12.5\n"
            "/, \"home\"  7       -3\n");
  EXPECT_EQ(Rendered(kRows, OutputFormat::kCsv),
            "value,count,percentageChange\n"
            "/pricing,12345,12.5\n"
            "\"/, \"\"home\"\"\",7,-3\n");
  EXPECT_EQ(Rendered(kRows, OutputFormat::kJson), std::string(kRows) + "\n") << "as written: 12.5";
  EXPECT_EQ(Rendered(R"({"from":"2026-11-01","metrics":{"visits":{"value":3,"change":-25.0},)"
                     R"("pageviews":{"value":1500,"change":null}}})",
                     OutputFormat::kTable),
            "from: 2026-11-01\n\n"
            "metrics    value  change\n"
            "visits     3      -25\n"
            "pageviews  1,500  \n");
}

TEST(Render, AQueryAnswerHasAColumnPerDimensionAndMetric) {
  constexpr std::string_view kQuery =
      R"({"results":[{"dimensions":["/pricing"],"metrics":[1200,33.5],)"
      R"("comparison":{"dimensions":["/pricing"],"metrics":[1000,40],"change":[20,-6.5]}}],)"
      R"("meta":{},"query":{"dimensions":["event:page"],"metrics":["visitors","bounce_rate"]}})";
  EXPECT_EQ(Rendered(kQuery, OutputFormat::kCsv),
            "event:page,visitors,visitors previous,visitors change,bounce_rate,"
            "bounce_rate previous,bounce_rate change\n"
            "/pricing,1200,1000,20,33.5,40,-6.5\n");
  EXPECT_EQ(Rendered(R"({"results":[{"dimensions":[],"metrics":[0]}],"meta":{},)"
                     R"("query":{"dimensions":[],"metrics":["visitors"]}})",
                     OutputFormat::kTable),
            "visitors\n0\n");
}

}  // namespace
}  // namespace sightline::cli
