// End-to-end test harness: runs the real `sightline` binary (bootstrap, then serve on
// 127.0.0.1:0) and talks to it over real sockets with a small blocking HTTP/1.1 client.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
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

struct Credentials {
  std::string user_id, org_slug, project_id, sdk_key, private_api_key;
};

// Where the server keeps its data: a fresh SQLite directory, or the PostgreSQL test database.
struct Backend {
  std::string name;          // "sqlite" or "postgres"
  std::string database_url;  // empty for SQLite
  std::filesystem::path data_dir;
  std::vector<std::string> StorageArgs() const;
};

std::vector<Backend> AvailableBackends();
// `prefix` plus a random number: names that never collide across tests sharing one store.
std::string Unique(const std::string& prefix);  // SQLite always; PostgreSQL when its DSN is set
std::filesystem::path MakeTempDir(const std::string& prefix);

Credentials Bootstrap(const Backend& backend, const std::string& org, const std::string& project);

struct Response {
  int status = 0;
  std::map<std::string, std::string> headers;  // lowercased names
  std::string body;
  boost::json::value Json() const;
  std::string Header(const std::string& lowercase_name) const;
};

// One keep-alive connection.
class HttpConnection {
 public:
  explicit HttpConnection(unsigned short port);
  ~HttpConnection();
  Response Send(const std::string& method, const std::string& target,
                const std::map<std::string, std::string>& headers = {},
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

 private:
  int pid_ = -1;
  std::filesystem::path dir_;
};

// Runs a shell command to completion (test fixtures: certificates); throws on failure.
void RunOrThrow(const std::string& command);

// The source tree (tests/interop scripts and their node_modules).
std::filesystem::path SourceDir();

// The TOTP code of a base32 secret at a Unix time, computed by otplib from npm.
std::string OtplibCode(const std::string& secret, std::int64_t unix_seconds);

class ServerProcess {
 public:
  ServerProcess(const Backend& backend, std::vector<std::string> extra_args = {});
  ~ServerProcess();
  unsigned short port() const { return port_; }
  // A request on a fresh connection.
  Response Request(const std::string& method, const std::string& target,
                   const std::map<std::string, std::string>& headers = {},
                   const std::string& body = "");
  // SIGTERM, then waits; returns the exit code (or -1 when it had to be killed).
  int Stop(std::chrono::seconds wait = std::chrono::seconds(20));
  void SendSignal(int signal);
  // Waits for the process to exit; its exit code, or -1 on timeout.
  int WaitForExit(std::chrono::seconds wait);
  std::string Log() const;

 private:
  int pid_ = -1;
  unsigned short port_ = 0;
  std::filesystem::path log_path_;
};

}  // namespace sightline::e2e
