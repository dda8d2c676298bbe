#include "cli/command_tree.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include <boost/json.hpp>

#include "core/text.h"
#include "features/all_operations.h"
#include "tools/schema.h"
#include "core/json_util.h"

namespace sightline::cli {
namespace {

namespace json = boost::json;
using core::Result;

std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    if (c == ' ' || c == '-' || c == '_') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

std::string Joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : "-") + word;
  return out;
}

// projectId → project-id, user_id → user-id.
std::string KebabCase(std::string_view property) {
  std::string out;
  for (char c : property) {
    if (c == '_') {
      out.push_back('-');
    } else if (std::isupper(static_cast<unsigned char>(c))) {
      out.push_back('-');
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// The operation's name without the group's words (singular or plural).
std::string ShortName(std::string_view operation, std::string_view tag) {
  std::set<std::string> group;
  for (const std::string& word : Words(tag)) {
    group.insert(word);
    if (word.size() > 1 && word.back() == 's') group.insert(word.substr(0, word.size() - 1));
    group.insert(word + "s");
  }
  std::vector<std::string> kept;
  for (std::string& word : Words(operation)) {
    if (!group.contains(word)) kept.push_back(std::move(word));
  }
  return Joined(kept);
}

std::string FlagHelp(const json::object& schema) {
  std::string help;
  if (const json::value* text = schema.if_contains("description"); text && text->is_string()) {
    help = std::string(text->as_string());
  }
  if (const json::value* values = schema.if_contains("enum"); values && values->is_array()) {
    std::string list;
    for (const json::value& value : values->as_array()) {
      list += (list.empty() ? "" : ", ") + (value.is_string() ? std::string(value.as_string())
                                                              : core::ToJson(value));
    }
    help += (help.empty() ? "" : " ") + std::string("One of: ") + list + ".";
  }
  if (const json::value* fallback = schema.if_contains("default")) {
    help += (help.empty() ? "" : " ") + std::string("Default: ") +
            (fallback->is_string() ? std::string(fallback->as_string())
                                   : core::ToJson(*fallback)) + ".";
  }
  return help;
}

std::vector<Flag> FlagsOf(const json::object& schema) {
  std::set<std::string> required;
  if (const json::value* names = schema.if_contains("required"); names && names->is_array()) {
    for (const json::value& name : names->as_array()) required.emplace(name.as_string());
  }
  std::vector<Flag> flags;
  const json::value* properties = schema.if_contains("properties");
  if (!properties || !properties->is_object()) return flags;
  for (const auto& [property, definition] : properties->as_object()) {
    const json::object& def = definition.as_object();
    const json::value* type = def.if_contains("type");
    flags.push_back({KebabCase(property), std::string(property),
                     type && type->is_string() ? std::string(type->as_string())
                     : def.contains("enum")    ? "string"
                                               : "any",
                     required.contains(std::string(property)), FlagHelp(def)});
  }
  return flags;
}

const Flag* FindFlag(const Command& command, std::string_view name) {
  for (const Flag& flag : command.flags) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

// A flag's text as the value its schema wants: arrays comma-separated or as JSON (starting
// with `[`), objects as JSON, a value of any type as JSON when it parses and as text otherwise
// (`--date-range 7d`, `--date-range '["2026-01-01","2026-01-31"]'`), the rest as the REST API
// reads query parameters.
Result<json::value> ValueOf(const Command& command, const Flag& flag, const std::string& text) {
  const json::object& schema =
      command.input_schema.at("properties").at(flag.property).as_object();
  if (flag.type == "any" || (flag.type == "array" && text.starts_with("["))) {
    boost::system::error_code ec;
    json::value parsed = json::parse(text, ec);
    if (!ec && (flag.type == "any" || parsed.is_array())) return parsed;
    if (flag.type == "array") {
      return core::Error::Invalid(flag.name, "--" + flag.name + " starting with [ wants a JSON array.");
    }
    return json::value(json::string(text));
  }
  if (flag.type == "object") {
    boost::system::error_code ec;
    json::value parsed = json::parse(text, ec);
    if (ec || !parsed.is_object()) {
      return core::Error::Invalid(flag.name, "--" + flag.name + " wants a JSON object.");
    }
    return parsed;
  }
  if (flag.type == "array") {
    json::array items;
    const json::value* item = schema.if_contains("items");
    for (const std::string& part : core::SplitList(text, ',')) {
      if (item == nullptr || !item->is_object()) {
        items.emplace_back(part);
        continue;
      }
      auto value = tools::CoerceFromString(item->as_object(), flag.name, part);
      if (!value) return value.error();
      items.push_back(std::move(*value));
    }
    return json::value(std::move(items));
  }
  return tools::CoerceFromString(schema, flag.name, text);
}

}  // namespace

std::vector<Command> CommandTree(const tools::Registry& registry) {
  std::vector<Command> tree;
  std::map<std::pair<std::string, std::string>, int> uses;
  for (const tools::RegisteredOperation& operation : registry.operations()) {
    const tools::OperationSpec& spec = *operation.spec;
    Command command;
    command.group = Joined(Words(spec.tag));
    command.full_name = Joined(Words(spec.name));
    command.name = ShortName(spec.name, spec.tag);
    command.spec = &spec;
    command.input_schema = operation.input_schema;
    command.flags = FlagsOf(command.input_schema);
    ++uses[{command.group, command.name}];
    tree.push_back(std::move(command));
  }
  for (Command& command : tree) {
    if (command.name.empty() || uses[{command.group, command.name}] > 1) {
      command.name = command.full_name;
    }
  }
  std::ranges::sort(tree, [](const Command& a, const Command& b) {
    return std::tie(a.group, a.name) < std::tie(b.group, b.name);
  });
  return tree;
}

const std::vector<Command>& AllCommands() {
  // The unit tests build the same registry, so a failure here is a bug: value() throws.
  static const tools::Registry registry =
      tools::Registry::Build(tools::AllOperations(), tools::AllSchemaDocuments()).value();
  static const std::vector<Command> tree = CommandTree(registry);
  return tree;
}

std::vector<std::string> Groups(const std::vector<Command>& tree) {
  std::vector<std::string> groups;
  for (const Command& command : tree) {
    if (groups.empty() || groups.back() != command.group) groups.push_back(command.group);
  }
  return groups;
}

const Command* FindCommand(const std::vector<Command>& tree, std::string_view group,
                           std::string_view name) {
  for (const Command& command : tree) {
    if (command.group == group && (command.name == name || command.full_name == name)) {
      return &command;
    }
  }
  return nullptr;
}

Result<json::object> ArgumentsOf(const Command& command,
                                 const std::vector<std::pair<std::string, std::string>>& flags,
                                 const json::object& defaults) {
  json::object args;
  for (const auto& [name, text] : flags) {
    const Flag* flag = FindFlag(command, name);
    if (flag == nullptr) {
      return core::Error::Invalid(name, "Unknown flag --" + name + " for `sightline " +
                                            command.group + " " + command.name +
                                            "` (see --help).");
    }
    auto value = ValueOf(command, *flag, text);
    if (!value) return value.error();
    args[flag->property] = std::move(*value);
  }
  for (const auto& [property, value] : defaults) {
    const json::value* properties = command.input_schema.if_contains("properties");
    if (properties && properties->as_object().contains(property) && !args.contains(property)) {
      args[property] = value;
    }
  }
  // The organization and project a key is bound to are the server's to fill in, except in a
  // path, which the client writes.
  json::object schema = command.input_schema;
  if (json::value* required = schema.if_contains("required"); required && required->is_array()) {
    json::array kept;
    for (const json::value& name : required->as_array()) {
      const bool bound = name == "orgSlug" || name == "projectId";
      const bool in_path =
          command.spec->path.find("{" + std::string(name.as_string()) + "}") != std::string::npos;
      if (!bound || in_path || args.contains(name.as_string())) kept.push_back(name);
    }
    *required = std::move(kept);
  }
  auto valid = tools::Validate(schema, args);
  if (!valid) {
    const std::string field = valid.error().message();
    if (field.find("'orgSlug'") != std::string::npos) {
      return core::Error::Invalid("orgSlug", "Name the organization: --org-slug, or "
                                             "SIGHTLINE_ORG with an API key.");
    }
    if (field.find("'projectId'") != std::string::npos) {
      return core::Error::Invalid("projectId", "Name the project: --project-id, or "
                                               "SIGHTLINE_PROJECT with an API key.");
    }
    return valid.error();
  }
  return args;
}

CommandRequest RequestOf(const Command& command, const json::object& args) {
  CommandRequest request{command.spec->method, std::string(command.spec->path), ""};
  json::object rest = args;
  for (std::size_t open = request.target.find('{'); open != std::string::npos;
       open = request.target.find('{', open)) {
    const std::size_t close = request.target.find('}', open);
    const std::string name = request.target.substr(open + 1, close - open - 1);
    const json::value* value = rest.if_contains(name);
    const std::string text = value == nullptr ? "" : value->is_string()
                                                         ? std::string(value->as_string())
                                                         : core::ToJson(*value);
    request.target.replace(open, close - open + 1, core::PercentEncode(text));
    open += text.size();
    rest.erase(name);
  }
  const bool in_query =
      request.method == core::HttpMethod::kGet || request.method == core::HttpMethod::kDelete;
  if (!in_query) {
    request.body = core::ToJson(rest);
    return request;
  }
  char separator = '?';
  for (const auto& [name, value] : rest) {
    std::string text = value.is_string() ? std::string(value.as_string()) : core::ToJson(value);
    if (value.is_array()) {
      text.clear();
      for (const json::value& item : value.as_array()) {
        text += (text.empty() ? "" : ",") +
                (item.is_string() ? std::string(item.as_string()) : core::ToJson(item));
      }
    }
    request.target += separator + core::PercentEncode(name) + "=" + core::PercentEncode(text);
    separator = '&';
  }
  return request;
}

std::string GroupHelp(const std::vector<Command>& tree, std::string_view group) {
  std::ostringstream out;
  out << "Usage: sightline " << group << " <command> [flags]\n\nCommands:\n";
  for (const Command& command : tree) {
    if (command.group != group) continue;
    out << "  " << command.name << std::string(std::max<std::size_t>(2, 28 - command.name.size()), ' ')
        << command.spec->summary << "\n";
  }
  out << "\nRun 'sightline " << group << " <command> --help' for its flags.\n";
  return out.str();
}

std::string CommandHelp(const Command& command) {
  std::ostringstream out;
  out << "Usage: sightline " << command.group << " " << command.name << " [flags]\n\n"
      << command.spec->summary << ". " << command.spec->description << "\n\n"
      << core::MethodName(command.spec->method) << " /api" << command.spec->path
      << "  (operation " << command.spec->name << ", permission "
      << identity::PermissionName(command.spec->permission) << ")\n\nFlags:\n";
  for (const Flag& flag : command.flags) {
    const bool bound = flag.property == "orgSlug" || flag.property == "projectId";
    out << "  --" << flag.name << " " << (flag.type == "boolean" ? "true|false" : flag.type == "any" ? "text|json" : flag.type)
        << (bound ? "  (the login's when left out)" : flag.required ? "  (required)" : "")
        << "\n";
    if (!flag.help.empty()) out << "      " << flag.help << "\n";
  }
  out << "  --json | --csv      The exact API answer, or CSV of its rows (default: a table).\n"
      << "  --all               Every page: follow nextCursor (or offset) to the end.\n"
      << "  --profile NAME      The login to use.\n";
  return out.str();
}

}  // namespace sightline::cli
