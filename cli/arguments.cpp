#include "cli/arguments.h"

#include "core/text.h"

namespace sightline::cli {
namespace {

// Options that take no value.
constexpr std::string_view kSwitches[] = {"no-browser", "help", "verbose", "all"};

bool IsSwitch(std::string_view name) {
  for (std::string_view known : kSwitches) {
    if (known == name) return true;
  }
  return false;
}

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
  CliArgs args;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view word = words[i];
    if (word == "-h" || word == "--help") {
      args.help = true;
      continue;
    }
    const bool typed = word == "-F" || word == "--field";
    if (typed || word == "-f" || word == "--raw-field") {
      if (i + 1 >= words.size()) return core::Error::Invalid("field", std::string(word) + " needs key=value.");
      const std::string_view pair = words[++i];
      const std::size_t equals = pair.find('=');
      if (equals == std::string_view::npos || equals == 0) {
        return core::Error::Invalid("field", "Write fields as key=value, not '" + std::string(pair) + "'.");
      }
      args.fields.emplace_back(std::string(pair.substr(0, equals)),
                               std::string(pair.substr(equals + 1)), typed);
      continue;
    }
    if (!word.starts_with("--") || word.size() == 2) {
      args.positional.emplace_back(word);
      continue;
    }
    std::string_view name = word.substr(2);
    if (const std::size_t equals = name.find('='); equals != std::string_view::npos) {
      args.flags[std::string(name.substr(0, equals))] = std::string(name.substr(equals + 1));
      continue;
    }
    if (IsSwitch(name)) {
      args.switches.emplace(name);
      continue;
    }
    if (i + 1 >= words.size()) {
      return core::Error::Invalid(std::string(name), "--" + std::string(name) + " needs a value.");
    }
    args.flags[std::string(name)] = words[++i];
  }
  return args;
}

}  // namespace sightline::cli
