// The subcommands of the `sightline` executable. Each returns the process exit code:
// 0 success, 1 failure, 2 usage error.
#pragma once

#include <span>
#include <string_view>

namespace sightline::app {

int RunServe(std::span<char*> args);
int RunAdmin(std::span<char*> args);
int RunDocs(std::span<char*> args);
// The command-line client's commands are cli/commands.h's.

}  // namespace sightline::app

namespace sightline::core {
class Error;
}

namespace sightline::app {
// Prints a command failure on stderr ("sightline: <message>") and returns the exit code:
// 2 for a usage error (VAL_*), 1 otherwise.
int ReportFailure(const core::Error& error);
}  // namespace sightline::app
