#include "tools/paging.h"

#include "core/crypto.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <limits>

namespace sightline::tools {
namespace {

namespace json = boost::json;

// Bumped when what a cursor holds changes; older cursors are then refused like any other.
constexpr std::string_view kVersion = "1";
// The check bytes catch a cursor edited or cut short in transit; they are not a signature.
constexpr std::size_t kCheckBytes = 6;

std::string Payload(std::string_view list, const PageKey& key) {
  std::string payload(kVersion);
  payload += '\n';
  payload += list;
  payload += '\n';
  payload += json::serialize(key);
  return payload;
}

std::string CheckOf(std::string_view payload) {
  return core::Sha256(payload).substr(0, kCheckBytes);
}

bool HasShape(const PageKey& key, PageKeyShape shape) {
  if (key.size() != shape.size()) return false;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const bool fits = shape[i] == 'i' ? key[i].is_int64() : key[i].is_string();
    if (!fits) return false;
  }
  return true;
}

}  // namespace

std::string EncodeCursor(std::string_view list, const PageKey& key) {
  const std::string payload = Payload(list, key);
  return core::Base64UrlEncode(CheckOf(payload) + payload);
}

std::optional<PageKey> DecodeCursor(std::string_view list, PageKeyShape shape,
                                    std::string_view cursor) {
  const auto bytes = core::Base64UrlDecode(cursor);
  if (!bytes || bytes->size() <= kCheckBytes) return std::nullopt;
  const std::string_view payload = std::string_view(*bytes).substr(kCheckBytes);
  if (!core::ConstantTimeEquals(bytes->substr(0, kCheckBytes), CheckOf(payload))) {
    return std::nullopt;
  }
  // The version and the list come first, so a cursor of another list never reaches the parser.
  const std::string prefix = std::string(kVersion) + '\n' + std::string(list) + '\n';
  if (!payload.starts_with(prefix)) return std::nullopt;
  // A key string is whatever bytes the row holds, and serialize writes bytes that are not UTF-8
  // as they are: the parser takes them back the same way, so every key round-trips (found by
  // fuzz/paging_cursor).
  json::parse_options options;
  options.allow_invalid_utf8 = true;
  boost::system::error_code ec;
  json::value key = json::parse(payload.substr(prefix.size()), ec, {}, options);
  if (ec || !key.is_array() || !HasShape(key.as_array(), shape)) return std::nullopt;
  return std::move(key.as_array());
}

core::Error InvalidCursor() {
  return core::Error::Invalid("cursor", "'cursor' is not a cursor this API gave out.");
}

core::Result<PageRequest> ReadPageArgs(const json::object& args, std::string_view list,
                                       PageKeyShape shape, std::size_t default_limit) {
  PageRequest request;
  request.limit = default_limit;
  if (const json::value* limit = args.if_contains("limit"); limit && limit->is_int64()) {
    request.limit = static_cast<std::size_t>(limit->as_int64());
  }
  if (const json::value* cursor = args.if_contains("cursor"); cursor && cursor->is_string()) {
    request.after = DecodeCursor(list, shape, cursor->as_string());
    if (!request.after) return InvalidCursor();
  }
  return request;
}

void WriteNextCursor(json::object& answer, std::string_view list,
                     const std::optional<PageKey>& last) {
  answer["nextCursor"] = last ? json::value(EncodeCursor(list, *last)) : json::value(nullptr);
}

std::int64_t ProbeLimit(const PageRequest& request) {
  constexpr auto kMost = static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
  return static_cast<std::int64_t>(std::min(request.limit, kMost - 1) + 1);
}

storage::KeysetPage KeysetOf(const PageRequest& request) {
  storage::KeysetPage page;
  if (request.after) page.after = TimeIdOf(*request.after);
  page.limit = ProbeLimit(request);
  return page;
}

PageKey TimeIdKey(std::int64_t at, std::string_view id) { return PageKey{at, id}; }

std::pair<std::int64_t, std::string> TimeIdOf(const PageKey& key) {
  return {key.at(0).as_int64(), std::string(key.at(1).as_string())};
}

int ComparePageKeys(const PageKey& a, const PageKey& b) {
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    const json::value& x = a[i];
    const json::value& y = b[i];
    if (x.is_int64() != y.is_int64()) return x.is_int64() ? -1 : 1;
    if (x.is_int64()) {
      if (x.as_int64() != y.as_int64()) return x.as_int64() < y.as_int64() ? -1 : 1;
    } else if (x.is_string() && y.is_string()) {
      const int c = std::string_view(x.as_string()).compare(std::string_view(y.as_string()));
      if (c != 0) return c < 0 ? -1 : 1;
    }
  }
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

}  // namespace sightline::tools
