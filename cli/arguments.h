// The words of a command-line client command: positional arguments, `--flag value` options
// (`--flag=value` too), switches, and the repeatable `-F/--field` and `-f/--raw-field` pairs of
// `sightline api`.
#pragma once

#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace sightline::cli {

struct CliArgs {
  std::vector<std::string> positional;
  std::map<std::string, std::string, std::less<>> flags;
  std::set<std::string, std::less<>> switches;
  // (name, value, typed): typed values (-F) read numbers, true, false and null as JSON.
  std::vector<std::tuple<std::string, std::string, bool>> fields;
  bool help = false;

  std::string Flag(std::string_view name) const;
  bool Has(std::string_view name) const { return switches.contains(name); }
  // A comma-separated flag's items.
  std::vector<std::string> List(std::string_view name) const;
};

// VAL_003 for a flag without its value or a field without `=`.
core::Result<CliArgs> ParseCliArgs(std::span<char*> words);

// `sightline api` (cli/api_command.cpp).
int RunApiCommand(const CliArgs& args);
// `sightline completion SHELL` (cli/completion.cpp).
int RunCompletion(const CliArgs& args);
// Registry operations as commands (cli/operation_command.cpp).
bool IsCommandGroup(std::string_view name);
int RunOperationCommand(std::string_view group, std::span<char*> words);
int RunTrack(std::span<char*> words);

}  // namespace sightline::cli
