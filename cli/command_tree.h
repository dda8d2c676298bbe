// Every registry operation as a command of the CLI, derived from its definition (never a list
// kept by hand): `sightline <group> <command> [--flag value]…`. The group is the operation's
// OpenAPI tag ("Web analytics" → web-analytics); the command its name without the group's
// words (get_web_timeline → get-timeline), or the whole name when that would be empty or
// ambiguous; the whole name (get-web-timeline) is always accepted too. Flags are the input
// schema's properties in kebab case (projectId → --project-id), typed and checked against the
// schema before anything is sent.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "core/http_types.h"
#include "core/result.h"
#include "tools/operation.h"
#include "tools/registry.h"

namespace sightline::cli {

struct Flag {
  std::string name;      // --name, kebab case
  std::string property;  // the schema's property
  std::string type;      // string, integer, number, boolean, array, object
  bool required = false;
  std::string help;      // description, enum values, default
};

struct Command {
  std::string group, name, full_name;
  const tools::OperationSpec* spec = nullptr;
  boost::json::object input_schema;  // resolved: no $refs
  std::vector<Flag> flags;
};

std::vector<Command> CommandTree(const tools::Registry& registry);
// The product's commands: every operation of features/all_operations.cpp. Built once.
const std::vector<Command>& AllCommands();
std::vector<std::string> Groups(const std::vector<Command>& tree);
const Command* FindCommand(const std::vector<Command>& tree, std::string_view group,
                           std::string_view name);

// What the flags give, as the operation's arguments: values typed as the schema says (VAL_003
// naming the flag otherwise); `defaults` fill properties not given (the login's organization
// and project). Validated against the input schema, so a missing required flag is named.
core::Result<boost::json::object> ArgumentsOf(const Command& command,
                                              const std::vector<std::pair<std::string, std::string>>& flags,
                                              const boost::json::object& defaults);

// The request for the arguments: the path with its parameters, the rest in the query string
// (GET, DELETE) or a JSON body.
struct CommandRequest {
  core::HttpMethod method = core::HttpMethod::kGet;
  std::string target;  // relative to the API base
  std::string body;
};
CommandRequest RequestOf(const Command& command, const boost::json::object& args);

// `sightline <group> --help` and `sightline <group> <command> --help`.
std::string GroupHelp(const std::vector<Command>& tree, std::string_view group);
std::string CommandHelp(const Command& command);

}  // namespace sightline::cli
