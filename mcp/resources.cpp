// resources/list and resources/read of mcp/mcp_server.h: the MCP Apps views first, then what
// the extension (the conformance fixtures, in tests) offers.
#include "mcp/mcp_server.h"

namespace sightline::mcp {
namespace {

namespace json = boost::json;

// The extension's list entries, when it answered with a result.
json::array ResourcesOf(const std::optional<json::object>& answer) {
  if (!answer) return {};
  const json::value* result = answer->if_contains("result");
  const json::value* listed = result && result->is_object()
                                  ? result->as_object().if_contains("resources")
                                  : nullptr;
  return listed && listed->is_array() ? listed->as_array() : json::array{};
}

}  // namespace

std::optional<json::object> McpServer::AnswerResources(std::string_view method,
                                                       const json::value& id,
                                                       const json::object& params,
                                                       const ExtensionRequest& request) const {
  const AppViews& views = catalog_.views();
  if (method != "resources/list" && method != "resources/read") return std::nullopt;
  const auto theirs = [&] {
    return extension_ ? extension_->Handle(method, id, params, request) : std::nullopt;
  };
  if (views.empty()) return theirs();
  if (method == "resources/list") {
    json::array listed = views.List();
    for (json::value& resource : ResourcesOf(theirs())) listed.push_back(std::move(resource));
    return ResultMessage(id, json::object{{"resources", std::move(listed)}});
  }
  const json::value* uri = params.if_contains("uri");
  if (!uri || !uri->is_string()) {
    return ErrorMessage(id, rpc::kInvalidParams, "resources/read needs params.uri");
  }
  if (auto read = views.Read(uri->as_string())) return ResultMessage(id, std::move(*read));
  if (auto answer = theirs()) return answer;
  return ErrorMessage(id,
                      request.era == Era::kModern ? rpc::kInvalidParams
                                                  : rpc::kLegacyResourceNotFound,
                      "Resource not found", json::object{{"uri", uri->as_string()}});
}

}  // namespace sightline::mcp
