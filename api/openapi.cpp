#include "api/openapi.h"

#include "api/yaml.h"
#include "core/crypto.h"
#include "core/version.h"
#include "core/text.h"
#include "core/error.h"
#include "core/json_util.h"

#include <boost/json/parse.hpp>

#include <set>

namespace sightline::api {
namespace {

namespace json = boost::json;
using identity::CredentialKind;
using tools::ArgumentLocation;
using tools::RegisteredOperation;


json::object Ref(std::string_view where) {
  return json::object{{"$ref", std::string(where)}};
}

json::object ErrorResponseSchema() {
  return json::parse(R"({
    "type": "object",
    "required": ["error", "timestamp"],
    "properties": {
      "error": {
        "type": "object",
        "required": ["code", "message"],
        "properties": {
          "code": {"type": "string", "description": "Stable code to branch on, e.g. AUTH_003."},
          "message": {"type": "string", "description": "Human-readable; may change."},
          "details": {
            "type": "object",
            "description": "Optional extras.",
            "properties": {
              "field": {"type": "string"},
              "value": {},
              "resource": {"type": "string"},
              "reason": {"type": "string"},
              "retryAfterSeconds": {"type": "integer"}
            }
          }
        }
      },
      "timestamp": {"type": "string", "format": "date-time"},
      "requestId": {"type": "string", "description": "Same as the X-Request-Id header."}
    }
  })").as_object();
}

// Status → (description, codes that may appear) for the shared error responses.
struct ErrorResponseDoc {
  std::string_view status;
  std::string_view name;
  std::string_view description;
};
constexpr ErrorResponseDoc kErrorResponses[] = {
    {"400", "BadRequest", "Invalid request (VAL_*)."},
    {"401", "Unauthorized", "Credential missing, malformed, unknown or expired (AUTH_*)."},
    {"403", "Forbidden", "Credential accepted but lacks the permission (PERM_001)."},
    {"404", "NotFound", "Not found, or not visible to this credential."},
    {"413", "PayloadTooLarge", "Request body over the limit (VAL_004)."},
    {"415", "UnsupportedMediaType", "Body is not application/json (VAL_006)."},
    {"409", "Conflict", "Conflicts with the current state (REQ_003, AGENT_002)."},
    {"429", "TooManyRequests", "Rate limit or throttle reached (AUTH_014); see Retry-After."},
    {"500", "InternalError", "Unexpected server error (SYS_001)."},
    {"502", "BadGateway", "An upstream service failed (AGENT_003)."},
    {"503", "ServiceUnavailable", "Not available on this server now (AGENT_001, SYS_002)."},
};

// `api_url`: the API base, which the OAuth endpoints are under; `shapes`: the schemas the
// operations share, which their published schemas name by $ref.
json::object Components(std::string_view api_url, const json::object& shapes) {
  json::object responses;
  for (const auto& doc : kErrorResponses) {
    responses[doc.name] = json::object{
        {"description", doc.description},
        {"content",
         json::object{{"application/json",
                       json::object{{"schema", Ref("#/components/schemas/ErrorResponse")}}}}}};
  }
  json::object security = json::parse(R"({
    "privateApiKey": {"type": "http", "scheme": "bearer",
      "description": "Private API key `sk_service_…` as `Authorization: Bearer <key>`."},
    "privateApiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key",
      "description": "Private API key `sk_service_…` in the `X-API-Key` header."},
    "sdkKey": {"type": "apiKey", "in": "header", "name": "x-sdk-key",
      "description": "Public SDK key `pk_service_…`; accepted only by `/sdk/v1/*` ingestion."},
    "userSession": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
      "description": "A user session's access token (dashboard and CLI browser login)."},
    "twoFactorSetupToken": {"type": "apiKey", "in": "header", "name": "X-2FA-Setup-Token",
      "description": "Issued by sign-in when an organization requires two-factor authentication the user has not set up (`twoFactorSetupRequired`); accepted only by the 2FA setup and enable operations."},
    "mcpOAuth": {"type": "oauth2",
      "description": "OAuth 2.1 code + PKCE for the MCP server at /api/mcp (docs/mcp.md).",
      "flows": {"authorizationCode": {"scopes": {}}}}
  })").as_object();
  json::object& code = security["mcpOAuth"].as_object()["flows"].as_object()["authorizationCode"]
                           .as_object();
  const std::string base(api_url);
  code["authorizationUrl"] = base + "/oauth/authorize";
  code["tokenUrl"] = base + "/oauth/token";
  code["refreshUrl"] = base + "/oauth/token";
  json::object scopes;
  for (const auto& info : identity::AllPermissions()) scopes[info.name] = info.description;
  code["scopes"] = std::move(scopes);
  json::object schemas{{"ErrorResponse", ErrorResponseSchema()}};
  for (const auto& [name, schema] : shapes) schemas[name] = schema;
  return json::object{{"schemas", std::move(schemas)},
                      {"responses", std::move(responses)},
                      {"securitySchemes", std::move(security)}};
}

json::array Security(CredentialKind kinds) {
  json::array security;
  auto add = [&](CredentialKind kind, std::initializer_list<std::string_view> schemes) {
    if (!identity::Accepts(kinds, kind)) return;
    for (auto scheme : schemes) security.push_back(json::object{{scheme, json::array{}}});
  };
  add(CredentialKind::kPrivateApiKey, {"privateApiKey", "privateApiKeyHeader"});
  add(CredentialKind::kSdkKey, {"sdkKey"});
  add(CredentialKind::kUserSession, {"userSession"});
  add(CredentialKind::kTwoFactorSetup, {"twoFactorSetupToken"});
  return security;
}

// A property as a parameter: its description moves up to the parameter, where OpenAPI expects
// it; its schema is as published (a shared shape stays a $ref, which carries its description).
json::object Parameter(const std::string& name, std::string_view in, const json::object& resolved,
                       json::object published, bool required) {
  json::object parameter{{"name", name}, {"in", in}, {"required", required}};
  if (auto description = resolved.if_contains("description")) {
    parameter["description"] = *description;
    published.erase("description");
  }
  parameter["schema"] = std::move(published);
  return parameter;
}

std::set<std::string> RequiredNames(const json::object& schema) {
  std::set<std::string> names;
  if (auto required = schema.if_contains("required")) {
    for (const auto& n : required->as_array()) names.emplace(n.as_string());
  }
  return names;
}

// A platform's own log batch: a JSON array, NDJSON lines or a Firehose envelope.
json::object RawRequestBody() {
  const json::object text{{"schema", json::object{{"type", "string"}}}};
  return json::object{
      {"required", true},
      {"description", "The platform's log batch as it sends it; may be gzip-encoded."},
      {"content", json::object{{"application/json", json::object{{"schema", json::object{}}}},
                               {"application/x-ndjson", text},
                               {"text/plain", text}}}};
}

void AddArguments(const RegisteredOperation& op, json::object& operation) {
  const std::set<std::string> required = RequiredNames(op.input_schema);
  json::array parameters;
  json::object body_properties;
  json::array body_required;
  const json::value* properties = op.input_schema.if_contains("properties");
  const json::value* published = op.published_input_schema.if_contains("properties");
  auto parameter = [&](const std::string& name, std::string_view in, bool is_required) {
    return Parameter(name, in, properties->as_object().at(name).as_object(),
                     published->as_object().at(name).as_object(), is_required);
  };
  for (const auto& name : op.path_parameters) parameters.push_back(parameter(name, "path", true));
  if (properties) {
    for (const auto& [key, schema] : properties->as_object()) {
      const std::string name(key);
      const ArgumentLocation where = op.LocationOf(name);
      if (where == ArgumentLocation::kQuery) {
        parameters.push_back(parameter(name, "query", required.contains(name)));
      } else if (where == ArgumentLocation::kBody) {
        body_properties[name] = published->as_object().at(name);
        if (required.contains(name)) body_required.push_back(json::string(name));
      }
    }
  }
  if (!parameters.empty()) operation["parameters"] = std::move(parameters);
  if (op.spec->raw_body) {
    operation["requestBody"] = RawRequestBody();
    return;
  }
  if (!op.HasBody()) return;
  json::object body_schema{{"type", "object"}, {"properties", std::move(body_properties)}};
  if (!body_required.empty()) body_schema["required"] = std::move(body_required);
  operation["requestBody"] = json::object{
      {"required", !body_schema.at("properties").as_object().empty()},
      {"content", json::object{{"application/json", json::object{{"schema", body_schema}}}}}};
}

json::object DeprecationHeaders() {
  auto header = [](std::string_view description) {
    return json::object{{"description", description},
                        {"schema", json::object{{"type", "string"}}}};
  };
  return json::object{
      {"Deprecation", header("RFC 9745 announcement date, e.g. `@1735689600`.")},
      {"Sunset", header("RFC 8594 HTTP date after which the operation may stop working.")},
      {"Link", header("`<url>; rel=\"deprecation\"; type=\"text/html\"`: migration notes.")}};
}

json::object Responses(const RegisteredOperation& op) {
  const tools::OperationSpec& spec = *op.spec;
  json::object success{{"description", std::string(spec.summary)}};
  if (spec.open_stream && spec.run_async) {  // negotiated by the Accept header
    success["content"] = json::object{
        {"application/json", json::object{{"schema", op.published_output_schema}}},
        {"text/event-stream",
         json::object{{"schema", json::object{{"type", "string"},
                                              {"description", "Server-Sent Events."}}}}}};
  } else if (spec.open_stream) {
    success["content"] =
        json::object{{"text/event-stream", json::object{{"schema", op.published_output_schema}}}};
  } else if (spec.success_status != 204) {
    success["content"] =
        json::object{{"application/json", json::object{{"schema", op.published_output_schema}}}};
  }
  if (spec.deprecation) success["headers"] = DeprecationHeaders();
  json::object responses{{std::to_string(spec.success_status), std::move(success)}};
  std::set<std::string_view> statuses = {"400", "500"};
  if (spec.credentials != CredentialKind::kNone) statuses.insert({"401", "403"});
  if (!op.path_parameters.empty()) statuses.insert("404");
  if (op.HasBody()) statuses.insert({"413", "415"});
  for (std::string_view rest = spec.error_statuses; !rest.empty();) {
    const auto space = rest.find(' ');
    statuses.insert(rest.substr(0, space));
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
  }
  for (const auto& doc : kErrorResponses) {
    if (statuses.contains(doc.status)) {
      responses[doc.status] = Ref("#/components/responses/" + std::string(doc.name));
    }
  }
  return responses;
}

json::object Operation(const RegisteredOperation& op) {
  const tools::OperationSpec& spec = *op.spec;
  json::object operation{{"operationId", std::string(spec.name)},
                         {"summary", std::string(spec.summary)},
                         {"description", std::string(spec.description)},
                         {"tags", json::array{json::string(spec.tag)}}};
  AddArguments(op, operation);
  operation["responses"] = Responses(op);
  operation["security"] = Security(spec.credentials);
  if (spec.deprecation) operation["deprecated"] = true;
  operation["x-sightline-permission"] = std::string(identity::PermissionName(spec.permission));
  operation["x-sightline-effect"] = std::string(tools::EffectName(spec.effect));
  return operation;
}

json::array Tags(const tools::Registry& registry) {
  std::set<std::string_view> names;
  for (const auto& op : registry.operations()) names.insert(op.spec->tag);
  json::array tags;
  for (auto name : names) {
    tags.push_back(json::object{{"name", name}, {"description", std::string(name) + " operations."}});
  }
  return tags;
}

}  // namespace

json::value BuildOpenApi(const tools::Registry& registry, const OpenApiOptions& options) {
  json::object paths;
  for (const auto& op : registry.operations()) {
    json::value& item = paths[op.spec->path];
    if (!item.is_object()) item.emplace_object();
    item.as_object()[core::ToLowerAscii(core::MethodName(op.spec->method))] = Operation(op);
  }
  json::object info{
      {"title", "Sightline API"},
      {"version", core::kApiVersion},
      {"description",
       "Product analytics, crawler analytics and AI visibility. Every operation here is also an "
       "MCP tool of the same name. Errors share one ErrorResponse body; clients branch on "
       "`error.code`. Clients must ignore unknown fields."}};
  return json::object{{"openapi", "3.0.3"},
                      {"info", std::move(info)},
                      {"servers", json::array{json::object{{"url", options.server_url}}}},
                      {"tags", Tags(registry)},
                      {"paths", std::move(paths)},
                      {"components", Components(options.server_url, registry.schema_components())}};
}

OpenApiDocuments RenderOpenApi(const tools::Registry& registry, const OpenApiOptions& options) {
  const json::value document = BuildOpenApi(registry, options);
  auto render = [](std::string body, std::string content_type) {
    std::string etag = "\"" + core::Sha256Hex(body).substr(0, 32) + "\"";
    return RenderedDocument{std::move(body), std::move(etag), std::move(content_type)};
  };
  return {render(core::ToJson(document), "application/json"),
          render(ToYaml(document), "application/yaml")};
}

}  // namespace sightline::api
