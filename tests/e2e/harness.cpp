#include "harness.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace sightline::e2e {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// This process's environment plus `extra` ("NAME=value"), as execve wants it. Built before
// fork: the child of a threaded process may not allocate.
std::vector<char*> EnvironmentWith(std::vector<std::string>& extra) {
  std::vector<char*> envp;
  for (char** entry = environ; *entry != nullptr; ++entry) envp.push_back(*entry);
  for (auto& e : extra) envp.push_back(e.data());
  envp.push_back(nullptr);
  return envp;
}

// Starts the binary with stdout/stderr redirected to files and `environment` ("NAME=value")
// added to this process's; returns the pid.
int SpawnProgram(std::string binary, const std::vector<std::string>& args,
                 const std::filesystem::path& out, const std::filesystem::path& err,
                 std::vector<std::string> environment = {}) {
  std::vector<char*> argv;
  argv.push_back(binary.data());
  std::vector<std::string> copies = args;
  for (auto& a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::vector<char*> envp = EnvironmentWith(environment);
  const int pid = fork();
  if (pid == 0) {
    const int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err_fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    const int null_fd = open("/dev/null", O_RDONLY);
    dup2(null_fd, 0);
    execvpe(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  return pid;
}

// A sanitizer's report in what a process the test started wrote to stderr fails the running
// test. GCC's UBSan (beside ASan) writes only to stderr, not to the files of with_own_tmpdir.sh,
// and a server's stderr is otherwise read by no one: a report there must not pass unseen.
void FailOnSanitizerReport(const std::string& process, const std::string& stderr_text) {
  static constexpr const char* kMarkers[] = {"runtime error:", "ERROR: AddressSanitizer",
                                             "ERROR: LeakSanitizer", "WARNING: ThreadSanitizer"};
  for (const char* marker : kMarkers) {
    if (stderr_text.find(marker) != std::string::npos) {
      ADD_FAILURE() << process << " reported a sanitizer finding:\n" << stderr_text;
      return;
    }
  }
}

int Spawn(const std::vector<std::string>& args, const std::filesystem::path& out,
          const std::filesystem::path& err) {
  return SpawnProgram(SIGHTLINE_BINARY, args, out, err);
}

int WaitFor(int pid, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (std::chrono::steady_clock::now() > deadline) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

Response FromBeast(http::response<http::string_body>& r) {
  Response response;
  response.status = static_cast<int>(r.result_int());
  for (const auto& field : r) {
    std::string name(field.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    response.headers[name] = std::string(field.value());
  }
  response.body = r.body();
  return response;
}

std::filesystem::path MakeDirectory(const std::filesystem::path& pattern) {
  std::string path = pattern.string();
  if (mkdtemp(path.data()) == nullptr) throw std::runtime_error("mkdtemp failed: " + path);
  return path;
}

}  // namespace

TempDir::TempDir(const std::string& prefix)
    : path_(MakeDirectory(std::filesystem::temp_directory_path() / (prefix + "XXXXXX"))) {}

TempDir::~TempDir() {
  std::error_code ignored;  // a destructor must not throw; the suite's check reports leftovers
  std::filesystem::remove_all(path_, ignored);
}

namespace {

// Where the SQLite stores of AvailableBackends() live. Test parameters are made before the first
// test and outlive the last, so no test can own them: the program does, and removes them when it
// exits (a static's destructor), whether the tests passed or not.
const std::filesystem::path& StoresDir() {
  static const TempDir dir("sightline-e2e-");
  return dir.path();
}

}  // namespace

CommandResult RunSightline(const std::vector<std::string>& args) {
  const TempDir dir("sightline-cmd-");
  const int pid = Spawn(args, dir.path() / "out", dir.path() / "err");
  CommandResult result;
  result.exit_code = WaitFor(pid, std::chrono::seconds(60));
  result.out = ReadFile(dir.path() / "out");
  result.err = ReadFile(dir.path() / "err");
  FailOnSanitizerReport("sightline " + (args.empty() ? std::string() : args.front()), result.err);
  return result;
}

CommandResult RunCommand(const std::vector<std::string>& program_and_args) {
  const TempDir dir("sightline-cmd-");
  const std::vector<std::string> args(program_and_args.begin() + 1, program_and_args.end());
  const int pid = SpawnProgram(program_and_args.front(), args, dir.path() / "out",
                               dir.path() / "err");
  CommandResult result;
  result.exit_code = WaitFor(pid, std::chrono::seconds(60));
  result.out = ReadFile(dir.path() / "out");
  result.err = ReadFile(dir.path() / "err");
  FailOnSanitizerReport(program_and_args.front(), result.err);
  return result;
}

std::vector<std::string> Backend::StorageArgs() const {
  if (!database_url.empty()) return {"--database-url", database_url};
  return {"--data", data_dir.string()};
}

std::vector<Backend> AvailableBackends() {
  std::vector<Backend> backends;
  backends.push_back({"sqlite", "", MakeDirectory(StoresDir() / "sqlite-XXXXXX")});
  const char* dsn = std::getenv("SIGHTLINE_TEST_PG_DSN");
  backends.push_back({"postgres", dsn ? dsn : "", {}});
  return backends;
}

void BackendTest::SetUp() {
  if (GetParam().name != "postgres" || !GetParam().database_url.empty()) return;
  // script/test sets SIGHTLINE_REQUIRE_PG so that CI can never pass on SQLite alone.
  ASSERT_EQ(std::getenv("SIGHTLINE_REQUIRE_PG"), nullptr) << "SIGHTLINE_TEST_PG_DSN is unset";
  GTEST_SKIP() << "PostgreSQL: SIGHTLINE_TEST_PG_DSN is unset";
}

std::string Unique(const std::string& prefix) {
  static std::mt19937_64 rng{std::random_device{}()};
  return prefix + std::to_string(rng() % 1000000000);
}

Credentials Bootstrap(const Backend& backend, const std::string& org, const std::string& project) {
  std::vector<std::string> args = {"admin", "bootstrap"};
  for (const auto& a : backend.StorageArgs()) args.push_back(a);
  for (const std::string& a : {std::string("--email"), "owner@" + org + ".test",
                               std::string("--password"), std::string("correct horse"),
                               std::string("--org"), org, std::string("--project"), project}) {
    args.push_back(a);
  }
  const CommandResult result = RunSightline(args);
  if (result.exit_code != 0) throw std::runtime_error("bootstrap failed: " + result.err);
  const auto json = boost::json::parse(result.out).as_object();
  auto text = [&](const char* key) { return std::string(json.at(key).as_string()); };
  return {text("userId"),        text("orgSlug"), text("projectId"), text("sdkKey"),
          text("privateApiKey"), "owner@" + org + ".test"};
}

boost::json::value Response::Json() const { return boost::json::parse(body); }

std::string Response::Header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

std::string Response::ErrorCode() const {
  if (body.empty()) return "(no body)";
  boost::system::error_code ec;
  const boost::json::value parsed = boost::json::parse(body, ec);
  const boost::json::value* error =
      !ec && parsed.is_object() ? parsed.as_object().if_contains("error") : nullptr;
  const boost::json::value* code =
      error && error->is_object() ? error->as_object().if_contains("code") : nullptr;
  return code && code->is_string() ? std::string(code->as_string()) : "(no error code)";
}

Headers Bearer(const std::string& credential) {
  return {{"Authorization", "Bearer " + credential}};
}

struct HttpConnection::Impl {
  asio::io_context io;
  beast::tcp_stream stream{io};
  beast::flat_buffer buffer;
};

HttpConnection::HttpConnection(unsigned short port) : impl_(std::make_unique<Impl>()) {
  impl_->stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
}

HttpConnection::~HttpConnection() {
  beast::error_code ec;
  impl_->stream.socket().shutdown(tcp::socket::shutdown_both, ec);
}

bool HttpConnection::IsOpen() const { return impl_->stream.socket().is_open(); }

Response HttpConnection::Send(const std::string& method, const std::string& target,
                              const std::map<std::string, std::string>& headers,
                              const std::string& body) {
  http::request<http::string_body> request{http::string_to_verb(method), target, 11};
  if (request.method() == http::verb::unknown) request.method_string(method);
  request.set(http::field::host, "127.0.0.1");
  for (const auto& [name, value] : headers) request.set(name, value);
  request.body() = body;
  if (!body.empty() || method == "POST" || method == "PATCH" || method == "PUT") {
    request.prepare_payload();
  }
  impl_->stream.expires_after(std::chrono::seconds(30));
  http::write(impl_->stream, request);
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  parser.skip(method == "HEAD");
  http::read(impl_->stream, impl_->buffer, parser);
  return FromBeast(parser.get());
}

Response HttpConnection::SendRaw(const std::string& bytes) {
  Write(bytes);
  return ReadResponse();
}

void HttpConnection::Write(const std::string& bytes) {
  asio::write(impl_->stream.socket(), asio::buffer(bytes));
}

std::string HttpConnection::ReadUntil(const std::string& needle, std::chrono::milliseconds limit) {
  std::string received = beast::buffers_to_string(impl_->buffer.data());
  impl_->buffer.consume(impl_->buffer.size());
  const auto deadline = std::chrono::steady_clock::now() + limit;
  char chunk[4096];
  while (received.find(needle) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    impl_->stream.expires_at(deadline);
    beast::error_code ec;
    const std::size_t n = impl_->stream.read_some(asio::buffer(chunk), ec);
    if (ec) break;
    received.append(chunk, n);
  }
  return received;
}

Response HttpConnection::ReadResponse() {
  impl_->stream.expires_after(std::chrono::seconds(30));
  http::response<http::string_body> response;
  http::read(impl_->stream, impl_->buffer, response);
  return FromBeast(response);
}

ChildProcess::ChildProcess(const std::string& program, const std::vector<std::string>& args)
    : dir_("sightline-child-") {
  pid_ = SpawnProgram(program, args, dir_.path() / "out", dir_.path() / "err");
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    if (WaitFor(pid_, std::chrono::seconds(5)) == -1) {
      kill(pid_, SIGKILL);
      WaitFor(pid_, std::chrono::seconds(5));
    }
  }
  FailOnSanitizerReport("a helper process", ReadFile(dir_.path() / "err"));
}

std::string ChildProcess::FirstLine(std::chrono::seconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string out = ReadFile(dir_.path() / "out");
    if (const auto end = out.find('\n'); end != std::string::npos) return out.substr(0, end);
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("helper exited early: " + ReadFile(dir_.path() / "err"));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw std::runtime_error("helper wrote nothing: " + ReadFile(dir_.path() / "err"));
}

std::string ChildProcess::WaitForError(const std::string& needle, std::chrono::seconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string err = ReadFile(dir_.path() / "err");
    if (err.find(needle) != std::string::npos) return err;
    int status = 0;
    if (pid_ > 0 && waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("helper exited early: " + ReadFile(dir_.path() / "err"));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw std::runtime_error("helper never wrote '" + needle + "': " + ReadFile(dir_.path() / "err"));
}

CommandResult ChildProcess::Wait(std::chrono::seconds wait) {
  CommandResult result;
  if (pid_ > 0) {
    result.exit_code = WaitFor(pid_, wait);
    if (result.exit_code != -1) pid_ = -1;
  }
  result.out = ReadFile(dir_.path() / "out");
  result.err = ReadFile(dir_.path() / "err");
  return result;
}

void RunOrThrow(const std::string& command) {
  if (std::system(command.c_str()) != 0) throw std::runtime_error("failed: " + command);
}

std::filesystem::path SourceDir() { return SIGHTLINE_SOURCE_DIR; }

std::string OtplibCode(const std::string& secret, std::int64_t unix_seconds) {
  ChildProcess otplib("node", {(SourceDir() / "tests/interop/totp_code.mjs").string(), secret,
                               std::to_string(unix_seconds)});
  return otplib.FirstLine();
}

std::int64_t UnixSecondsNow() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

ServerProcess::ServerProcess(const Backend& backend, std::vector<std::string> extra_args,
                             std::string binary, std::vector<std::string> environment)
    : dir_("sightline-log-") {
  const auto log_path = dir_.path() / "server.log";
  // Tests are hermetic: no fetching of the vendors' range lists unless a test asks for it.
  std::vector<std::string> args = {"serve", "--listen", "127.0.0.1:0", "--threads", "2"};
  if (std::find(extra_args.begin(), extra_args.end(), "--bot-ranges-refresh") == extra_args.end()) {
    args.insert(args.end(), {"--bot-ranges-refresh", "0"});
  }
  // Reports exact to the last row unless a test asks for the background refresher.
  if (std::find(extra_args.begin(), extra_args.end(), "--rollup-interval") == extra_args.end()) {
    args.insert(args.end(), {"--rollup-interval", "0"});
  }
  // Every server of a backend shares one store, and with it the per-IP window of 127.0.0.1:
  // tests that sign in or walk the OAuth pages would otherwise throttle each other. A test of
  // the limit itself names its own.
  if (std::find(extra_args.begin(), extra_args.end(), "--public-rate-limit") == extra_args.end()) {
    args.insert(args.end(), {"--public-rate-limit", "1000000"});
  }
  for (const auto& a : backend.StorageArgs()) args.push_back(a);
  for (auto& a : extra_args) args.push_back(std::move(a));
  pid_ = SpawnProgram(binary.empty() ? SIGHTLINE_BINARY : std::move(binary), args, log_path,
                      dir_.path() / "stderr.log", std::move(environment));
  static const std::regex kReady(R"re("msg":"ready".*"port":(\d+))re");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    std::smatch match;
    const std::string log = ReadFile(log_path);
    if (std::regex_search(log, match, kReady)) {
      port_ = static_cast<unsigned short>(std::stoi(match[1]));
      return;
    }
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      const std::string err = ReadFile(dir_.path() / "stderr.log");
      FailOnSanitizerReport("the server", err);
      throw std::runtime_error("server exited early: " + log + err);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const std::string log = ReadFile(log_path);
  Stop(std::chrono::seconds(5));  // a throwing constructor runs no destructor
  throw std::runtime_error("server did not become ready: " + log);
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) Stop(std::chrono::seconds(5));
}

Response ServerProcess::Request(const std::string& method, const std::string& target,
                                const std::map<std::string, std::string>& headers,
                                const std::string& body) {
  return SiteRequest(method, "/api" + target, headers, body);
}

Response ServerProcess::SiteRequest(const std::string& method, const std::string& path,
                                    const std::map<std::string, std::string>& headers,
                                    const std::string& body) {
  HttpConnection connection(port_);
  return connection.Send(method, path, headers, body);
}

int ServerProcess::Stop(std::chrono::seconds wait) {
  if (pid_ <= 0) return -1;
  kill(pid_, SIGTERM);
  int code = WaitFor(pid_, wait);
  if (code == -1) {
    kill(pid_, SIGKILL);
    WaitFor(pid_, std::chrono::seconds(5));
  }
  pid_ = -1;
  FailOnSanitizerReport("the server", ReadFile(dir_.path() / "stderr.log"));
  return code;
}

void ServerProcess::SendSignal(int signal) {
  if (pid_ > 0) kill(pid_, signal);
}

int ServerProcess::WaitForExit(std::chrono::seconds wait) {
  if (pid_ <= 0) return -1;
  const int code = WaitFor(pid_, wait);
  if (code != -1) {
    pid_ = -1;
    FailOnSanitizerReport("the server", ReadFile(dir_.path() / "stderr.log"));
  }
  return code;
}

std::string ServerProcess::Log() const { return ReadFile(dir_.path() / "server.log"); }

FreshMinute::FreshMinute() {
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  static std::mt19937_64 rng{std::random_device{}()};
  constexpr std::int64_t kMinute = 60'000;
  const std::int64_t now =
      duration_cast<milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  const auto minutes_ahead = static_cast<std::int64_t>(10 + rng() % 1'000'000);  // ~2 years
  const std::int64_t target = (now / kMinute + minutes_ahead) * kMinute + 1'000;
  shift_ = "SIGHTLINE_TEST_CLOCK_OFFSET_MS=" + std::to_string(target - now);
}

std::unique_ptr<ServerProcess> FreshMinute::Start(const Backend& backend,
                                                  std::vector<std::string> extra_args) const {
  return std::make_unique<ServerProcess>(backend, std::move(extra_args),
                                         SIGHTLINE_MCP_FIXTURES_BINARY,
                                         std::vector<std::string>{shift_});
}

}  // namespace sightline::e2e
