#include "mcp/task_handles.h"

#include "core/crypto.h"
#include "core/json_util.h"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>

namespace sightline::mcp {
namespace {

namespace json = boost::json;

// `task1.<payload>.<seal>`: the version lets a later form be told apart from this one.
constexpr std::string_view kPrefix = "task1.";
// Ids longer than this are not ours (operation names and job ids are short).
constexpr std::size_t kMaxTaskIdChars = 1024;

// Who a task belongs to, without naming the credential in the id (ids end up in client logs).
std::string CredentialDigest(std::string_view credential) {
  return core::Base64UrlEncode(core::Sha256(credential).substr(0, 16));
}

std::string Seal(std::string_view key, std::string_view sealed_part) {
  return core::Base64UrlEncode(core::HmacSha256(key, sealed_part));
}

}  // namespace

std::string SealTaskId(std::string_view key, const TaskHandle& handle,
                       std::string_view credential) {
  const json::array payload{json::value(handle.operation), json::value(handle.job_id),
                            json::value(handle.created_at),
                            json::value(CredentialDigest(credential))};
  const std::string sealed_part =
      std::string(kPrefix) + core::Base64UrlEncode(core::ToJson(payload));
  return sealed_part + "." + Seal(key, sealed_part);
}

std::optional<TaskHandle> OpenTaskId(std::string_view key, std::string_view task_id,
                                     std::string_view credential) {
  if (task_id.size() > kMaxTaskIdChars || !task_id.starts_with(kPrefix)) return std::nullopt;
  const std::size_t dot = task_id.rfind('.');
  if (dot < kPrefix.size()) return std::nullopt;
  const std::string_view sealed_part = task_id.substr(0, dot);
  if (!core::ConstantTimeEquals(Seal(key, sealed_part), task_id.substr(dot + 1))) {
    return std::nullopt;
  }
  const auto text = core::Base64UrlDecode(sealed_part.substr(kPrefix.size()));
  if (!text) return std::nullopt;
  boost::system::error_code error;
  const json::value payload = json::parse(*text, error);
  if (error || !payload.is_array() || payload.as_array().size() != 4) return std::nullopt;
  const json::array& fields = payload.as_array();
  if (!fields[0].is_string() || !fields[1].is_string() || !fields[2].is_int64() ||
      !fields[3].is_string()) {
    return std::nullopt;
  }
  if (!core::ConstantTimeEquals(fields[3].as_string(), CredentialDigest(credential))) {
    return std::nullopt;
  }
  return TaskHandle{std::string(fields[0].as_string()), std::string(fields[1].as_string()),
                    fields[2].as_int64()};
}

}  // namespace sightline::mcp
