// `sightline <group> <command> [--flag value]…`: every registry operation as a command
// (cli/command_tree.h), printed as a table, CSV or the API's JSON (cli/render.h), pages
// followed with --all.
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include <boost/json.hpp>

#include "cli/client.h"
#include "cli/arguments.h"
#include "cli/command_tree.h"
#include "cli/flag_parser.h"
#include "cli/render.h"
#include "tools/operation.h"

namespace sightline::cli {
namespace {

namespace json = boost::json;

// Options of every operation command (the operation's own flags come from its schema).
struct CommandOptions {
  cli::OutputFormat format = cli::OutputFormat::kTable;
  bool all = false, help = false;
  std::string profile;
  std::vector<std::pair<std::string, std::string>> flags;
};

// The output switches, --profile and the operation's own flags (cli/flag_parser.h): a boolean
// flag alone means true.
core::Result<CommandOptions> ParseCommandOptions(const cli::Command& command,
                                                 std::span<char*> words) {
  std::vector<FlagSpec> known = {{"json", FlagValue::kNone}, {"csv", FlagValue::kNone},
                                 {"all", FlagValue::kNone}, {"profile", FlagValue::kRequired}};
  for (const cli::Flag& flag : command.flags) {
    if (flag.type == "boolean") known.push_back({flag.name, FlagValue::kOptional});
  }
  auto parsed = ParseWords(words, known, UnknownFlags::kTakeAValue);
  if (!parsed) return parsed.error();
  if (!parsed->positional.empty()) {
    const std::string& word = parsed->positional.front();
    return core::Error::Invalid("arguments",
                                "Unexpected '" + word + "': flags are written --name value.");
  }
  CommandOptions options;
  options.help = parsed->help;
  for (auto& [name, value] : parsed->flags) {
    if (name == "json") {
      options.format = cli::OutputFormat::kJson;
    } else if (name == "csv") {
      options.format = cli::OutputFormat::kCsv;
    } else if (name == "all") {
      options.all = true;
    } else if (name == "profile") {
      options.profile = std::move(value);
    } else {
      options.flags.emplace_back(std::move(name), std::move(value));
    }
  }
  return options;
}

// The server of the login (`profile`, else the last one), else the local default.
std::string LoginServer(const std::string& profile) {
  auto directory = cli::CredentialStore::DefaultDirectory();
  if (directory) {
    cli::CredentialStore store(*directory);
    std::string name = profile;
    if (name.empty()) {
      auto last = store.DefaultName();
      name = last ? *last : "default";
    }
    if (auto found = store.Find(name); found && *found) return (*found)->server;
  }
  return "http://127.0.0.1:8080";
}

cli::TableStyle TerminalStyle() {
  cli::TableStyle style;
  struct winsize size {};
  if (::isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    style.width = size.ws_col;
  } else if (const char* columns = std::getenv("COLUMNS"); columns && std::atoi(columns) > 0) {
    style.width = static_cast<std::size_t>(std::atoi(columns));
  } else {
    style.width = static_cast<std::size_t>(-1) / 4;  // piped: every value whole
  }
  const char* no_colour = std::getenv("NO_COLOR");
  style.colour = ::isatty(STDOUT_FILENO) && !(no_colour && *no_colour);
  return style;
}

bool Paged(const cli::Command& command) {
  const auto has = [&](std::string_view name) {
    return std::ranges::any_of(command.flags,
                               [&](const cli::Flag& flag) { return flag.property == name; });
  };
  return has("cursor") || (has("limit") && has("offset"));
}

// Whether there is a page after `page`, and the arguments that ask for it: the lists follow
// their nextCursor (null on the last page); the rankings that page by offset come back short
// on their last page.
bool NextPage(const json::value& page, const json::array* rows, json::object& args,
              std::size_t& offset) {
  if (const json::value* next = page.is_object() ? page.as_object().if_contains("nextCursor")
                                                 : nullptr) {
    if (!next->is_string()) return false;
    args["cursor"] = *next;
    args.erase("offset");  // it applies after the cursor: only the first page skips
    return true;
  }
  const std::size_t limit = args.contains("limit") ? args.at("limit").to_number<std::size_t>() : 0;
  if (rows == nullptr || limit == 0 || rows->size() < limit) return false;
  offset += limit;
  args["offset"] = offset;
  return true;
}

// Calls the operation; with --all, page after page to the last, the pages' rows gathered into
// the first answer. The exit code, and the answer when there is one.
int Call(const cli::Command& command, json::object args, bool all, cli::ApiSession& session,
         json::value& answer) {
  std::size_t offset = args.contains("offset") ? args.at("offset").to_number<std::size_t>() : 0;
  for (;;) {
    const cli::CommandRequest request = cli::RequestOf(command, args);
    auto reply = session.Call(request.method, request.target, request.body);
    if (!reply) {
      std::cerr << "sightline: " << reply.error().message() << "\n";
      return reply.error().code() == core::ErrorCode::kAuthExpiredCredential ? 3 : 1;
    }
    if (reply->status >= 300) {
      std::cerr << "sightline: " << cli::DescribeFailure(*reply) << "\n";
      return cli::ExitCodeOf(reply->status);
    }
    if (reply->body.empty()) return 0;
    boost::system::error_code ec;
    json::value page = json::parse(reply->body, ec);
    if (ec) return std::cout << reply->body, 0;  // not JSON: as it came
    std::string member;
    const json::array* rows = cli::RowsOf(page, &member);
    if (answer.is_null()) {
      answer = page;
    } else if (rows && !member.empty()) {
      json::array& gathered = answer.as_object()[member].as_array();
      gathered.insert(gathered.end(), rows->begin(), rows->end());
    }
    const bool more = all && NextPage(page, rows, args, offset);
    if (all && ::isatty(STDERR_FILENO)) {  // progress for people, never in a pipe's output
      const std::size_t so_far = member.empty() ? 0 : answer.as_object()[member].as_array().size();
      std::cerr << "\rfetched " << so_far << " rows" << (more ? "…" : "\n") << std::flush;
    }
    if (!more) {
      // The gathered rows are the whole list: nothing follows them.
      if (all && answer.is_object() && answer.as_object().contains("nextCursor")) {
        answer.as_object()["nextCursor"] = nullptr;
      }
      return 0;
    }
  }
}

// A stream (stream_notifications): each event's JSON on its own line as it comes, until the
// server ends it or the user stops the command.
int Follow(const cli::Command& command, const json::object& args, cli::ApiSession& session) {
  const cli::CommandRequest request = cli::RequestOf(command, args);
  auto reply = session.Stream(request.method, request.target, [](std::string_view data) {
    std::cout << data << std::endl;
  });
  if (!reply) return std::cerr << "sightline: " << reply.error().message() << "\n", 1;
  if (reply->status >= 300) {
    std::cerr << "sightline: " << cli::DescribeFailure(*reply) << "\n";
    return cli::ExitCodeOf(reply->status);
  }
  return 0;
}

}  // namespace

bool IsCommandGroup(std::string_view name) {
  static const std::vector<std::string> groups =
      cli::Groups(cli::AllCommands());
  return std::ranges::find(groups, name) != groups.end();
}

// `sightline track --event NAME [--channel C] [--notify] …`: sdk_track_event with an SDK key
// (SIGHTLINE_SDK_KEY or --sdk-key), the operation's own flags, for scripts and CI notifications.
int RunTrack(std::span<char*> words) {
  const std::vector<cli::Command>& tree = cli::AllCommands();
  const auto command = std::ranges::find_if(
      tree, [](const cli::Command& c) { return c.spec->name == "sdk_track_event"; });
  auto options = ParseCommandOptions(*command, words);
  if (!options) return std::cerr << "sightline: " << options.error().message() << "\n", 2;
  if (options->help) {
    std::cout << "Usage: sightline track --event NAME [--channel C] [--description TEXT] "
                 "[--icon EMOJI] [--notify] [flags]\n\nSends one tracked event with an SDK key "
                 "(SIGHTLINE_SDK_KEY or --sdk-key) to SIGHTLINE_SERVER (or --server, or the "
                 "login's server).\n\n"
              << cli::CommandHelp(*command).substr(cli::CommandHelp(*command).find("Flags:"));
    return 0;
  }
  std::string key = EnvOr("SIGHTLINE_SDK_KEY"), server = EnvOr("SIGHTLINE_SERVER");
  std::erase_if(options->flags, [&](const auto& flag) {
    if (flag.first == "sdk-key") key = flag.second;
    if (flag.first == "server") server = flag.second;
    return flag.first == "sdk-key" || flag.first == "server";
  });
  if (key.empty()) {
    std::cerr << "sightline: set SIGHTLINE_SDK_KEY (or --sdk-key) to the project's SDK key\n";
    return 3;
  }
  if (server.empty()) server = LoginServer(options->profile);
  auto args = cli::ArgumentsOf(*command, options->flags, {});
  if (!args) return std::cerr << "sightline: " << args.error().message() << "\n", 2;
  auto http = NewCliHttpClient();
  cli::ApiSession session(*http, server, key);
  json::value answer;
  const int code = Call(*command, std::move(*args), false, session, answer);
  if (code == 0) std::cerr << "✓ tracked\n";
  return code;
}

int RunOperationCommand(std::string_view group, std::span<char*> words) {
  const std::vector<cli::Command>& tree = cli::AllCommands();
  if (!IsCommandGroup(group)) {
    std::cerr << "sightline: unknown command '" << group << "' (sightline --help lists them)\n";
    return 2;
  }
  if (words.empty() || std::string_view(words[0]) == "--help" ||
      std::string_view(words[0]) == "-h") {
    std::cout << cli::GroupHelp(tree, group);
    return words.empty() ? 2 : 0;
  }
  const cli::Command* command = cli::FindCommand(tree, group, words[0]);
  std::size_t first_flag = 1;
  // A group's namesake command runs without repeating its name: `sightline query --metrics …`.
  if (command == nullptr && std::string_view(words[0]).starts_with("--")) {
    command = cli::FindCommand(tree, group, group);
    first_flag = 0;
  }
  if (command == nullptr) {
    std::cerr << "sightline: '" << group << "' has no command '" << words[0] << "'\n\n"
              << cli::GroupHelp(tree, group);
    return 2;
  }
  auto options = ParseCommandOptions(*command, words.subspan(first_flag));
  if (!options) return std::cerr << "sightline: " << options.error().message() << "\n", 2;
  if (options->help) return std::cout << cli::CommandHelp(*command), 0;
  auto opened = OpenCliClient(options->profile);
  if (!opened.client) return opened.exit_code;
  auto args = cli::ArgumentsOf(*command, options->flags, opened.client->defaults);
  if (!args) return std::cerr << "sightline: " << args.error().message() << "\n", 2;
  if (options->all && !Paged(*command)) {
    std::cerr << "sightline: --all: this command has no pages\n";
    return 2;
  }
  if (options->all && !args->contains("limit")) (*args)["limit"] = 100;
  if (command->spec->open_stream && !command->spec->run && !command->spec->run_async) {
    return Follow(*command, *args, *opened.client->session);
  }
  json::value answer;
  const int code = Call(*command, std::move(*args), options->all, *opened.client->session, answer);
  if (code != 0 || answer.is_null()) return code;
  cli::Render(answer, options->format, TerminalStyle(), std::cout);
  return 0;
}

}  // namespace sightline::cli
