#include "mcp/tool_results.h"

#include "core/json_util.h"
#include "core/logging.h"

namespace sightline::mcp {

namespace json = boost::json;
using core::ErrorCode;

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

}  // namespace sightline::mcp
