#include "mcp/tool_results.h"

#include "core/json_util.h"
#include "core/logging.h"
#include "tools/access.h"

namespace sightline::mcp {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;

// The step-up challenge's scope (RFC 6750 §3.1): what the operation needs, with what the
// consent already holds, so that one new consent covers both.
Error InsufficientScope(const identity::Principal& principal, identity::Permission needed) {
  std::string scope;
  for (const std::string_view name : principal.permissions.Names()) scope += std::string(name) + " ";
  scope += identity::PermissionName(needed);
  json::object details;
  details["requiredScope"] = scope;
  return Error(ErrorCode::kOAuthInsufficientScope,
               "This connection's consent does not include '" +
                   std::string(identity::PermissionName(needed)) + "'.",
               std::move(details));
}

}  // namespace

json::object ToolResult(const Tool& tool, core::Result<json::value> result, std::int64_t now,
                        std::string_view request_id) {
  json::object answer;
  if (!result) {
    if (result.error().code() == ErrorCode::kInternal) {
      core::Log(core::LogLevel::kError, "tool call failed",
                {{"requestId", request_id},
                 {"tool", tool.operation->spec->name},
                 {"internal", result.error().internal()}});
    }
    const json::object body = core::ErrorResponseBody(result.error(), now, request_id);
    answer["content"] = json::array{json::object{{"type", "text"}, {"text", core::ToJson(body)}}};
    answer["isError"] = true;
    return answer;
  }
  json::value& value = *result;
  answer["content"] = json::array{
      json::object{{"type", "text"}, {"text", value.is_null() ? "{}" : core::ToJson(value)}}};
  if (tool.has_output_schema && value.is_object()) answer["structuredContent"] = std::move(value);
  answer["isError"] = false;
  return answer;
}

std::optional<Error> StepUp(const tools::OperationSpec& spec,
                            const identity::Principal& principal) {
  if (principal.kind != identity::CredentialKind::kMcpToken) return std::nullopt;
  const auto held = tools::EffectivePermissions(principal, std::nullopt);
  if (tools::CheckCredential(spec, principal, tools::Caller::kModel) &&
      !tools::CheckPermission(spec, held) && principal.consentable.Has(spec.permission)) {
    return InsufficientScope(principal, spec.permission);
  }
  return std::nullopt;
}

}  // namespace sightline::mcp
