#include "app/options.h"

#include "cli/flag_parser.h"
#include "core/logging.h"

#include <charconv>
#include <cstdlib>
#include <vector>

namespace sightline::app {

const OptionDef kDataOption{"data", "SIGHTLINE_DATA", "./data", "DIR",
                            "Directory of the embedded SQLite store (sightline.db inside)."};
const OptionDef kDatabaseUrlOption{
    "database-url", "SIGHTLINE_DATABASE_URL", "", "URL",
    "PostgreSQL URL (postgresql://user:pass@host:port/db); when set, --data is not used."};

std::string Options::Get(std::string_view flag) const {
  auto it = values_.find(flag);
  return it == values_.end() ? std::string() : it->second;
}

bool Options::Has(std::string_view flag) const {
  auto it = given_.find(flag);
  return it != given_.end() && it->second;
}

core::Result<long> Options::GetInt(std::string_view flag, long min, long max) const {
  const std::string text = Get(flag);
  long value = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || p != text.data() + text.size() || value < min || value > max) {
    return core::Error::Invalid(std::string(flag), "--" + std::string(flag) + " must be a whole number from " +
                                                       std::to_string(min) + " to " + std::to_string(max) + ".");
  }
  return value;
}

core::Result<long> Options::GetInt(std::string_view flag) const {
  const auto range = ranges_.find(flag);
  if (range == ranges_.end()) {
    return core::Error::Internal("--" + std::string(flag) + " declares no range");
  }
  return GetInt(flag, range->second.first, range->second.second);
}

core::Result<Options> ParseOptions(std::span<const OptionDef> defs, std::span<char*> args) {
  Options options;
  std::vector<cli::FlagSpec> known;
  for (const OptionDef& def : defs) {
    known.push_back({def.flag, def.metavar.empty() ? cli::FlagValue::kNone : cli::FlagValue::kRequired});
    options.values_[std::string(def.flag)] = std::string(def.default_value);
    if (def.max > def.min) options.ranges_[std::string(def.flag)] = {def.min, def.max};
    if (def.env.empty()) continue;
    if (const char* env = std::getenv(std::string(def.env).c_str()); env && *env) {
      options.values_[std::string(def.flag)] = env;
      options.given_[std::string(def.flag)] = true;
    }
  }
  auto words = cli::ParseWords(args, known, cli::UnknownFlags::kRefuse);
  if (!words) return words.error();
  if (!words->positional.empty()) {
    const std::string& word = words->positional.front();
    return core::Error::Invalid(word, "Unexpected argument '" + word + "'.");
  }
  options.help = words->help;
  for (auto& [flag, value] : words->flags) {
    options.given_[flag] = true;
    options.values_[flag] = std::move(value);
  }
  return options;
}

std::string HelpText(std::string_view usage, std::string_view summary,
                     std::span<const OptionDef> defs) {
  std::string text = "Usage: " + std::string(usage) + "\n\n" + std::string(summary) + "\n\nOptions:\n";
  for (const auto& def : defs) {
    std::string left = "  --" + std::string(def.flag);
    if (!def.metavar.empty()) left += " " + std::string(def.metavar);
    if (left.size() < 30) left.resize(30, ' ');
    text += left + " " + std::string(def.help);
    if (!def.env.empty()) text += "\n" + std::string(31, ' ') + "env: " + std::string(def.env);
    if (!def.default_value.empty()) text += "; default: " + std::string(def.default_value);
    text += "\n";
  }
  text += "  --help                       Show this help.\n";
  return text;
}

storage::StoreOptions StoreOptionsFrom(const Options& options) {
  storage::StoreOptions store;
  store.database_url = options.Get("database-url");
  store.sqlite_path = options.Get("data") + "/sightline.db";
  return store;
}

core::Result<std::unique_ptr<storage::Store>> OpenMigratedStore(const Options& options) {
  auto store = storage::OpenStore(StoreOptionsFrom(options));
  if (!store) return store.error();
  auto applied = (*store)->Migrate();
  if (!applied) return applied.error();
  core::Log(core::LogLevel::kInfo, "store ready",
            {{"backend", (*store)->backend_name()},
             {"migrationsApplied", *applied},
             {"schemaVersion", storage::Store::LatestSchemaVersion()}});
  return store;
}

}  // namespace sightline::app
