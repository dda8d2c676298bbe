#include "ingest/log_drain.h"

#include "core/crypto.h"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <initializer_list>

namespace sightline::ingest {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::Result;

constexpr std::array<std::string_view, 5> kSourceNames = {"vercel", "netlify", "cloudflare",
                                                          "fastly", "cloudfront"};

const json::value* Field(const json::object& row, std::initializer_list<std::string_view> names) {
  for (std::string_view name : names) {
    const json::value* value = row.if_contains(name);
    if (value && !value->is_null()) return value;
  }
  return nullptr;
}

// A string field; Vercel sends the User-Agent as an array of header values.
std::optional<std::string> Text(const json::value* value) {
  if (!value) return std::nullopt;
  if (value->is_string() && !value->as_string().empty()) return std::string(value->as_string());
  if (value->is_array()) {
    for (const json::value& item : value->as_array()) {
      if (auto text = Text(&item)) return text;
    }
  }
  return std::nullopt;
}

// Platforms write "-" or "" for an absent header.
std::optional<std::string> Header(const json::value* value) {
  auto text = Text(value);
  if (text && *text == "-") return std::nullopt;
  return text;
}

// Epoch numbers arrive in seconds, milliseconds, microseconds or nanoseconds; their magnitude
// tells which (any of them for a date after 2001).
// Beyond 9e18 (nanoseconds in the year 2255) a number is no time, and 1e300 nanoseconds as
// milliseconds would not fit an int64: converting it was undefined (found by fuzzing).
std::optional<std::int64_t> EpochToMillis(double value) {
  if (!(value > 0) || !(value < 9e18)) return std::nullopt;
  if (value >= 1e17) return static_cast<std::int64_t>(value / 1e6);
  if (value >= 1e14) return static_cast<std::int64_t>(value / 1e3);
  if (value >= 1e11) return static_cast<std::int64_t>(value);
  return static_cast<std::int64_t>(value * 1e3);
}

std::optional<std::int64_t> Timestamp(const json::value* value) {
  if (!value) return std::nullopt;
  if (value->is_number()) return EpochToMillis(value->to_number<double>());
  if (!value->is_string()) return std::nullopt;
  const std::string_view text = value->as_string();
  double number = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec == std::errc() && end == text.data() + text.size()) return EpochToMillis(number);
  return ParseRfc3339Millis(text);
}

// CloudFront writes the User-Agent percent-encoded ("Mozilla/5.0%20(X11;...").
std::string PercentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

// The fields a drain row maps onto a server-side ingestion item.
struct RequestFields {
  std::optional<std::string> ip, user_agent, method, host, path, referrer;
  std::optional<std::int64_t> timestamp;
};

// "https://example.com/a?b" → host "example.com", path "/a?b"; a bare path stays a path.
void SplitUrl(const std::string& url, RequestFields& into) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos || scheme > 8) {
    into.path = url;
    return;
  }
  const auto path_at = url.find('/', scheme + 3);
  if (!into.host) into.host = url.substr(scheme + 3, path_at - (scheme + 3));
  into.path = path_at == std::string::npos ? "/" : url.substr(path_at);
}

std::optional<RequestFields> VercelRow(const json::object& row) {
  const json::value* proxy = row.if_contains("proxy");
  if (!proxy || !proxy->is_object()) return std::nullopt;  // build, function and static logs
  const json::object& p = proxy->as_object();
  RequestFields f{.ip = Text(Field(p, {"clientIp"})),
                  .user_agent = Header(Field(p, {"userAgent"})),
                  .method = Text(Field(p, {"method"})),
                  .host = Text(Field(p, {"host"})),
                  .path = Text(Field(p, {"path"})),
                  .referrer = Header(Field(p, {"referer"}))};
  f.timestamp = Timestamp(Field(p, {"timestamp"}));
  if (!f.timestamp) f.timestamp = Timestamp(Field(row, {"timestamp"}));
  return f;
}

std::optional<RequestFields> NetlifyRow(const json::object& row) {
  if (auto type = Text(Field(row, {"log_type"})); type && *type != "traffic") return std::nullopt;
  RequestFields f{.ip = Text(Field(row, {"client_ip"})),
                  .user_agent = Header(Field(row, {"user_agent"})),
                  .method = Text(Field(row, {"method"})),
                  .host = Text(Field(row, {"host"})),
                  .referrer = Header(Field(row, {"referrer", "referer"})),
                  .timestamp = Timestamp(Field(row, {"timestamp"}))};
  if (auto url = Text(Field(row, {"url", "path"}))) SplitUrl(*url, f);
  return f;
}

std::optional<RequestFields> CloudflareRow(const json::object& row) {
  RequestFields f{.ip = Text(Field(row, {"ClientIP"})),
                  .user_agent = Header(Field(row, {"ClientRequestUserAgent"})),
                  .method = Text(Field(row, {"ClientRequestMethod"})),
                  .host = Text(Field(row, {"ClientRequestHost"})),
                  .path = Text(Field(row, {"ClientRequestURI", "ClientRequestPath"})),
                  .referrer = Header(Field(row, {"ClientRequestReferer"})),
                  .timestamp = Timestamp(Field(row, {"EdgeStartTimestamp", "EdgeEndTimestamp"}))};
  return f;
}

// Fastly's JSON logging format is the customer's own; docs/log-drains.md gives the recommended
// one, and the common spellings of each field are read.
std::optional<RequestFields> FastlyRow(const json::object& row) {
  RequestFields f{.ip = Text(Field(row, {"client_ip", "ip", "client.ip", "remote_addr"})),
                  .user_agent = Header(Field(row, {"user_agent", "request_user_agent", "http_user_agent"})),
                  .method = Text(Field(row, {"method", "request_method"})),
                  .host = Text(Field(row, {"host", "request_host"})),
                  .referrer = Header(Field(row, {"referer", "referrer", "request_referer"})),
                  .timestamp = Timestamp(Field(row, {"timestamp", "time", "time_start"}))};
  if (auto url = Text(Field(row, {"url", "path", "request_url", "uri"}))) SplitUrl(*url, f);
  return f;
}

std::optional<RequestFields> CloudFrontRow(const json::object& row) {
  RequestFields f{.ip = Text(Field(row, {"c-ip"})),
                  .method = Text(Field(row, {"cs-method"})),
                  .host = Text(Field(row, {"x-host-header", "cs-host"})),
                  .path = Text(Field(row, {"cs-uri-stem"})),
                  .referrer = Header(Field(row, {"cs-referer"})),
                  .timestamp = Timestamp(Field(row, {"timestamp"}))};
  if (auto agent = Header(Field(row, {"cs-user-agent"}))) f.user_agent = PercentDecode(*agent);
  if (auto query = Header(Field(row, {"cs-uri-query"})); query && f.path) *f.path += "?" + *query;
  return f;
}

std::optional<RequestFields> ReadRow(DrainSource source, const json::object& row) {
  switch (source) {
    case DrainSource::kVercel: return VercelRow(row);
    case DrainSource::kNetlify: return NetlifyRow(row);
    case DrainSource::kCloudflare: return CloudflareRow(row);
    case DrainSource::kFastly: return FastlyRow(row);
    case DrainSource::kCloudFront: return CloudFrontRow(row);
  }
  return std::nullopt;
}

// One log row: counted, and kept when it is a request with a usable IP and User-Agent.
void AddRow(DrainSource source, const json::value& row, std::int64_t now, DrainBatch& batch) {
  ++batch.received;
  if (!row.is_object()) return;
  const auto fields = ReadRow(source, row.as_object());
  if (!fields || !fields->ip || !fields->user_agent) return;
  json::object item{{"ip_address", *fields->ip}, {"user_agent", *fields->user_agent}};
  auto put = [&item](std::string_view name, const std::optional<std::string>& value) {
    if (value) item[name] = *value;
  };
  put("method", fields->method);
  put("host", fields->host);
  put("path", fields->path);
  put("referrer", fields->referrer);
  // An implausible time (clock skew, a replayed old batch) falls back to receipt time.
  if (fields->timestamp && *fields->timestamp <= now && *fields->timestamp >= 946684800000) {
    item["client_timestamp"] = *fields->timestamp;
  }
  auto parsed = ParseServerItem(item, "", now);
  if (parsed) batch.requests.push_back(std::move(*parsed));
}

std::string_view Trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// A JSON array of rows, or NDJSON (one JSON value per line; an unreadable line is counted and
// skipped). Returns false when nothing in a non-empty text is JSON.
bool AddRows(DrainSource source, std::string_view text, std::int64_t now, DrainBatch& batch) {
  text = Trim(text);
  if (text.empty()) return true;
  boost::system::error_code ec;
  if (text.front() == '[') {
    json::value rows = json::parse(text, ec);
    if (ec || !rows.is_array()) return false;
    for (const json::value& row : rows.as_array()) AddRow(source, row, now, batch);
    return true;
  }
  bool any = false;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const std::string_view line = Trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (line.empty()) continue;
    json::value row = json::parse(line, ec);
    if (ec) {
      ++batch.received;
      continue;
    }
    any = true;
    AddRow(source, row, now, batch);
  }
  return any;
}

// CloudFront's tab-separated real-time log lines, zipped with the configured field names. "-"
// is CloudFront's empty value. A line with another number of values is counted and skipped.
void AddTabSeparatedRows(std::string_view text, const std::vector<std::string>& fields,
                         std::int64_t now, DrainBatch& batch) {
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (Trim(line).empty()) continue;
    json::object row;
    std::size_t index = 0;
    bool fits = true;
    for (std::size_t start = 0;; ++index) {
      const auto tab = line.find('\t', start);
      const std::string_view value = line.substr(start, tab == std::string_view::npos ? tab : tab - start);
      if (index >= fields.size()) {
        fits = false;
        break;
      }
      if (value != "-") row[fields[index]] = value;
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    if (!fits || index + 1 != fields.size()) {
      ++batch.received;
      continue;
    }
    AddRow(DrainSource::kCloudFront, row, now, batch);
  }
}

Result<DrainBatch> ParseFirehose(std::string_view body, std::int64_t now,
                                 const DrainOptions& options) {
  boost::system::error_code ec;
  json::value envelope = json::parse(body, ec);
  const json::object* object = !ec && envelope.is_object() ? &envelope.as_object() : nullptr;
  const json::value* records = object ? object->if_contains("records") : nullptr;
  const json::value* request_id = object ? object->if_contains("requestId") : nullptr;
  if (!records || !records->is_array() || !request_id || !request_id->is_string()) {
    return Error(ErrorCode::kValMalformedJson,
                 "Expected an Amazon Data Firehose delivery: {requestId, timestamp, records}.");
  }
  DrainBatch batch;
  batch.firehose_request_id = std::string(request_id->as_string());
  for (const json::value& record : records->as_array()) {
    const json::value* data = record.is_object() ? record.as_object().if_contains("data") : nullptr;
    const auto text = data && data->is_string() ? core::Base64Decode(data->as_string())
                                                : std::nullopt;
    if (!text) {
      ++batch.received;  // undecodable data is one unusable row
      continue;
    }
    if (options.cloudfront_fields.empty()) {
      AddRows(DrainSource::kCloudFront, *text, now, batch);  // unreadable lines counted there
    } else {
      AddTabSeparatedRows(*text, options.cloudfront_fields, now, batch);
    }
  }
  return batch;
}

}  // namespace

std::optional<DrainSource> ParseDrainSource(std::string_view name) {
  for (std::size_t i = 0; i < kSourceNames.size(); ++i) {
    if (kSourceNames[i] == name) return static_cast<DrainSource>(i);
  }
  return std::nullopt;
}

std::span<const std::string_view> DrainSourceNames() { return kSourceNames; }

Result<std::vector<std::string>> ParseCloudFrontFields(std::string_view fields) {
  std::vector<std::string> names;
  while (true) {
    const auto comma = fields.find(',');
    const std::string_view name = Trim(fields.substr(0, comma));
    const bool shaped = !name.empty() && name.size() <= 64 &&
                        std::all_of(name.begin(), name.end(), [](char c) {
                          return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                                 c == '_';
                        });
    if (!shaped || std::find(names.begin(), names.end(), name) != names.end()) {
      return Error::Invalid("fields", "'fields' must list the real-time log configuration's "
                                      "field names in order, comma-separated, each once "
                                      "(e.g. timestamp,c-ip,cs-method,cs-user-agent).");
    }
    names.emplace_back(name);
    if (comma == std::string_view::npos) break;
    fields.remove_prefix(comma + 1);
  }
  return names;
}

Result<DrainBatch> ParseDrain(DrainSource source, std::string_view body, std::int64_t now,
                              const DrainOptions& options) {
  if (source == DrainSource::kCloudFront) return ParseFirehose(body, now, options);
  DrainBatch batch;
  if (!AddRows(source, body, now, batch)) {
    return Error(ErrorCode::kValMalformedJson,
                 "Expected the platform's log batch: a JSON array or NDJSON (one JSON object per "
                 "line).");
  }
  return batch;
}

std::optional<std::int64_t> ParseRfc3339Millis(std::string_view text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  auto number = [&text](std::size_t at, std::size_t width, int& out) {
    if (text.size() < at + width) return false;
    // Digits only: from_chars takes a sign, and "T-1:00" read as hour -1 shifted the time.
    for (std::size_t i = at; i < at + width; ++i) {
      if (text[i] < '0' || text[i] > '9') return false;
    }
    const auto [end, ec] = std::from_chars(text.data() + at, text.data() + at + width, out);
    return ec == std::errc() && end == text.data() + at + width;
  };
  if (text.size() < 20) return std::nullopt;
  if (!number(0, 4, year) || text[4] != '-' || !number(5, 2, month) || text[7] != '-' ||
      !number(8, 2, day) || (text[10] != 'T' && text[10] != 't' && text[10] != ' ') ||
      !number(11, 2, hour) || text[13] != ':' || !number(14, 2, minute) || text[16] != ':' ||
      !number(17, 2, second)) {
    return std::nullopt;
  }
  const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(month),
                                         std::chrono::day(day)};
  if (!date.ok() || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  std::size_t at = 19;
  std::int64_t millis = 0;
  if (at < text.size() && text[at] == '.') {
    std::int64_t scale = 100;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
      millis += (text[at] - '0') * scale;
      scale /= 10;
    }
  }
  std::int64_t offset_minutes = 0;
  if (at < text.size() && (text[at] == 'Z' || text[at] == 'z')) {
    ++at;
  } else if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    int oh = 0, om = 0;
    if (!number(at + 1, 2, oh) || text.size() < at + 6 || text[at + 3] != ':' ||
        !number(at + 4, 2, om)) {
      return std::nullopt;
    }
    offset_minutes = (text[at] == '-' ? -1 : 1) * (oh * 60 + om);
    at += 6;
  } else {
    return std::nullopt;
  }
  if (at != text.size()) return std::nullopt;
  const std::int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
  return ((days * 24 + hour) * 60 + minute - offset_minutes) * 60000 + second * 1000 + millis;
}

}  // namespace sightline::ingest
