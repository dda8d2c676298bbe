#include "storage/clickhouse/clickhouse_client.h"

#include <boost/json/parse.hpp>

#include "core/crypto.h"
#include "core/http_types.h"
#include "core/url.h"

namespace sightline::storage::clickhouse {
namespace {

using core::Error;
using core::ErrorCode;
using core::Result;

Error BadUrl(std::string_view why) {
  return Error(ErrorCode::kValInvalidParameter, "--events-url: " + std::string(why));
}

// ClickHouse's own message ("Code: 60, e.displayText() = DB::Exception: Table … doesn't
// exist"), first line only, bounded.
std::string MessageOf(std::string_view body) {
  std::string_view line = body.substr(0, body.find('\n'));
  if (line.size() > 500) line = line.substr(0, 500);
  return std::string(line);
}

// ClickHouse's error number ("Code: 210, e.displayText() = …"), 0 when the body has none.
int CodeOf(std::string_view body) {
  constexpr std::string_view kPrefix = "Code: ";
  if (!body.starts_with(kPrefix)) return 0;
  int code = 0;
  for (std::size_t i = kPrefix.size(); i < body.size() && body[i] >= '0' && body[i] <= '9'; ++i) {
    code = code * 10 + (body[i] - '0');
    if (code > 100000) return 0;
  }
  return code;
}

// The errors of a server that cannot reach another (a shard down or unreachable): the store is
// unavailable, not the statement wrong.
bool IsUnavailable(int code) {
  return code == 159 /* TIMEOUT_EXCEEDED */ || code == 209 /* SOCKET_TIMEOUT */ ||
         code == 210 /* NETWORK_ERROR */ || code == 279 /* ALL_CONNECTION_TRIES_FAILED */;
}

}  // namespace

Result<Endpoint> ParseEventsUrl(std::string_view url) {
  const std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return BadUrl("not an http:// or https:// URL");
  const std::string_view scheme = url.substr(0, scheme_end);
  if (scheme != "http" && scheme != "https") return BadUrl("not an http:// or https:// URL");
  std::string_view rest = url.substr(scheme_end + 3);
  const std::size_t authority_end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, authority_end);
  rest = authority_end == std::string_view::npos ? std::string_view{} : rest.substr(authority_end);
  Endpoint endpoint;
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    const std::string_view userinfo = authority.substr(0, at);
    authority = authority.substr(at + 1);
    const std::size_t colon = userinfo.find(':');
    auto user = core::PercentDecode(userinfo.substr(0, colon), false);
    auto password = core::PercentDecode(
        colon == std::string_view::npos ? std::string_view{} : userinfo.substr(colon + 1), false);
    if (!user || !password) return BadUrl("a bad %-escape in the user or password");
    endpoint.user = std::move(*user);
    endpoint.password = std::move(*password);
  }
  for (std::size_t start = 0; start <= authority.size();) {
    std::size_t comma = authority.find(',', start);
    if (comma == std::string_view::npos) comma = authority.size();
    std::string origin =
        std::string(scheme) + "://" + std::string(authority.substr(start, comma - start));
    if (!core::SplitUrl(origin)) return BadUrl("a host is missing or malformed");
    endpoint.nodes.push_back(std::move(origin));
    start = comma + 1;
  }
  const std::size_t query = rest.find('?');
  if (query != std::string_view::npos) {
    for (auto& [name, value] : core::ParseQuery(rest.substr(query + 1))) {
      if (name == "database") {
        endpoint.database = value;
      } else if (name == "cluster") {
        endpoint.cluster = value;
      } else {
        return BadUrl("unknown parameter '" + name + "' (database, cluster)");
      }
    }
  }
  if (endpoint.database.empty()) return BadUrl("no ?database=NAME");
  return endpoint;
}

std::string Quote(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\\' || c == '\'') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

Client::Client(core::HttpClient& http, Endpoint endpoint, std::chrono::milliseconds timeout)
    : http_(http), endpoint_(std::move(endpoint)), timeout_(timeout) {}

Result<std::string> Client::Execute(std::string_view sql, const Settings& settings,
                                    std::size_t node, std::string_view data) const {
  const std::string& origin = endpoint_.nodes.at(node);
  core::OutboundRequest request;
  // wait_end_of_query: the status is sent after the statement finished, so an error midway
  // through a result is a 500, not a 200 with a truncated body.
  request.url =
      origin + "/?database=" + core::PercentEncode(endpoint_.database) + "&wait_end_of_query=1";
  for (const auto& [name, value] : settings) {
    request.url += "&" + core::PercentEncode(name) + "=" + core::PercentEncode(value);
  }
  if (data.empty()) {
    request.body = std::string(sql);
  } else {
    request.url += "&query=" + core::PercentEncode(sql);
    request.body = std::string(data);
  }
  request.method = core::HttpMethod::kPost;
  if (!endpoint_.user.empty()) {
    request.headers.Set("Authorization",
                        "Basic " + core::Base64Encode(endpoint_.user + ":" + endpoint_.password));
  }
  core::OutboundLimits limits;
  limits.connect_timeout = std::min<std::chrono::milliseconds>(timeout_, std::chrono::seconds(5));
  limits.idle_timeout = timeout_;
  limits.total_timeout = timeout_;
  limits.max_body_bytes = 256 * 1024 * 1024;
  std::string body;
  auto response = http_.Send(
      request, limits,
      [&](const core::OutboundResponse&, std::string_view bytes) { body += bytes; },
      [] { return false; });
  if (!response) {
    return Error(ErrorCode::kStorageUnavailable, "ClickHouse at " + origin + " is unreachable: " +
                                                     std::string(response.error().message()));
  }
  if (response->status != 200) {
    return Error(
        IsUnavailable(CodeOf(body)) ? ErrorCode::kStorageUnavailable : ErrorCode::kInternal,
        "ClickHouse answered " + std::to_string(response->status) + ": " + MessageOf(body));
  }
  return body;
}

Result<std::vector<boost::json::object>> Client::Select(std::string_view sql,
                                                        const Settings& settings) const {
  auto body = Execute(std::string(sql) + " FORMAT JSONEachRow", settings);
  if (!body) return body.error();
  std::vector<boost::json::object> rows;
  std::string_view rest = *body;
  while (!rest.empty()) {
    const std::size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    if (line.empty()) continue;
    boost::system::error_code error;
    boost::json::value row = boost::json::parse(line, error);
    if (error || !row.is_object()) {
      return Error(ErrorCode::kInternal, "ClickHouse sent a row that is not a JSON object");
    }
    rows.push_back(std::move(row.as_object()));
  }
  return rows;
}

Result<void> Client::Insert(std::string_view target, std::string_view rows, bool all_shards,
                            std::string_view format) const {
  if (rows.empty()) return {};
  Settings settings;
  if (all_shards) settings.emplace_back("insert_distributed_sync", "1");
  auto done = Execute("INSERT INTO " + std::string(target) + " FORMAT " + std::string(format),
                      settings, 0, rows);
  if (!done) return done.error();
  return {};
}

}  // namespace sightline::storage::clickhouse
