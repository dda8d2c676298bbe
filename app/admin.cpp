// `sightline admin …`: operator commands that work on the store directly.
#include "app/commands.h"
#include "net/https_fetcher.h"
#include "app/options.h"
#include "app/event_sealing.h"
#include "app/range_refresh.h"
#include "app/rollup_refresh.h"
#include "core/json_util.h"
#include "core/logging.h"
#include "demo/demo_project.h"
#include "identity/bootstrap.h"

#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <string_view>

namespace sightline::app {
namespace {

const OptionDef kBootstrapOptions[] = {
    kDataOption,
    kDatabaseUrlOption,
    {"email", "SIGHTLINE_BOOTSTRAP_EMAIL", "", "EMAIL", "The owner's email (required)."},
    {"password", "SIGHTLINE_BOOTSTRAP_PASSWORD", "", "PASSWORD",
     "The owner's password, 8 or more characters (required for a new user)."},
    {"org", "SIGHTLINE_BOOTSTRAP_ORG", "", "NAME", "Organization name (required)."},
    {"project", "SIGHTLINE_BOOTSTRAP_PROJECT", "", "NAME", "Project name (required)."},
    {"log-level", "SIGHTLINE_LOG_LEVEL", "warn", "LEVEL", "debug, info, warn or error."},
};

const OptionDef kDemoOptions[] = {
    kDataOption,
    kDatabaseUrlOption,
    {"email", "SIGHTLINE_BOOTSTRAP_EMAIL", "", "EMAIL",
     "The owner of the demo project, an existing user (required)."},
    {"org", "SIGHTLINE_BOOTSTRAP_ORG", "", "NAME", "The organization it belongs to (required)."},
    {"days", "SIGHTLINE_DEMO_DAYS", "60", "N", "Days of generated traffic, up to today.", 1, 400},
    {"log-level", "SIGHTLINE_LOG_LEVEL", "warn", "LEVEL", "debug, info, warn or error."},
};

const OptionDef kMigrateOptions[] = {
    kDataOption,
    kDatabaseUrlOption,
    {"log-level", "SIGHTLINE_LOG_LEVEL", "info", "LEVEL", "debug, info, warn or error."},
};

const OptionDef kRefreshRangesOptions[] = {
    kDataOption,
    kDatabaseUrlOption,
    {"bot-ranges-mirror", "SIGHTLINE_BOT_RANGES_MIRROR", "", "URL",
     "Fetch the lists from URL/<list id>.json instead of the vendors' URLs."},
    {"outbound-ca", "SIGHTLINE_OUTBOUND_CA", "", "FILE",
     "Extra CA certificates (PEM) trusted beside the system's."},
    {"log-level", "SIGHTLINE_LOG_LEVEL", "warn", "LEVEL", "debug, info, warn or error."},
};

constexpr std::string_view kAdminUsage =
    "Usage: sightline admin <command> [options]\n\n"
    "Commands:\n"
    "  bootstrap   Create (idempotently) the owner, organization, project and keys; print them\n"
    "              as JSON.\n"
    "  demo        Create the demo project with generated data (once); print it as JSON.\n"
    "  migrate     Apply pending schema migrations.\n"
    "  refresh-ranges\n"
    "              Fetch the vendors' crawler IP-range lists now and store each good one.\n\n"
    "Run 'sightline admin <command> --help' for a command's options.\n";

int Bootstrap(std::span<char*> args) {
  auto options = ParseOptions(kBootstrapOptions, args);
  if (!options) return ReportFailure(options.error());
  if (options->help) {
    std::cout << HelpText("sightline admin bootstrap --email E --password P --org NAME --project NAME",
                          "Creates the owner user, organization, project, one SDK key and one "
                          "private API key,\nand prints {userId, orgSlug, projectId, sdkKey, "
                          "privateApiKey} as JSON. Re-running reuses\nthe user, organization and "
                          "project and rotates the two bootstrap keys.",
                          kBootstrapOptions);
    return 0;
  }
  for (std::string_view required : {"email", "org", "project"}) {
    if (options->Get(required).empty()) {
      return ReportFailure(core::Error::Invalid(std::string(required),
                                                "--" + std::string(required) + " is required."));
    }
  }
  core::SetupLogging(options->Get("log-level"), core::LogTarget::kStderr);
  auto store = OpenMigratedStore(*options);
  if (!store) return ReportFailure(store.error());
  core::SystemClock clock;
  auto result = identity::Bootstrap(**store, clock,
                                    {options->Get("email"), options->Get("password"),
                                     options->Get("org"), options->Get("project")});
  if (!result) return ReportFailure(result.error());
  boost::json::object out{{"userId", result->user_id},
                          {"orgSlug", result->organization_slug},
                          {"projectId", result->project_id},
                          {"sdkKey", result->sdk_key},
                          {"privateApiKey", result->private_api_key}};
  std::cout << core::ToJson(out) << std::endl;
  return 0;
}

int Demo(std::span<char*> args) {
  auto options = ParseOptions(kDemoOptions, args);
  if (!options) return ReportFailure(options.error());
  if (options->help) {
    std::cout << HelpText("sightline admin demo --email E --org NAME [options]",
                          "Creates the project \"" + std::string(demo::kDemoProjectName) +
                              "\" in the organization and fills it\nonce with generated data: "
                              "visits and crawler requests over --days days, AI-visibility\nruns "
                              "answered by a script, and a site-audit crawl of the built-in sample "
                              "site\n(https://outfitters.example, served inside this command). "
                              "Re-running leaves the data as it\nis and rotates the project's two "
                              "bootstrap keys. Prints {projectId, sdkKey, privateApiKey,\n"
                              "generated, visits, events, botRequests, aiAnswers, crawledPages}.",
                          kDemoOptions);
    return 0;
  }
  for (std::string_view required : {"email", "org"}) {
    if (options->Get(required).empty()) {
      return ReportFailure(core::Error::Invalid(std::string(required),
                                                "--" + std::string(required) + " is required."));
    }
  }
  auto days = options->GetInt("days");
  if (!days) return ReportFailure(days.error());
  core::SetupLogging(options->Get("log-level"), core::LogTarget::kStderr);
  auto store = OpenMigratedStore(*options);
  if (!store) return ReportFailure(store.error());
  core::SystemClock clock;
  demo::DemoRequest request{options->Get("email"), options->Get("org")};
  request.days = static_cast<int>(*days);
  auto result = demo::CreateDemoProject(**store, clock, request);
  if (!result) return ReportFailure(result.error());
  // What serve's background tasks would do in its first minutes, done now, so the server starts
  // on a compact, rolled-up store and the first look waits for nothing.
  const std::atomic<bool> stopping{false};
  SealInboxEvents(**store, clock, std::chrono::seconds(0), stopping);
  RefreshMarkedRollups(**store);
  std::cout << core::ToJson(boost::json::object{
                   {"orgSlug", result->keys.organization_slug},
                   {"projectId", result->keys.project_id},
                   {"sdkKey", result->keys.sdk_key},
                   {"privateApiKey", result->keys.private_api_key},
                   {"generated", result->generated},
                   {"visits", result->traffic.visits},
                   {"events", result->traffic.events},
                   {"botRequests", result->traffic.bot_requests},
                   {"aiAnswers", result->answers.answers},
                   {"crawledPages", result->crawled_pages}})
            << std::endl;
  return 0;
}

int Migrate(std::span<char*> args) {
  auto options = ParseOptions(kMigrateOptions, args);
  if (!options) return ReportFailure(options.error());
  if (options->help) {
    std::cout << HelpText("sightline admin migrate [options]",
                          "Applies pending schema migrations (serve also does so at start).",
                          kMigrateOptions);
    return 0;
  }
  core::SetupLogging(options->Get("log-level"), core::LogTarget::kStderr);
  auto store = OpenMigratedStore(*options);
  if (!store) return ReportFailure(store.error());
  std::cout << "schema version " << storage::Store::LatestSchemaVersion() << " ("
            << (*store)->backend_name() << ")" << std::endl;
  return 0;
}

int RefreshRangesCommand(std::span<char*> args) {
  auto options = ParseOptions(kRefreshRangesOptions, args);
  if (!options) return ReportFailure(options.error());
  if (options->help) {
    std::cout << HelpText("sightline admin refresh-ranges [options]",
                          "Fetches every IP-range list the bot catalog names (or its mirror copy) "
                          "and stores each\nlist that parses as the last good copy; running "
                          "servers pick it up at their next\nrefresh. Prints one JSON line per "
                          "list; exits 1 when any list failed.",
                          kRefreshRangesOptions);
    return 0;
  }
  core::SetupLogging(options->Get("log-level"), core::LogTarget::kStderr);
  auto store = OpenMigratedStore(*options);
  if (!store) return ReportFailure(store.error());
  std::unique_ptr<net::HttpsFetcher> fetcher;
  try {
    fetcher = std::make_unique<net::HttpsFetcher>(net::HttpsFetcherOptions{
        .allow_private_addresses = true,
        .ca_file = options->Get("outbound-ca"),
        .timeout = std::chrono::seconds(30),
        .max_bytes = 8 * 1024 * 1024});
  } catch (const std::exception&) {
    return ReportFailure(core::Error::Invalid("outbound-ca", "--outbound-ca is not a readable PEM file."));
  }
  core::SystemClock clock;
  bool all_ok = true;
  for (const auto& outcome : RefreshRanges(
           *fetcher, **store, clock,
           CatalogRangeSources(detection::BotCatalog::Builtin(), options->Get("bot-ranges-mirror")))) {
    all_ok = all_ok && outcome.ok;
    std::cout << core::ToJson(boost::json::object{
                     {"list", outcome.list_id},
                     {"ok", outcome.ok},
                     {"message", outcome.message},
                     {"intervals", static_cast<std::int64_t>(outcome.intervals)}})
              << "\n";
  }
  std::cout.flush();
  return all_ok ? 0 : 1;
}

}  // namespace

std::span<const OptionDef> RefreshRangesOptionDefs() { return kRefreshRangesOptions; }

std::span<const OptionDef> BootstrapOptionDefs() { return kBootstrapOptions; }

std::span<const OptionDef> DemoOptionDefs() { return kDemoOptions; }

int RunAdmin(std::span<char*> args) {
  if (args.empty() || std::string_view(args[0]) == "--help" || std::string_view(args[0]) == "help") {
    std::cout << kAdminUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string_view command = args[0];
  if (command == "bootstrap") return Bootstrap(args.subspan(1));
  if (command == "demo") return Demo(args.subspan(1));
  if (command == "migrate") return Migrate(args.subspan(1));
  if (command == "refresh-ranges") return RefreshRangesCommand(args.subspan(1));
  std::cerr << "sightline admin: unknown command '" << command << "'\n\n" << kAdminUsage;
  return 2;
}

}  // namespace sightline::app
