// The command-line client's commands (docs/cli.md): `login`, `logout`, `auth status|token` and
// `api METHOD PATH`, composed here over the outbound HTTP client and the credential file.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>

#include "cli/client.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/api_session.h"
#include "cli/login.h"
#include "core/clock.h"
#include "core/version.h"

namespace sightline::cli {
namespace {

namespace json = boost::json;
using core::Result;

constexpr int kUsageError = 2;
constexpr int kAuthError = 3;
constexpr char kDefaultServer[] = "http://127.0.0.1:8080";

// Opens the URL in the user's browser when this session has one ($BROWSER, or xdg-open with a
// display), detached; a failure leaves the printed URL to the user.
void OpenInBrowser(const std::string& url) {
  const std::string browser = EnvOr("BROWSER", "");
  const bool display = std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY");
  if (browser.empty() && !display) return;
  const std::string program = browser.empty() ? "xdg-open" : browser;
  if (::fork() == 0) {
    ::setsid();
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    ::execlp(program.c_str(), program.c_str(), url.c_str(), nullptr);
    std::_Exit(127);
  }
}

Result<cli::CredentialStore> Store() {
  auto directory = cli::CredentialStore::DefaultDirectory();
  if (!directory) return directory.error();
  return cli::CredentialStore(*directory);
}

// The profile a command uses: --profile, else the last one logged in.
Result<std::optional<cli::Profile>> ChosenProfile(cli::CredentialStore& store,
                                                  const CliArgs& args) {
  std::string name = args.Flag("profile");
  if (name.empty()) {
    auto last = store.DefaultName();
    if (!last) return last.error();
    name = *last;
  }
  return store.Find(name);
}

int Fail(const core::Error& error, int code) {
  std::cerr << "sightline: " << error.message() << "\n";
  return code;
}

constexpr std::string_view kLoginHelp =
    "Usage: sightline login [--server URL] [--profile NAME] [--permissions a,b] "
    "[--project ID] [--no-browser]\n\n"
    "Signs in through the browser: prints a one-time code and a URL, opens the browser when\n"
    "there is one, and waits until you approve the login there. The login is kept as a named\n"
    "profile (default: 'default') in the credentials file (see `sightline auth status`).\n"
    "  --server URL        The Sightline site (default $SIGHTLINE_SERVER, else " 
    "http://127.0.0.1:8080).\n"
    "  --permissions a,b   Permissions to ask for (you choose in the browser).\n"
    "  --project ID        The project to suggest.\n"
    "  --no-browser        Only print the URL.\n";

int RunLogin(const CliArgs& args) {
  if (args.help) return std::cout << kLoginHelp, 0;
  auto store = Store();
  if (!store) return Fail(store.error(), kUsageError);
  cli::LoginOptions options;
  options.server = args.Flag("server").empty() ? EnvOr("SIGHTLINE_SERVER", kDefaultServer)
                                               : args.Flag("server");
  if (!args.Flag("profile").empty()) options.profile = args.Flag("profile");
  options.permissions = args.List("permissions");
  if (!args.Flag("project").empty()) options.project_id = args.Flag("project");
  options.open_browser = !args.Has("no-browser");
  auto http = NewCliHttpClient();
  core::SystemClock clock;
  auto profile = cli::Login(*http, clock, *store, options,
                            {std::cerr,
                             [](std::int64_t seconds) {
                               std::this_thread::sleep_for(std::chrono::seconds(seconds));
                             },
                             OpenInBrowser});
  if (!profile) {
    const bool refused = profile.error().code() == core::ErrorCode::kOAuthAccessDenied;
    return Fail(profile.error(), refused ? kAuthError : 1);
  }
  std::cerr << "✓ Logged in to " << profile->server << ", organization "
            << profile->organization << ", project " << profile->project_id << " (profile '"
            << profile->name << "')\n";
  return 0;
}

int RunLogout(const CliArgs& args) {
  if (args.help) {
    std::cout << "Usage: sightline logout [--profile NAME]\n\nRevokes the login on the server "
                 "and forgets it here.\n";
    return 0;
  }
  auto store = Store();
  if (!store) return Fail(store.error(), kUsageError);
  auto profile = ChosenProfile(*store, args);
  if (!profile) return Fail(profile.error(), 1);
  if (!*profile) return std::cerr << "sightline: not logged in\n", kAuthError;
  auto http = NewCliHttpClient();
  core::HttpHeaders headers;
  headers.Set("Content-Type", "application/x-www-form-urlencoded");
  // Revoking the refresh token ends the whole grant (RFC 7009); a server out of reach still
  // lets the user forget the login here.
  auto revoked = cli::Exchange(*http, core::HttpMethod::kPost,
                               cli::ApiBase((*profile)->server) + "/oauth/revoke",
                               std::move(headers),
                               "client_id=sightline-cli&token=" +
                                   core::PercentEncode((*profile)->refresh_token));
  if (!revoked || revoked->status != 200) {
    std::cerr << "sightline: the server did not confirm the revocation; forgetting the login "
                 "anyway\n";
  }
  auto removed = store->Remove((*profile)->name);
  if (!removed) return Fail(removed.error(), 1);
  std::cerr << "✓ Logged out of " << (*profile)->server << " (profile '" << (*profile)->name
            << "')\n";
  return 0;
}

int RunAuthStatus(cli::CredentialStore& store, const CliArgs& args) {
  if (const std::string key = EnvOr("SIGHTLINE_API_KEY", ""); !key.empty()) {
    std::cout << "Using SIGHTLINE_API_KEY on " << EnvOr("SIGHTLINE_SERVER", kDefaultServer)
              << "\n";
    return 0;
  }
  auto profile = ChosenProfile(store, args);
  if (!profile) return Fail(profile.error(), 1);
  if (!*profile) {
    std::cerr << "sightline: not logged in; run `sightline login`\n";
    return kAuthError;
  }
  const cli::Profile& p = **profile;
  std::string permissions;
  for (const std::string& name : p.permissions) permissions += (permissions.empty() ? "" : ", ") + name;
  core::SystemClock clock;
  const std::int64_t left = (p.expires_at - clock.NowMillis()) / 1000;
  std::cout << p.server << "\n"
            << "  profile:       " << p.name << "\n"
            << "  organization:  " << p.organization << "\n"
            << "  project:       " << p.project_id << "\n"
            << "  permissions:   " << (permissions.empty() ? "whatever your role allows" : permissions)
            << "\n"
            << "  access token:  "
            << (left > 0 ? "valid for " + std::to_string(left / 60) + " min"
                         : std::string("expired (refreshed on the next command)"))
            << "\n"
            << "  stored in:     "
            << (p.storage == "keyring" ? "the OS keyring (tokens), " + store.file().string()
                                       : store.file().string())
            << "\n";
  return 0;
}

int RunAuth(const CliArgs& args) {
  const std::string what = args.positional.empty() ? "" : args.positional[0];
  if (args.help || (what != "status" && what != "token")) {
    std::cout << "Usage: sightline auth status|token [--profile NAME]\n\n"
                 "  status  Which server, organization, project and permissions the login has.\n"
                 "  token   Print a valid access token (refreshed when needed), for scripts.\n";
    return args.help ? 0 : kUsageError;
  }
  auto store = Store();
  if (!store) return Fail(store.error(), kUsageError);
  if (what == "status") return RunAuthStatus(*store, args);
  auto profile = ChosenProfile(*store, args);
  if (!profile) return Fail(profile.error(), 1);
  if (!*profile) return std::cerr << "sightline: not logged in\n", kAuthError;
  auto http = NewCliHttpClient();
  core::SystemClock clock;
  cli::ApiSession session(*http, clock, **profile, *store);
  auto token = session.Token();
  if (!token) return Fail(token.error(), kAuthError);
  std::cout << *token << "\n";
  return 0;
}

}  // namespace

bool IsCliCommandGroup(std::string_view name) { return IsCommandGroup(name); }

int RunCliCommand(std::string_view command, std::span<char*> words) {
  if (IsCommandGroup(command)) return RunOperationCommand(command, words);
  if (command == "track") return RunTrack(words);
  auto args = ParseCliArgs(words);
  if (!args) return Fail(args.error(), kUsageError);
  if (command == "login") return RunLogin(*args);
  if (command == "logout") return RunLogout(*args);
  if (command == "auth") return RunAuth(*args);
  if (command == "completion") return RunCompletion(*args);
  return RunApiCommand(*args);
}

}  // namespace sightline::cli
