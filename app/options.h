// Command-line options: one table per command gives each flag its environment variable,
// default and help line, so parsing and `--help` cannot drift apart.
// Precedence: flag, then environment variable, then default.
#pragma once

#include "core/result.h"
#include "storage/store.h"

#include <map>
#include <span>
#include <string>
#include <string_view>

namespace sightline::app {

struct OptionDef {
  std::string_view flag;  // "listen" for --listen
  std::string_view env;   // "SIGHTLINE_LISTEN"; empty when there is none
  std::string_view default_value;
  std::string_view metavar;  // "HOST:PORT"; empty for a boolean switch
  std::string_view help;
  // For a whole-number option, its range (GetInt(flag) enforces it); both 0 otherwise.
  long min = 0;
  long max = 0;
};

class Options {
 public:
  std::string Get(std::string_view flag) const;
  bool Has(std::string_view flag) const;  // given by flag or environment
  core::Result<long> GetInt(std::string_view flag, long min, long max) const;
  // Within the range the option's definition declares.
  core::Result<long> GetInt(std::string_view flag) const;
  bool help = false;

 private:
  friend core::Result<Options> ParseOptions(std::span<const OptionDef>, std::span<char*>);
  std::map<std::string, std::string, std::less<>> values_;
  std::map<std::string, bool, std::less<>> given_;
  std::map<std::string, std::pair<long, long>, std::less<>> ranges_;
};

// Parses `args` (the words after the command). VAL_003 naming the flag for an unknown flag or
// a missing value.
core::Result<Options> ParseOptions(std::span<const OptionDef> defs, std::span<char*> args);
std::string HelpText(std::string_view usage, std::string_view summary,
                     std::span<const OptionDef> defs);

// The option tables of `serve` and `admin bootstrap` (for the docs test).
std::span<const OptionDef> ServeOptionDefs();
std::span<const OptionDef> BootstrapOptionDefs();
std::span<const OptionDef> DemoOptionDefs();
std::span<const OptionDef> RefreshRangesOptionDefs();

// The storage flags every command that opens the store shares.
extern const OptionDef kDataOption;
extern const OptionDef kDatabaseUrlOption;
storage::StoreOptions StoreOptionsFrom(const Options& options);
// Opens the store and applies pending migrations, logging what it did.
core::Result<std::unique_ptr<storage::Store>> OpenMigratedStore(const Options& options);

}  // namespace sightline::app
