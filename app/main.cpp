// The `sightline` executable: one binary, several subcommands.
#include "app/commands.h"
#include "cli/commands.h"
#include "core/version.h"

#include <sys/stat.h>

#include <iostream>
#include <span>
#include <string_view>


namespace {

constexpr std::string_view kUsage =
    "Usage: sightline <command> [options]\n\n"
    "Server commands:\n"
    "  serve     Run the HTTP server (REST API, ingestion, OpenAPI).\n"
    "  admin     Operator commands on the store: bootstrap, migrate.\n"
    "  docs      Print generated documents: errors, permissions, openapi.\n"
    "  version   Print the version.\n\n"
    "Client commands (docs/cli.md):\n"
    "  login     Sign in to a Sightline server through the browser.\n"
    "  logout    Revoke the login and forget it.\n"
    "  auth      status: what the login may do; token: print an access token.\n"
    "  api       Send a request to the REST API: sightline api GET /web-analytics.\n"
    "  track     Send a tracked event with an SDK key: sightline track --event deploy.\n"
    "  completion  Print a bash, zsh or fish completion script.\n"
    "  <group> <command>  Every API operation, by its group: web-analytics, projects, keys…\n"
    "            ('sightline <group> --help' lists its commands).\n\n"
    "Run 'sightline <command> --help' for a command's options.\n";

}  // namespace

int main(int argc, char** argv) {
  // The store holds password and key hashes: whatever this process creates (the data
  // directory, the SQLite file and its WAL) is readable by its owner only.
  umask(077);
  std::span<char*> args(argv + 1, static_cast<std::size_t>(argc > 0 ? argc - 1 : 0));
  if (args.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string_view command = args[0];
  try {
    if (command == "serve") return sightline::app::RunServe(args.subspan(1));
    if (command == "admin") return sightline::app::RunAdmin(args.subspan(1));
    if (command == "docs") return sightline::app::RunDocs(args.subspan(1));
    if (command == "login" || command == "logout" || command == "auth" || command == "api" ||
        command == "completion" || command == "track" ||
        sightline::cli::IsCliCommandGroup(command)) {
      return sightline::cli::RunCliCommand(command, args.subspan(1));
    }
    if (command == "version" || command == "--version") {
      std::cout << "sightline " << sightline::core::kServerVersion << " (API "
                << sightline::core::kApiVersion << ")\n";
      return 0;
    }
    if (command == "--help" || command == "help" || command == "-h") {
      std::cout << kUsage;
      return 0;
    }
  } catch (const std::exception& e) {
    std::cerr << "sightline: unexpected failure: " << e.what() << std::endl;
    return 1;
  }
  std::cerr << "sightline: unknown command '" << command << "'\n\n" << kUsage;
  return 2;
}
