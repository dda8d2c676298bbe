// The subcommands of the `sightline` executable. Each returns the process exit code:
// 0 success, 1 failure, 2 usage error.
#pragma once

#include <span>
#include <string_view>

namespace sightline::app {

int RunServe(std::span<char*> args);
int RunAdmin(std::span<char*> args);
int RunDocs(std::span<char*> args);
// The command-line client: login, logout, auth, api (app/cli_commands.cpp).
int RunCliCommand(std::string_view command, std::span<char*> args);
// Whether `name` is a group of registry operations (web-analytics, projects…).
bool IsCliCommandGroup(std::string_view name);

}  // namespace sightline::app

namespace sightline::core {
class Error;
}

namespace sightline::app {
// Prints a command failure on stderr ("sightline: <message>") and returns the exit code:
// 2 for a usage error (VAL_*), 1 otherwise.
int ReportFailure(const core::Error& error);
}  // namespace sightline::app
