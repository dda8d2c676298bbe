#include "api/request_arguments.h"

#include "core/compression.h"
#include "core/json_util.h"
#include "tools/schema.h"

namespace sightline::api {

namespace json = boost::json;
using core::ErrorCode;
using core::HttpRequest;
using core::Result;
using identity::CredentialKind;

namespace {

bool IsJsonContentType(std::string_view type) {
  const std::string_view trimmed = core::MediaTypeOf(type);
  return core::EqualsIgnoreCase(trimmed, "application/json") ||
         (trimmed.size() > 5 && core::EqualsIgnoreCase(trimmed.substr(trimmed.size() - 5), "+json"));
}

const json::object* PropertySchema(const tools::RegisteredOperation& op, std::string_view name) {
  const json::value* properties = op.input_schema.if_contains("properties");
  if (!properties) return nullptr;
  const json::value* schema = properties->as_object().if_contains(name);
  return schema ? &schema->as_object() : nullptr;
}

Result<void> AddStringArgument(const tools::RegisteredOperation& op, json::object& args,
                               const std::string& name, const std::string& text) {
  const json::object* schema = PropertySchema(op, name);
  if (!schema) return {};  // unknown query parameters are ignored
  auto value = tools::CoerceFromString(*schema, name, text);
  if (!value) return value.error();
  args[name] = std::move(*value);
  return {};
}

// Platforms compress what they drain (Cloudflare Logpush always gzips); the inflated size is
// bounded so a small compressed body cannot expand without limit.
Result<std::string> DecodedBody(const HttpRequest& request) {
  constexpr std::size_t kMaxInflated = 64 * 1024 * 1024;
  const auto encoding = request.headers.Get("Content-Encoding");
  if (!encoding || core::EqualsIgnoreCase(*encoding, "identity")) return request.body;
  if (!core::EqualsIgnoreCase(*encoding, "gzip")) {
    return core::Error(ErrorCode::kValUnsupportedMediaType,
                       "Send the body uncompressed or with 'Content-Encoding: gzip'.");
  }
  return core::Gunzip(request.body, kMaxInflated);
}

}  // namespace

Result<std::string> PresentedSecret(const HttpRequest& request, CredentialKind accepted) {
  if (identity::Accepts(accepted, CredentialKind::kSdkKey)) {
    if (auto key = request.headers.Get("x-sdk-key")) return std::string(*key);
  }
  if (auto authorization = request.headers.Get("Authorization")) {
    constexpr std::string_view kBearer = "bearer ";
    const std::string_view value = *authorization;
    if (value.size() <= kBearer.size() ||
        !core::EqualsIgnoreCase(value.substr(0, kBearer.size()), kBearer)) {
      return core::Error(ErrorCode::kAuthMalformedCredential,
                         "The Authorization header must be 'Bearer <credential>'.");
    }
    return std::string(value.substr(kBearer.size()));
  }
  if (auto key = request.headers.Get("X-API-Key")) return std::string(*key);
  // Amazon Data Firehose HTTP-endpoint deliveries can carry a secret only in this header.
  if (identity::Accepts(accepted, CredentialKind::kPrivateApiKey)) {
    if (auto key = request.headers.Get("X-Amz-Firehose-Access-Key")) return std::string(*key);
  }
  return core::Error(ErrorCode::kAuthRequired, "Authentication required.");
}

Result<tools::Presented> ReadPresented(const HttpRequest& request, CredentialKind accepted,
                                       std::string client_ip) {
  tools::Presented presented;
  auto secret = PresentedSecret(request, accepted);
  if (secret) {
    presented.secret = std::move(*secret);
  } else if (secret.error().code() != ErrorCode::kAuthRequired) {
    return secret.error();
  }
  presented.in_authorization = request.headers.Has("Authorization");
  if (auto setup = request.headers.Get("X-2FA-Setup-Token")) {
    presented.setup_token = std::string(*setup);
  }
  presented.remote_address = request.remote_address;
  presented.client_ip = std::move(client_ip);
  return presented;
}

Result<json::object> BuildArguments(const tools::RegisteredOperation& op, const RouteMatch& match,
                                    const HttpRequest& request) {
  json::object args;
  if (op.spec->raw_body || !op.HasBody()) {
    for (auto& [name, value] : core::ParseQuery(request.query())) {
      if (op.LocationOf(name) != tools::ArgumentLocation::kQuery) continue;
      auto added = AddStringArgument(op, args, name, value);
      if (!added) return added.error();
    }
  }
  if (op.spec->raw_body) {
    auto body = DecodedBody(request);
    if (!body) return body.error();
    args["body"] = std::move(*body);
  } else if (op.HasBody()) {
    const auto type = request.headers.Get("Content-Type");
    const bool has_body = request.body.find_first_not_of(" \t\r\n") != std::string::npos;
    if (has_body && (!type || !IsJsonContentType(*type))) {
      return core::Error(ErrorCode::kValUnsupportedMediaType,
                         "Send the body as JSON with 'Content-Type: application/json'.");
    }
    auto body = core::ParseJsonObject(request.body);
    if (!body) return body.error();
    args = std::move(*body);
  }
  // Path parameters last: a body can never override what the URL names.
  for (const auto& [name, value] : match.path_parameters) {
    auto added = AddStringArgument(op, args, name, value);
    if (!added) return added.error();
  }
  return args;
}

}  // namespace sightline::api
