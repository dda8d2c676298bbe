#include "app/options.h"

#include "core/logging.h"

#include <charconv>
#include <cstdlib>

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
  for (const OptionDef& def : defs) {
    options.values_[std::string(def.flag)] = std::string(def.default_value);
    if (def.max > def.min) options.ranges_[std::string(def.flag)] = {def.min, def.max};
    if (def.env.empty()) continue;
    if (const char* env = std::getenv(std::string(def.env).c_str()); env && *env) {
      options.values_[std::string(def.flag)] = env;
      options.given_[std::string(def.flag)] = true;
    }
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view word = args[i];
    if (word == "--help" || word == "-h") {
      options.help = true;
      continue;
    }
    if (!word.starts_with("--")) return core::Error::Invalid(std::string(word), "Unexpected argument '" + std::string(word) + "'.");
    word.remove_prefix(2);
    std::string value;
    const auto eq = word.find('=');
    if (eq != std::string_view::npos) {
      value = std::string(word.substr(eq + 1));
      word = word.substr(0, eq);
    }
    const OptionDef* def = nullptr;
    for (const auto& d : defs) {
      if (d.flag == word) def = &d;
    }
    if (!def) return core::Error::Invalid(std::string(word), "Unknown option --" + std::string(word) + ".");
    if (def->metavar.empty()) {
      value = "true";
    } else if (eq == std::string_view::npos) {
      if (i + 1 >= args.size()) return core::Error::Invalid(std::string(word), "--" + std::string(word) + " needs a value.");
      value = args[++i];
    }
    options.values_[std::string(word)] = value;
    options.given_[std::string(word)] = true;
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
