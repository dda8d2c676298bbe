#include "cli/flag_parser.h"

namespace sightline::cli {
namespace {

const FlagSpec* Find(std::span<const FlagSpec> known, std::string_view name, bool is_short) {
  for (const FlagSpec& spec : known) {
    if ((is_short ? spec.short_name : spec.name) == name && !name.empty()) return &spec;
  }
  return nullptr;
}

bool LooksLikeAFlag(std::string_view word) { return word.starts_with("--") && word.size() > 2; }

core::Error MissingValue(std::string_view name, std::string_view written) {
  return core::Error::Invalid(std::string(name), std::string(written) + " needs a value.");
}

}  // namespace

core::Result<ParsedWords> ParseWords(std::span<char* const> words,
                                     std::span<const FlagSpec> known, UnknownFlags unknown) {
  ParsedWords parsed;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view word = words[i];
    if (word == "-h" || word == "--help") {
      parsed.help = true;
      continue;
    }
    // "-F" names a flag only when the command gave it that short name; "-", "--" and "-x" are
    // positional words otherwise.
    const bool is_short = word.size() == 2 && word[0] == '-' && word[1] != '-';
    const FlagSpec* spec = is_short ? Find(known, word.substr(1), true) : nullptr;
    if (!spec && !LooksLikeAFlag(word)) {
      parsed.positional.emplace_back(word);
      continue;
    }
    std::string_view name = spec ? spec->name : word.substr(2);
    std::optional<std::string_view> inline_value;
    if (const std::size_t equals = name.find('='); !spec && equals != std::string_view::npos) {
      inline_value = name.substr(equals + 1);
      name = name.substr(0, equals);
    }
    if (!spec) spec = Find(known, name, false);
    if (!spec && unknown == UnknownFlags::kRefuse) {
      return core::Error::Invalid(std::string(name), "Unknown option --" + std::string(name) + ".");
    }
    const FlagValue takes = spec ? spec->value : FlagValue::kRequired;
    const bool next_is_value = i + 1 < words.size() && !LooksLikeAFlag(words[i + 1]);
    std::string value;
    if (inline_value) {
      value = *inline_value;
    } else if (takes == FlagValue::kNone || (takes == FlagValue::kOptional && !next_is_value)) {
      value = "true";
    } else if (!next_is_value) {
      return MissingValue(name, word);
    } else {
      value = words[++i];
    }
    parsed.flags.emplace_back(std::string(name), std::move(value));
  }
  return parsed;
}

}  // namespace sightline::cli
