#include "cli/keyring.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace sightline::cli {
namespace {

using core::Error;
using core::Result;

struct Ran {
  int status = -1;
  std::string out;
};

// Runs secret-tool with `args`, `input` on its standard input; its exit status and output.
Result<Ran> SecretTool(const std::vector<std::string>& args, const std::string& input) {
  int in[2], out[2];
  if (::pipe(in) != 0) return Error::Internal("pipe failed");
  if (::pipe(out) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    return Error::Internal("pipe failed");
  }
  const pid_t pid = ::fork();
  if (pid < 0) return Error::Internal("fork failed");
  if (pid == 0) {
    ::dup2(in[0], STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    for (int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);
    std::vector<char*> argv{const_cast<char*>("secret-tool")};
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    ::execvp("secret-tool", argv.data());
    std::_Exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  // A secret is small: it fits the pipe's buffer before secret-tool reads it.
  (void)!::write(in[1], input.data(), input.size());
  ::close(in[1]);
  Ran ran;
  char buffer[4096];
  for (ssize_t n; (n = ::read(out[0], buffer, sizeof buffer)) > 0;) {
    ran.out.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(out[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ran.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return ran;
}

bool OnPath(const char* program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  std::string dirs(path);
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    if (::access((dirs.substr(start, end - start) + "/" + program).c_str(), X_OK) == 0) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

}  // namespace

bool Keyring::Available() {
  const char* choice = std::getenv("SIGHTLINE_CREDENTIAL_STORE");
  if (choice && std::string_view(choice) == "file") return false;
  const char* bus = std::getenv("DBUS_SESSION_BUS_ADDRESS");
  return bus && *bus && OnPath("secret-tool");
}

Result<void> Keyring::Store(const std::string& profile, const std::string& secret) {
  auto ran = SecretTool({"store", "--label=Sightline CLI (" + profile + ")", "service",
                         "sightline-cli", "profile", profile},
                        secret);
  if (!ran) return ran.error();
  if (ran->status != 0) return Error(core::ErrorCode::kUnavailable, "The keyring refused the login.");
  return {};
}

Result<std::optional<std::string>> Keyring::Lookup(const std::string& profile) {
  auto ran = SecretTool({"lookup", "service", "sightline-cli", "profile", profile}, "");
  if (!ran) return ran.error();
  if (ran->status != 0 || ran->out.empty()) return std::optional<std::string>();
  return std::optional<std::string>(ran->out);
}

Result<void> Keyring::Clear(const std::string& profile) {
  auto ran = SecretTool({"clear", "service", "sightline-cli", "profile", profile}, "");
  if (!ran) return ran.error();
  return {};
}

}  // namespace sightline::cli
