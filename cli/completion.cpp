// `sightline completion bash|zsh|fish`: shell completion generated from the same command tree
// as the commands (cli/command_tree.h), so a new operation completes without a change here.
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "cli/arguments.h"
#include "cli/command_tree.h"

namespace sightline::cli {
namespace {

constexpr std::string_view kClientCommands = "login logout auth api track completion";

std::string Joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : " ") + word;
  return out;
}

// group → its commands, and "group command" → its flags.
struct Words {
  std::map<std::string, std::vector<std::string>> commands;
  std::map<std::string, std::vector<std::string>> flags;
};

Words WordsOf(const std::vector<cli::Command>& tree) {
  Words words;
  for (const cli::Command& command : tree) {
    words.commands[command.group].push_back(command.name);
    std::vector<std::string>& flags = words.flags[command.group + " " + command.name];
    for (const cli::Flag& flag : command.flags) flags.push_back("--" + flag.name);
    for (const char* common : {"--json", "--csv", "--all", "--profile", "--help"}) {
      flags.emplace_back(common);
    }
  }
  return words;
}

std::string Bash(const Words& words) {
  std::ostringstream out;
  std::vector<std::string> groups;
  for (const auto& [group, commands] : words.commands) groups.push_back(group);
  out << "# sightline completion for bash: source <(sightline completion bash)\n"
      << "_sightline() {\n"
      << "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" words=\"\"\n"
      << "  if [[ $COMP_CWORD -eq 1 ]]; then\n"
      << "    words=\"" << kClientCommands << " serve admin docs version " << Joined(groups)
      << "\"\n"
      << "  elif [[ $COMP_CWORD -eq 2 ]]; then\n"
      << "    case \"${COMP_WORDS[1]}\" in\n"
      << "      auth) words=\"status token\" ;;\n"
      << "      completion) words=\"bash zsh fish\" ;;\n";
  for (const auto& [group, commands] : words.commands) {
    out << "      " << group << ") words=\"" << Joined(commands) << "\" ;;\n";
  }
  out << "    esac\n"
      << "  else\n"
      << "    case \"${COMP_WORDS[1]} ${COMP_WORDS[2]}\" in\n";
  for (const auto& [command, flags] : words.flags) {
    out << "      \"" << command << "\") words=\"" << Joined(flags) << "\" ;;\n";
  }
  out << "    esac\n"
      << "  fi\n"
      << "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
      << "}\n"
      << "complete -F _sightline sightline\n";
  return out.str();
}

std::string Fish(const Words& words) {
  std::ostringstream out;
  out << "# sightline completion for fish: sightline completion fish | source\n"
      << "complete -c sightline -f\n"
      << "complete -c sightline -n __fish_use_subcommand -a '" << kClientCommands
      << " serve admin docs version'\n";
  for (const auto& [group, commands] : words.commands) {
    out << "complete -c sightline -n __fish_use_subcommand -a " << group << "\n"
        << "complete -c sightline -n '__fish_seen_subcommand_from " << group << "' -a '"
        << Joined(commands) << "'\n";
  }
  for (const auto& [command, flags] : words.flags) {
    const std::string name = command.substr(command.find(' ') + 1);
    const std::string group = command.substr(0, command.find(' '));
    for (const std::string& flag : flags) {
      out << "complete -c sightline -n '__fish_seen_subcommand_from " << group
          << "; and __fish_seen_subcommand_from " << name << "' -l " << flag.substr(2) << "\n";
    }
  }
  return out.str();
}

}  // namespace

int RunCompletion(const CliArgs& args) {
  const std::string shell = args.positional.empty() ? "" : args.positional[0];
  const Words words = WordsOf(cli::AllCommands());
  if (shell == "bash") return std::cout << Bash(words), 0;
  // zsh runs the bash function through its bash-compatible completion.
  if (shell == "zsh") {
    std::cout << "# sightline completion for zsh: source <(sightline completion zsh)\n"
              << "autoload -U +X bashcompinit && bashcompinit\n"
              << Bash(words);
    return 0;
  }
  if (shell == "fish") return std::cout << Fish(words), 0;
  std::cout << "Usage: sightline completion bash|zsh|fish\n\n"
               "Prints a completion script for the shell:\n"
               "  bash: source <(sightline completion bash)   (add it to ~/.bashrc)\n"
               "  zsh:  source <(sightline completion zsh)    (add it to ~/.zshrc)\n"
               "  fish: sightline completion fish > ~/.config/fish/completions/sightline.fish\n";
  return args.help ? 0 : 2;
}

}  // namespace sightline::cli
