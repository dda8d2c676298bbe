// The one reader of command-line words, for every command of the binary: the server's own
// (`serve`, `admin …`, app/options.h), the client's (`login`, `api`, cli/arguments.h) and the
// registry's operations (cli/operation_command.cpp). Each command says which flags it knows and
// how they take a value; the grammar is the same everywhere:
//   --name value   --name=value   --switch   -h/--help   words without "--" are positional
// A value is never a word that starts with "--" (write --name=--x for that): `--project-id
// --json` is a forgotten value, not a project called "--json".
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace sightline::cli {

enum class FlagValue {
  kRequired,  // --name value
  kNone,      // a switch: --name alone means true
  kOptional,  // a boolean: --name alone means true, --name false says so
};

struct FlagSpec {
  std::string_view name;        // "field" for --field
  FlagValue value = FlagValue::kRequired;
  std::string_view short_name;  // "F" for -F; empty when there is none
};

// What a command does with a flag it does not know.
enum class UnknownFlags {
  kRefuse,         // VAL_003 "Unknown option --name."
  kTakeAValue,     // read like --name value; the command checks the name later
};

struct ParsedWords {
  std::vector<std::string> positional;
  // Every flag in the order given (a repeated flag appears each time), switches as "true".
  std::vector<std::pair<std::string, std::string>> flags;
  bool help = false;
};

// VAL_003 naming the flag for a missing value or a refused unknown flag.
core::Result<ParsedWords> ParseWords(std::span<char* const> words,
                                     std::span<const FlagSpec> known, UnknownFlags unknown);

}  // namespace sightline::cli
