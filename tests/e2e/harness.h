// End-to-end test harness: runs the real `sightline` binary (bootstrap, then serve on
// 127.0.0.1:0) and talks to it over real sockets with a small blocking HTTP/1.1 client.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace sightline::e2e {

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs the sightline binary with `args`, waiting for it to finish.
CommandResult RunSightline(const std::vector<std::string>& args);
// Runs another program (found on PATH) with `args`, waiting for it to finish.
CommandResult RunCommand(const std::vector<std::string>& program_and_args);

using Headers = std::map<std::string, std::string>;

// What `sightline admin bootstrap` made: the owner (signing in with kOwnerPassword), the
// organization, its project and their keys.
struct Credentials {
  std::string user_id, org_slug, project_id, sdk_key, private_api_key, owner_email;
  std::string ProjectPath() const { return "/" + org_slug + "/projects/" + project_id; }
};
inline constexpr char kOwnerPassword[] = "correct horse";

// A directory made fresh under the temporary directory ($TMPDIR), removed with everything in it
// when the object goes, so that a failing test leaves nothing behind either.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Where the server keeps its data: a fresh SQLite directory, or the PostgreSQL test database.
struct Backend {
  std::string name;          // "sqlite" or "postgres"
  std::string database_url;  // empty for SQLite
  std::filesystem::path data_dir;
  std::vector<std::string> StorageArgs() const;
};
// A case's name already says which: gtest prints the parameter by name, not its bytes.
inline void PrintTo(const Backend& backend, std::ostream* out) { *out << backend.name; }

// SQLite and PostgreSQL, the latter with the DSN of SIGHTLINE_TEST_PG_DSN (empty when unset).
// Both are listed whatever the environment, so the cases ctest discovers do not depend on
// where the list was taken; a PostgreSQL case without a DSN skips (BackendTest). Each call
// makes fresh SQLite directories; they last until the program ends (a global test environment
// removes them).
std::vector<Backend> AvailableBackends();

// The fixture of the cases run on each backend. Its SetUp skips a PostgreSQL case without a
// DSN, or fails it when SIGHTLINE_REQUIRE_PG is set (script/test); a fixture's own SetUp calls
// it first and returns when IsSkipped() or HasFatalFailure().
class BackendTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override;
};
// `prefix` plus a random number: names that never collide across tests sharing one store.
std::string Unique(const std::string& prefix);

Credentials Bootstrap(const Backend& backend, const std::string& org, const std::string& project);

struct Response {
  int status = 0;
  Headers headers;  // lowercased names
  std::string body;
  boost::json::value Json() const;
  std::string Header(const std::string& lowercase_name) const;
  // The ErrorResponse's code ("AUTH_007"), or a placeholder saying why there is none.
  std::string ErrorCode() const;
};

// `Authorization: Bearer <credential>` (a key, a session or an access token).
Headers Bearer(const std::string& credential);

// One keep-alive connection.
class HttpConnection {
 public:
  explicit HttpConnection(unsigned short port);
  ~HttpConnection();
  Response Send(const std::string& method, const std::string& target,
                const Headers& headers = {},
                const std::string& body = "");
  // Writes raw bytes and reads one response (for malformed requests).
  Response SendRaw(const std::string& bytes);
  // Writes raw bytes without waiting for an answer; ReadResponse() reads it later.
  void Write(const std::string& bytes);
  Response ReadResponse();
  // Reads raw bytes until `needle` has arrived or `limit` passes; returns all that arrived.
  std::string ReadUntil(const std::string& needle, std::chrono::milliseconds limit);
  bool IsOpen() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A helper program the test runs beside the server (a signer, a directory), stopped with the
// object.
class ChildProcess {
 public:
  ChildProcess(const std::string& program, const std::vector<std::string>& args);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // The first line it writes to standard output; throws after `wait` or if it exits first.
  std::string FirstLine(std::chrono::seconds wait = std::chrono::seconds(20));
  // Waits until its standard error contains `needle` and returns all of it so far; throws
  // after `wait` or if it exits first.
  std::string WaitForError(const std::string& needle,
                           std::chrono::seconds wait = std::chrono::seconds(20));
  // Waits for it to exit: the exit code (-1 after `wait`), and what it wrote.
  CommandResult Wait(std::chrono::seconds wait = std::chrono::seconds(30));

 private:
  TempDir dir_;
  int pid_ = -1;
};

// Runs a shell command to completion (test fixtures: certificates); throws on failure.
void RunOrThrow(const std::string& command);

// The source tree (tests/interop scripts and their node_modules).
std::filesystem::path SourceDir();

// The TOTP code of a base32 secret at a Unix time, computed by otplib from npm.
std::string OtplibCode(const std::string& secret, std::int64_t unix_seconds);
std::int64_t UnixSecondsNow();

class ServerProcess {
 public:
  // Runs `<binary> serve`: sightline's when `binary` is empty, else another executable built
  // from the same libraries (the MCP fixture server, SIGHTLINE_MCP_FIXTURES_BINARY), with
  // `environment` ("NAME=value") added to this process's.
  ServerProcess(const Backend& backend, std::vector<std::string> extra_args = {},
                std::string binary = {}, std::vector<std::string> environment = {});
  ~ServerProcess();
  unsigned short port() const { return port_; }
  // A request to the API on a fresh connection: `target` is relative to the API base, /api,
  // as the spec writes paths ("/openapi.json" asks for /api/openapi.json).
  Response Request(const std::string& method, const std::string& target,
                   const Headers& headers = {},
                   const std::string& body = "");
  // A request for a path at the site's root (the dashboard, /.well-known/…), as it is.
  Response SiteRequest(const std::string& method, const std::string& path,
                       const Headers& headers = {}, const std::string& body = "");
  // SIGTERM, then waits; returns the exit code (or -1 when it had to be killed).
  int Stop(std::chrono::seconds wait = std::chrono::seconds(20));
  void SendSignal(int signal);
  // Waits for the process to exit; its exit code, or -1 on timeout.
  int WaitForExit(std::chrono::seconds wait);
  std::string Log() const;

 private:
  TempDir dir_;  // its log
  int pid_ = -1;
  unsigned short port_ = 0;
};

// The time of servers that test the one-minute rate-limit windows: one second into a minute
// of its own, chosen at random far ahead of the system's, so every request of the test falls in
// one fresh window without waiting for one. The servers are the test-only server
// (SIGHTLINE_MCP_FIXTURES_BINARY), whose clock SIGHTLINE_TEST_CLOCK_OFFSET_MS shifts; every
// server started from one FreshMinute shares its minute (and its store, its windows).
class FreshMinute {
 public:
  FreshMinute();
  std::unique_ptr<ServerProcess> Start(const Backend& backend,
                                       std::vector<std::string> extra_args = {}) const;

 private:
  std::string shift_;  // SIGHTLINE_TEST_CLOCK_OFFSET_MS=<milliseconds>
};

}  // namespace sightline::e2e
