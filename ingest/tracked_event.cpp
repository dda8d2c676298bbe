#include "ingest/tracked_event.h"

#include "core/crypto.h"
#include "core/text.h"

#include <cmath>

namespace sightline::ingest {
namespace {

namespace json = boost::json;
using core::Error;
using core::Result;

constexpr std::size_t kMaxEvent = 200, kMaxChannel = 100, kMaxId = 200, kMaxDescription = 2000;
constexpr std::size_t kMaxIcon = 64, kMaxTags = 100, kMaxTagName = 100, kMaxTagValue = 2000;
constexpr std::int64_t kEarliest = 946684800000;  // 2000-01-01T00:00:00Z
constexpr std::int64_t kDayMs = 86400000;

std::size_t CodePoints(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// A string member: absent → nullopt; present but not a string, empty or too long → VAL_003.
Result<std::optional<std::string>> Text(const json::object& from, std::string_view name,
                                        const std::string& field, std::size_t max_chars) {
  const json::value* value = from.if_contains(name);
  if (!value || value->is_null()) return std::optional<std::string>();
  if (!value->is_string()) return Error::Invalid(field, "'" + field + "' must be a string.");
  const std::string_view text = value->as_string();
  if (text.empty() || CodePoints(text) > max_chars) {
    return Error::Invalid(field, "'" + field + "' must be 1 to " + std::to_string(max_chars) +
                                     " characters.");
  }
  if (core::HasControlCharacter(text)) {
    return Error::Invalid(field, "'" + field + "' must not contain control characters.");
  }
  return std::optional<std::string>(std::string(text));
}

Result<json::object> Tags(const json::value* value, const std::string& field) {
  if (!value || value->is_null()) return json::object();
  if (!value->is_object()) return Error::Invalid(field, "'" + field + "' must be an object.");
  const json::object& tags = value->as_object();
  if (tags.size() > kMaxTags) {
    return Error::Invalid(field, "'" + field + "' may hold at most 100 tags.");
  }
  for (const auto& [name, tag] : tags) {
    const std::string tag_field = field + "." + std::string(name);
    if (name.empty() || CodePoints(name) > kMaxTagName || core::HasControlCharacter(name)) {
      return Error::Invalid(tag_field, "Tag names must be 1 to 100 characters, no control "
                                       "characters.");
    }
    // "__" names are the server's enrichment tags; a client may not set them.
    if (name.starts_with("__")) {
      return Error::Invalid(tag_field, "Tag names starting with '__' are reserved.");
    }
    const bool scalar = tag.is_string() || tag.is_number() || tag.is_bool();
    if (!scalar) {
      return Error::Invalid(tag_field, "'" + tag_field + "' must be a string, number or boolean.");
    }
    if (tag.is_string() && CodePoints(tag.as_string()) > kMaxTagValue) {
      return Error::Invalid(tag_field, "'" + tag_field + "' is longer than 2000 characters.");
    }
    if (tag.is_string() && tag.as_string().find('\0') != std::string_view::npos) {
      return Error::Invalid(tag_field, "'" + tag_field + "' must not contain NUL characters.");
    }
    if (tag.is_double() && !std::isfinite(tag.as_double())) {
      return Error::Invalid(tag_field, "'" + tag_field + "' must be a finite number.");
    }
  }
  return tags;
}

Result<std::optional<std::int64_t>> Timestamp(const json::object& body, const std::string& field,
                                              std::int64_t now) {
  const json::value* value = body.if_contains("timestamp");
  if (!value || value->is_null()) return std::optional<std::int64_t>();
  if (!value->is_number()) return Error::Invalid(field, "'" + field + "' must be a number.");
  const double ms = value->to_number<double>();
  if (!(ms >= kEarliest && ms <= static_cast<double>(now + kDayMs))) {
    return Error::Invalid(field, "'" + field + "' must be Unix milliseconds, not in the future.");
  }
  return std::optional<std::int64_t>(static_cast<std::int64_t>(ms));
}

}  // namespace

Result<TrackedEvent> ParseTrackedEvent(const json::object& body, std::string_view field_prefix,
                                       std::int64_t now) {
  const std::string p(field_prefix);
  // The guide's variant keeps channel and tags in `properties`.
  const json::value* properties = body.if_contains("properties");
  const json::object* nested = properties && properties->is_object() ? &properties->as_object()
                                                                     : nullptr;
  const json::object& holder = nested && !body.contains("channel") ? *nested : body;
  const std::string holder_prefix = &holder == nested ? p + "properties." : p;
  TrackedEvent out;
  auto event = Text(body, "event", p + "event", kMaxEvent);
  if (!event) return event.error();
  if (!*event) return Error::Invalid(p + "event", "'" + p + "event' is required.");
  out.event = std::move(**event);
  auto channel = Text(holder, "channel", holder_prefix + "channel", kMaxChannel);
  if (!channel) return channel.error();
  if (!*channel) return Error::Invalid(p + "channel", "'" + p + "channel' is required.");
  out.channel = std::move(**channel);
  struct Optional {
    const char* name;
    std::size_t max;
    std::optional<std::string>* into;
  };
  for (const Optional& o : {Optional{"user_id", kMaxId, &out.user_id},
                            Optional{"anonymous_id", kMaxId, &out.anonymous_id},
                            Optional{"icon", kMaxIcon, &out.icon},
                            Optional{"description", kMaxDescription, &out.description}}) {
    auto text = Text(body, o.name, p + o.name, o.max);
    if (!text) return text.error();
    *o.into = std::move(*text);
  }
  if (out.anonymous_id && !core::IsUuid(*out.anonymous_id)) {
    return Error::Invalid(p + "anonymous_id", "'" + p + "anonymous_id' must be a UUID.");
  }
  if (const json::value* notify = body.if_contains("notify"); notify && !notify->is_null()) {
    if (!notify->is_bool()) return Error::Invalid(p + "notify", "'" + p + "notify' must be a boolean.");
    out.notify = notify->as_bool();
  }
  auto timestamp = Timestamp(body, p + "timestamp", now);
  if (!timestamp) return timestamp.error();
  out.timestamp_ms = *timestamp;
  auto tags = Tags(holder.if_contains("tags"), holder_prefix + "tags");
  if (!tags) return tags.error();
  out.tags = std::move(*tags);
  return out;
}

Result<IdentifyInput> ParseIdentify(const json::object& body) {
  IdentifyInput out;
  auto anonymous = Text(body, "anonymous_id", "anonymous_id", kMaxId);
  if (!anonymous) return anonymous.error();
  if (!*anonymous) return Error::Invalid("anonymous_id", "'anonymous_id' is required.");
  if (!core::IsUuid(**anonymous)) return Error::Invalid("anonymous_id", "'anonymous_id' must be a UUID.");
  auto user = Text(body, "user_id", "user_id", kMaxId);
  if (!user) return user.error();
  if (!*user) return Error::Invalid("user_id", "'user_id' is required.");
  auto traits = Tags(body.if_contains("traits"), "traits");
  if (!traits) return traits.error();
  return IdentifyInput{std::move(**anonymous), std::move(**user), std::move(*traits)};
}

}  // namespace sightline::ingest
