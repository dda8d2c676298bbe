#include "cli/arguments.h"

#include "cli/flag_parser.h"
#include "core/text.h"

namespace sightline::cli {
namespace {

// The flags the client's own commands know; any other --name takes a value.
constexpr FlagSpec kKnownFlags[] = {
    {"no-browser", FlagValue::kNone}, {"verbose", FlagValue::kNone}, {"all", FlagValue::kNone},
    {"field", FlagValue::kRequired, "F"}, {"raw-field", FlagValue::kRequired, "f"},
};

}  // namespace

std::string CliArgs::Flag(std::string_view name) const {
  const auto found = flags.find(name);
  return found == flags.end() ? std::string() : found->second;
}

std::vector<std::string> CliArgs::List(std::string_view name) const {
  std::vector<std::string> out;
  for (std::string& item : core::SplitList(Flag(name), ',')) {
    if (!item.empty()) out.push_back(std::move(item));
  }
  return out;
}

core::Result<CliArgs> ParseCliArgs(std::span<char*> words) {
  auto parsed = ParseWords(words, kKnownFlags, UnknownFlags::kTakeAValue);
  if (!parsed) return parsed.error();
  CliArgs args;
  args.positional = std::move(parsed->positional);
  args.help = parsed->help;
  for (auto& [name, value] : parsed->flags) {
    const bool typed = name == "field";
    if (typed || name == "raw-field") {
      const std::size_t equals = value.find('=');
      if (equals == std::string::npos || equals == 0) {
        return core::Error::Invalid("field", "Write fields as key=value, not '" + value + "'.");
      }
      args.fields.emplace_back(value.substr(0, equals), value.substr(equals + 1), typed);
    } else if (name == "no-browser" || name == "verbose" || name == "all") {
      args.switches.insert(name);
    } else {
      args.flags[name] = std::move(value);
    }
  }
  return args;
}

}  // namespace sightline::cli
