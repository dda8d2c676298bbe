// End-to-end: the command-line client (`sightline login`, `auth`, `api`, `logout`) against a
// real server — the browser login approved over REST as the dashboard's page does it (the page
// itself is driven in Chromium by tests/interop/dashboard/cli.test.mjs), the credentials file
// and its permissions, commands with the stored token and its refresh, exit codes, CI use with
// SIGHTLINE_API_KEY, and logout revoking the login on the server.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "api_client.h"
#include "harness.h"

namespace sightline::e2e {
namespace {

namespace json = boost::json;

std::string ReadAll(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The CLI of each test keeps its login in its own directory and sees no API key.
class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    const Backend backend = AvailableBackends().front();
    creds_ = Bootstrap(backend, Unique("cli"), "Site");
    server_ = std::make_unique<ServerProcess>(backend);
    owner_ = ApiClient(*server_).SignIn(creds_.owner_email);
    url_ = "http://127.0.0.1:" + std::to_string(server_->port());
    ::setenv("SIGHTLINE_CONFIG_DIR", (config_.path() / "sightline").c_str(), 1);
    ::unsetenv("SIGHTLINE_API_KEY");
    ::unsetenv("SIGHTLINE_SERVER");
    ::unsetenv("BROWSER");
    // Never the keyring of whoever runs the tests: the one test of it starts its own.
    ::setenv("SIGHTLINE_CREDENTIAL_STORE", "file", 1);
  }
  void TearDown() override {
    ::unsetenv("SIGHTLINE_CONFIG_DIR");
    ::unsetenv("SIGHTLINE_CREDENTIAL_STORE");
  }

  ApiClient api() const { return ApiClient(*server_); }
  std::filesystem::path CredentialsFile() const {
    return config_.path() / "sightline" / "credentials.json";
  }
  // Starts `sightline login` and returns it with the code it shows.
  std::pair<std::unique_ptr<ChildProcess>, std::string> StartLogin(
      std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"login", "--server", url_, "--no-browser"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto login = std::make_unique<ChildProcess>(SIGHTLINE_BINARY, args);
    const std::string shown = login->WaitForError("Open this URL");
    std::smatch code;
    EXPECT_TRUE(std::regex_search(shown, code, std::regex("code: ([A-Z]{4}-[A-Z]{4})"))) << shown;
    EXPECT_NE(shown.find("/cli?code=" + code[1].str()), std::string::npos) << shown;
    return {std::move(login), code[1].str()};
  }
  // What the dashboard's /cli page does once the user confirmed the code.
  void Decide(const std::string& code, const std::string& decision,
              const std::string& permissions = "") {
    const Response found = api().Call("GET", "/auth/cli/sessions/lookup?userCode=" + code, owner_);
    ASSERT_EQ(found.status, 200) << found.body;
    const std::string id(found.Json().at("id").as_string());
    const std::string body = decision == "approve"
                                 ? R"({"userCode":")" + code + R"(","organization":")" +
                                       creds_.org_slug + R"(","projectId":")" +
                                       creds_.project_id + "\"" + permissions + "}"
                                 : R"({"userCode":")" + code + R"("})";
    const Response decided =
        api().Call("POST", "/auth/cli/sessions/" + id + "/" + decision, owner_, body);
    ASSERT_EQ(decided.status, 200) << decided.body;
  }

  TempDir config_{"sightline-cli-config-"};
  Credentials creds_;
  std::unique_ptr<ServerProcess> server_;
  std::string owner_, url_;
};

TEST_F(Cli, LoginThenCommandsWithTheStoredLoginThenLogout) {
  auto [login, code] = StartLogin({"--permissions", "analytics.view,project.view"});
  ASSERT_NO_FATAL_FAILURE(Decide(code, "approve", R"(,"permissions":["analytics.view"])"));
  const CommandResult logged_in = login->Wait(std::chrono::seconds(30));
  ASSERT_EQ(logged_in.exit_code, 0) << logged_in.err;
  EXPECT_NE(logged_in.err.find("Logged in to " + url_), std::string::npos) << logged_in.err;

  // The login is kept readable by its owner only.
  struct stat file {}, directory {};
  ASSERT_EQ(::stat(CredentialsFile().c_str(), &file), 0);
  ASSERT_EQ(::stat(CredentialsFile().parent_path().c_str(), &directory), 0);
  EXPECT_EQ(file.st_mode & 0777, 0600u);
  EXPECT_EQ(directory.st_mode & 0777, 0700u);

  const CommandResult status = RunSightline({"auth", "status"});
  EXPECT_EQ(status.exit_code, 0) << status.err;
  EXPECT_NE(status.out.find(creds_.org_slug), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("analytics.view"), std::string::npos) << status.out;

  // A call within the consent answers as the REST API does; outside it, exit code 3.
  const CommandResult report = RunSightline({"api", "GET", "/web-analytics"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const json::value printed = json::parse(report.out);
  const CommandResult token = RunSightline({"auth", "token"});
  ASSERT_EQ(token.exit_code, 0) << token.err;
  const std::string access = token.out.substr(0, token.out.find('\n'));
  EXPECT_TRUE(access.starts_with("cli_at_")) << access;
  EXPECT_EQ(printed, api().Call("GET", "/web-analytics", access).Json());
  const CommandResult refused =
      RunSightline({"api", "POST", creds_.ProjectPath() + "/sdk-keys", "-f", "name=ci"});
  EXPECT_EQ(refused.exit_code, 3) << refused.err;
  EXPECT_NE(refused.err.find("PERM_001"), std::string::npos) << refused.err;
  EXPECT_EQ(RunSightline({"api", "GET", "/no/such/thing"}).exit_code, 4);
  EXPECT_EQ(RunSightline({"api", "GET", "/web-analytics", "-F", "from=yesterday"}).exit_code, 2);
  EXPECT_EQ(RunSightline({"api", "FETCH"}).exit_code, 2) << "usage";

  // An access token that ran out is refreshed (the rotated pair saved) before the call.
  std::string saved = ReadAll(CredentialsFile());
  saved = std::regex_replace(saved, std::regex(R"("expiresAt":[0-9]+)"), R"("expiresAt":0)");
  std::ofstream(CredentialsFile()) << saved;
  EXPECT_EQ(RunSightline({"api", "GET", "/web-analytics"}).exit_code, 0);
  EXPECT_EQ(ReadAll(CredentialsFile()).find(R"("expiresAt":0)"), std::string::npos);
  EXPECT_EQ(api().Call("GET", "/web-analytics", access).status, 200) << "the old token lasts";

  const CommandResult out = RunSightline({"logout"});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(api().Call("GET", "/users/me/cli-sessions", owner_).Json().at("sessions")
                .as_array().size(),
            0u)
      << "logout revokes the login on the server";
  EXPECT_EQ(api().Call("GET", "/web-analytics", access).status, 401);
  const CommandResult after = RunSightline({"api", "GET", "/web-analytics"});
  EXPECT_EQ(after.exit_code, 3);
  EXPECT_NE(after.err.find("not logged in"), std::string::npos) << after.err;
}

// A D-Bus session of its own with GNOME Keyring unlocked in it (the Secret Service a desktop
// has): the login's tokens go there, and the file keeps only which profile it is.
TEST_F(Cli, ALoginKeepsItsTokensInTheKeyringWhenThereIsOne) {
  const std::filesystem::path home = config_.path() / "home";
  std::filesystem::create_directories(home);
  const std::string binary = SIGHTLINE_BINARY;
  const std::string script =
      "export HOME='" + home.string() + "'; unset SIGHTLINE_CREDENTIAL_STORE; "
      "eval \"$(printf pw | gnome-keyring-daemon --unlock --components=secrets)\"; " +
      binary + " login --server " + url_ + " --no-browser && " + binary + " auth status && " +
      binary + " api GET /web-analytics > /dev/null && "
      "secret-tool lookup service sightline-cli profile default";
  ChildProcess session("dbus-run-session", {"--", "sh", "-c", script});
  const std::string shown = session.WaitForError("Open this URL");
  std::smatch code;
  ASSERT_TRUE(std::regex_search(shown, code, std::regex("code: ([A-Z]{4}-[A-Z]{4})"))) << shown;
  ASSERT_NO_FATAL_FAILURE(Decide(code[1].str(), "approve"));
  const CommandResult done = session.Wait(std::chrono::seconds(60));
  ASSERT_EQ(done.exit_code, 0) << done.out << done.err;
  EXPECT_NE(done.out.find("the OS keyring"), std::string::npos) << done.out;
  EXPECT_NE(done.out.find("cli_rt_"), std::string::npos) << "the secret is in the keyring";
  const std::string file = ReadAll(CredentialsFile());
  EXPECT_EQ(file.find("cli_at_"), std::string::npos) << file;
  EXPECT_EQ(file.find("cli_rt_"), std::string::npos) << file;
  EXPECT_NE(file.find(R"("storage":"keyring")"), std::string::npos) << file;
}

TEST_F(Cli, ADeniedLoginExitsWithTheAuthCode) {
  auto [login, code] = StartLogin();
  ASSERT_NO_FATAL_FAILURE(Decide(code, "deny"));
  const CommandResult denied = login->Wait(std::chrono::seconds(30));
  EXPECT_EQ(denied.exit_code, 3);
  EXPECT_NE(denied.err.find("denied"), std::string::npos) << denied.err;
  EXPECT_FALSE(std::filesystem::exists(CredentialsFile()));
}

TEST_F(Cli, CiUsesAPrivateApiKeyWithoutALogin) {
  ::setenv("SIGHTLINE_API_KEY", creds_.private_api_key.c_str(), 1);
  ::setenv("SIGHTLINE_SERVER", url_.c_str(), 1);
  const CommandResult report = RunSightline({"api", "GET", "/web-analytics"});
  ::unsetenv("SIGHTLINE_API_KEY");
  ::unsetenv("SIGHTLINE_SERVER");
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_TRUE(json::parse(report.out).as_object().contains("metrics"));
}

TEST_F(Cli, EveryOperationIsACommandWithTheApisAnswer) {
  const Response tracked = server_->Request(
      "POST", "/sdk/v1/logs/batch",
      {{"x-sdk-key", creds_.sdk_key}, {"Content-Type", "application/json"}},
      R"({"events":[{"event":"screen_view","channel":"web",)"
      R"("anonymous_id":"00000000-0000-4000-8000-000000000001",)"
      R"("tags":{"$url":"https://site.test/pricing"}}]})");
  ASSERT_EQ(tracked.status, 202) << tracked.body;
  ::setenv("SIGHTLINE_API_KEY", creds_.private_api_key.c_str(), 1);
  ::setenv("SIGHTLINE_SERVER", url_.c_str(), 1);
  const CommandResult summary = RunSightline({"web-analytics", "get", "--json"});
  ASSERT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_EQ(json::parse(summary.out),
            api().Call("GET", "/web-analytics", creds_.private_api_key).Json());
  const CommandResult table = RunSightline({"web-analytics", "get"});
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("value  previous  absoluteChange  change"), std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("\npageviews "), std::string::npos) << table.out;
  const CommandResult csv =
      RunSightline({"web-analytics", "get-breakdown", "--dimension", "top_page", "--csv"});
  EXPECT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_TRUE(csv.out.starts_with("value,count,visitors,views,")) << csv.out;
  EXPECT_NE(csv.out.find("\n/pricing,1,1,1,"), std::string::npos) << csv.out;
  EXPECT_EQ(RunSightline({"web-analytics", "get-breakdown", "--dimension", "shoe"}).exit_code, 2);
  EXPECT_EQ(RunSightline({"web-analytics", "get-nothing"}).exit_code, 2);
  // A path names the organization: a key's is given with SIGHTLINE_ORG.
  const CommandResult unnamed = RunSightline({"projects", "get"});
  EXPECT_EQ(unnamed.exit_code, 2);
  EXPECT_NE(unnamed.err.find("SIGHTLINE_ORG"), std::string::npos) << unnamed.err;
  ::setenv("SIGHTLINE_ORG", creds_.org_slug.c_str(), 1);
  ::setenv("SIGHTLINE_PROJECT", creds_.project_id.c_str(), 1);
  const CommandResult project = RunSightline({"projects", "get", "--json"});
  ASSERT_EQ(project.exit_code, 0) << project.err;
  EXPECT_EQ(json::parse(project.out),
            api().Call("GET", creds_.ProjectPath(), creds_.private_api_key).Json());
  const CommandResult refused = RunSightline({"keys", "list-sdk"});
  EXPECT_EQ(refused.exit_code, 3) << "a private key may not list keys: " << refused.err;
  // `sightline query` without repeating the command's name; arrays by commas or as JSON, and
  // a date range as text or JSON.
  const CommandResult asked =
      RunSightline({"query", "--metrics", "visitors,pageviews", "--dimensions", "event:page",
                    "--date-range", "7d", "--filters", R"([["contains","event:page",["pric"]]])",
                    "--json"});
  ASSERT_EQ(asked.exit_code, 0) << asked.err;
  EXPECT_EQ(json::serialize(json::parse(asked.out).at("results")),
            R"([{"dimensions":["/pricing"],"metrics":[1,1]}])");
  const CommandResult dated = RunSightline(
      {"query", "query", "--metrics", "visitors", "--date-range", R"(["2020-01-01","2020-01-02"])",
       "--json"});
  ASSERT_EQ(dated.exit_code, 0) << dated.err;
  EXPECT_EQ(json::serialize(json::parse(dated.out).at("results")),
            R"([{"dimensions":[],"metrics":[0]}])");
  const CommandResult bad = RunSightline({"query", "--metrics", "visitors,sessions"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("metrics[1]"), std::string::npos) << bad.err;
  for (const char* name : {"SIGHTLINE_API_KEY", "SIGHTLINE_SERVER", "SIGHTLINE_ORG",
                           "SIGHTLINE_PROJECT"}) {
    ::unsetenv(name);
  }
}

// Paging over REST with limit and cursor, then the CLI's --all (a command and `sightline api`)
// following nextCursor: the same events, each once, newest first.
TEST_F(Cli, ListsPageByCursorAndAllFollowsThem) {
  std::string batch = R"({"events":[)";
  for (int i = 0; i < 5; ++i) {
    batch += std::string(i ? "," : "") + R"({"event":"step_)" + std::to_string(i) +
             R"(","channel":"paging","timestamp":)" + std::to_string(1773662400000 + i * 1000) +
             "}";
  }
  batch += "]}";
  const Response tracked = server_->Request(
      "POST", "/sdk/v1/logs/batch",
      {{"x-sdk-key", creds_.sdk_key}, {"Content-Type", "application/json"}}, batch);
  ASSERT_EQ(tracked.status, 202) << tracked.body;

  const std::string events = creds_.ProjectPath() + "/events?channel=paging&limit=2";
  std::vector<std::string> walked;
  std::string cursor;
  int pages = 0;
  for (; pages < 10; ++pages) {
    const Response page = api().Call(
        "GET", events + (cursor.empty() ? "" : "&cursor=" + cursor), creds_.private_api_key);
    ASSERT_EQ(page.status, 200) << page.body;
    const json::value body = page.Json();
    for (const json::value& event : body.at("events").as_array()) {
      walked.emplace_back(event.at("event").as_string());
    }
    if (body.at("nextCursor").is_null()) break;
    cursor = std::string(body.at("nextCursor").as_string());
  }
  EXPECT_EQ(pages + 1, 3);
  EXPECT_EQ(walked, (std::vector<std::string>{"step_4", "step_3", "step_2", "step_1", "step_0"}));
  const Response forged =
      api().Call("GET", events + "&cursor=bm90LWEtY3Vyc29y", creds_.private_api_key);
  EXPECT_EQ(forged.status, 400) << forged.body;
  EXPECT_NE(forged.body.find("VAL_003"), std::string::npos) << forged.body;

  ::setenv("SIGHTLINE_API_KEY", creds_.private_api_key.c_str(), 1);
  ::setenv("SIGHTLINE_SERVER", url_.c_str(), 1);
  ::setenv("SIGHTLINE_ORG", creds_.org_slug.c_str(), 1);
  ::setenv("SIGHTLINE_PROJECT", creds_.project_id.c_str(), 1);
  const CommandResult all =
      RunSightline({"events", "list", "--channel", "paging", "--limit", "2", "--all", "--json"});
  const CommandResult api_all = RunSightline(
      {"api", "GET", creds_.ProjectPath() + "/events", "-F", "limit=2", "-f", "channel=paging",
       "--all"});
  for (const char* name : {"SIGHTLINE_API_KEY", "SIGHTLINE_SERVER", "SIGHTLINE_ORG",
                           "SIGHTLINE_PROJECT"}) {
    ::unsetenv(name);
  }
  for (const CommandResult* result : {&all, &api_all}) {
    ASSERT_EQ(result->exit_code, 0) << result->err;
    const json::value gathered = json::parse(result->out);
    std::vector<std::string> names;
    for (const json::value& event : gathered.at("events").as_array()) {
      names.emplace_back(event.at("event").as_string());
    }
    EXPECT_EQ(names, walked) << result->out;
    EXPECT_TRUE(gathered.at("nextCursor").is_null());
  }
}

TEST_F(Cli, TrackSendsAnEventWithTheSdkKeyAndAStreamFollowsIt) {
  ::setenv("SIGHTLINE_SDK_KEY", creds_.sdk_key.c_str(), 1);
  ::setenv("SIGHTLINE_SERVER", url_.c_str(), 1);
  // The notifications stream, one JSON line per notification as it comes.
  ::setenv("SIGHTLINE_API_KEY", creds_.private_api_key.c_str(), 1);
  ::setenv("SIGHTLINE_ORG", creds_.org_slug.c_str(), 1);
  ::setenv("SIGHTLINE_PROJECT", creds_.project_id.c_str(), 1);
  ChildProcess follower(SIGHTLINE_BINARY, {"events", "stream-notifications"});
  for (const char* name : {"SIGHTLINE_API_KEY", "SIGHTLINE_ORG", "SIGHTLINE_PROJECT"}) {
    ::unsetenv(name);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const CommandResult tracked = RunSightline(
      {"track", "--event", "deploy", "--channel", "ci", "--notify", "--description", "v1.2"});
  const std::string notified = follower.FirstLine();
  EXPECT_EQ(json::parse(notified).at("event").as_string(), "deploy") << notified;
  const CommandResult nameless = RunSightline({"track", "--channel", "ci"});
  ::unsetenv("SIGHTLINE_SDK_KEY");
  const CommandResult keyless = RunSightline({"track", "--event", "deploy"});
  ::unsetenv("SIGHTLINE_SERVER");
  EXPECT_EQ(tracked.exit_code, 0) << tracked.err;
  EXPECT_NE(nameless.exit_code, 0);
  EXPECT_EQ(keyless.exit_code, 3) << keyless.err;
  const Response events = api().Call("GET", creds_.ProjectPath() + "/events?event=deploy",
                                     creds_.private_api_key);
  ASSERT_EQ(events.status, 200) << events.body;
  EXPECT_NE(events.body.find("\"channel\":\"ci\""), std::string::npos) << events.body;
}

TEST_F(Cli, CompletionScriptsLoadAndComplete) {
  const CommandResult script = RunSightline({"completion", "bash"});
  ASSERT_EQ(script.exit_code, 0) << script.err;
  const std::filesystem::path file = config_.path() / "completion.bash";
  std::ofstream(file) << script.out;
  const CommandResult completed = RunCommand(
      {"bash", "-c",
       "source " + file.string() +
           " && COMP_WORDS=(sightline web-analytics get-b); COMP_CWORD=2; _sightline"
           " && echo \"${COMPREPLY[*]}\""
           " && COMP_WORDS=(sightline web-analytics get-breakdown --dim); COMP_CWORD=3;"
           " _sightline && echo \"${COMPREPLY[*]}\""});
  EXPECT_EQ(completed.exit_code, 0) << completed.err;
  EXPECT_EQ(completed.out, "get-breakdown\n--dimension\n");
  for (const char* shell : {"zsh", "fish"}) {
    const CommandResult other = RunSightline({"completion", shell});
    EXPECT_EQ(other.exit_code, 0);
    EXPECT_NE(other.out.find("web-analytics"), std::string::npos);
  }
}

}  // namespace
}  // namespace sightline::e2e
