// The command-line client's commands, as `sightline <command>` runs them: login, logout, auth,
// api, completion, track and the registry's operation groups. Each returns the process exit
// code: 0 success, 1 failure, 2 usage error, 3 no credentials.
#pragma once

#include <span>
#include <string_view>

namespace sightline::cli {

// login, logout, auth, api, completion, track, or an operation group (cli/commands.cpp).
int RunCliCommand(std::string_view command, std::span<char*> args);
// Whether `name` is a group of registry operations (web-analytics, projects…).
bool IsCliCommandGroup(std::string_view name);

}  // namespace sightline::cli
