// One grammar for every command's words (cli/flag_parser.h): the server's options, the client's
// commands and the operations' flags all read `--name value`, `--name=value`, switches and
// positional words the same way.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "app/options.h"
#include "cli/arguments.h"
#include "cli/flag_parser.h"

namespace sightline::cli {
namespace {

// argv-style words that outlive the call.
class Words {
 public:
  Words(std::initializer_list<const char*> words) {
    for (const char* word : words) storage_.emplace_back(word);
    for (std::string& word : storage_) pointers_.push_back(word.data());
  }
  std::span<char*> span() { return pointers_; }

 private:
  std::vector<std::string> storage_;
  std::vector<char*> pointers_;
};

using Pairs = std::vector<std::pair<std::string, std::string>>;

constexpr FlagSpec kKnown[] = {{"verbose", FlagValue::kNone},
                               {"field", FlagValue::kRequired, "F"},
                               {"live", FlagValue::kOptional}};

TEST(FlagParser, ReadsValuesInlineValuesSwitchesAndPositionalWordsInOrder) {
  Words words{"status", "--server", "http://x", "--verbose", "--name=a=b", "-F", "k=1", "-",
              "--field", "k=2"};
  auto parsed = ParseWords(words.span(), kKnown, UnknownFlags::kTakeAValue);
  ASSERT_TRUE(parsed) << parsed.error().message();
  EXPECT_EQ(parsed->positional, (std::vector<std::string>{"status", "-"}));
  EXPECT_EQ(parsed->flags, (Pairs{{"server", "http://x"}, {"verbose", "true"}, {"name", "a=b"},
                                  {"field", "k=1"}, {"field", "k=2"}}));
  EXPECT_FALSE(parsed->help);
}

TEST(FlagParser, ABooleanAloneIsTrueAndTakesAnExplicitValue) {
  Words words{"--live", "--verbose", "--live", "false", "--live"};
  auto parsed = ParseWords(words.span(), kKnown, UnknownFlags::kRefuse);
  ASSERT_TRUE(parsed) << parsed.error().message();
  EXPECT_EQ(parsed->flags,
            (Pairs{{"live", "true"}, {"verbose", "true"}, {"live", "false"}, {"live", "true"}}));
}

TEST(FlagParser, AValueIsNeverTheNextFlag) {
  Words forgotten{"--project-id", "--json"};
  auto parsed = ParseWords(forgotten.span(), kKnown, UnknownFlags::kTakeAValue);
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().code(), core::ErrorCode::kValInvalidParameter);
  EXPECT_EQ(parsed.error().message(), "--project-id needs a value.");

  Words last{"-F"};
  EXPECT_EQ(ParseWords(last.span(), kKnown, UnknownFlags::kTakeAValue).error().message(),
            "-F needs a value.");

  Words written{"--name=--json"};
  auto inline_value = ParseWords(written.span(), kKnown, UnknownFlags::kTakeAValue);
  ASSERT_TRUE(inline_value);
  EXPECT_EQ(inline_value->flags, (Pairs{{"name", "--json"}}));
}

TEST(FlagParser, UnknownFlagsAreRefusedWhenTheCommandSaysSo) {
  Words words{"--verbose", "--nope", "1"};
  auto parsed = ParseWords(words.span(), kKnown, UnknownFlags::kRefuse);
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().message(), "Unknown option --nope.");
}

TEST(FlagParser, HelpIsRecognisedAnywhere) {
  Words words{"--server", "x", "-h"};
  auto parsed = ParseWords(words.span(), kKnown, UnknownFlags::kTakeAValue);
  ASSERT_TRUE(parsed);
  EXPECT_TRUE(parsed->help);
  EXPECT_EQ(parsed->flags, (Pairs{{"server", "x"}}));
}

// The server's options and the client's commands read through it.
TEST(FlagParser, ServerOptionsReadTheSameGrammar) {
  constexpr app::OptionDef kDefs[] = {
      {"listen", "", "127.0.0.1:8080", "HOST:PORT", "Where to listen."},
      {"demo", "", "", "", "A demo project."}};
  Words words{"--listen=0.0.0.0:1", "--demo"};
  auto options = app::ParseOptions(kDefs, words.span());
  ASSERT_TRUE(options) << options.error().message();
  EXPECT_EQ(options->Get("listen"), "0.0.0.0:1");
  EXPECT_TRUE(options->Has("demo"));

  Words stray{"--demo", "extra"};
  EXPECT_EQ(app::ParseOptions(kDefs, stray.span()).error().message(),
            "Unexpected argument 'extra'.");
  Words forgotten{"--listen", "--demo"};
  EXPECT_EQ(app::ParseOptions(kDefs, forgotten.span()).error().message(),
            "--listen needs a value.");
}

TEST(FlagParser, ClientCommandsSplitFieldsAndSwitches) {
  Words words{"GET", "/x", "-F", "n=1", "--raw-field", "s=t", "--all", "--profile", "p"};
  auto args = ParseCliArgs(words.span());
  ASSERT_TRUE(args) << args.error().message();
  EXPECT_EQ(args->positional, (std::vector<std::string>{"GET", "/x"}));
  ASSERT_EQ(args->fields.size(), 2u);
  EXPECT_EQ(args->fields[0], std::make_tuple(std::string("n"), std::string("1"), true));
  EXPECT_EQ(args->fields[1], std::make_tuple(std::string("s"), std::string("t"), false));
  EXPECT_TRUE(args->Has("all"));
  EXPECT_EQ(args->Flag("profile"), "p");

  Words bad{"-F", "novalue"};
  EXPECT_EQ(ParseCliArgs(bad.span()).error().message(),
            "Write fields as key=value, not 'novalue'.");
}

}  // namespace
}  // namespace sightline::cli
