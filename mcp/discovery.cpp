#include "mcp/discovery.h"

#include "core/version.h"
#include "mcp/era.h"
#include "mcp/protocol.h"

namespace sightline::mcp {
namespace {

namespace json = boost::json;

// "https://host:8443/base" → {"https://host:8443", "/base"}.
std::pair<std::string_view, std::string_view> SplitOrigin(std::string_view url) {
  const std::size_t scheme = url.find("://");
  const std::size_t path = url.find('/', scheme == std::string_view::npos ? 0 : scheme + 3);
  if (path == std::string_view::npos) return {url, {}};
  return {url.substr(0, path), url.substr(path)};
}

std::string_view WithoutTrailingSlash(std::string_view url) {
  while (url.ends_with('/')) url.remove_suffix(1);
  return url;
}

}  // namespace

std::string McpResourceUrl(std::string_view public_url) {
  return std::string(WithoutTrailingSlash(public_url)) + "/mcp";
}

std::string AuthorizationServerIssuer(std::string_view public_url) {
  return std::string(WithoutTrailingSlash(public_url));
}

std::string ProtectedResourceMetadataUrl(std::string_view public_url) {
  const auto [origin, path] = SplitOrigin(WithoutTrailingSlash(public_url));
  return std::string(origin) + "/.well-known/oauth-protected-resource" + std::string(path) +
         "/mcp";
}

json::object ServerCard(std::string_view public_url) {
  // Both eras, newest first: 2026-07-28 (server/discover), then the initialize handshake's.
  json::array versions;
  for (std::string_view version : kModernProtocolVersions) versions.emplace_back(version);
  for (std::string_view version : kProtocolVersions) versions.emplace_back(version);
  json::object api_key{
      {"description", "Key starting with sk_service_, from the project's settings"},
      {"isRequired", true},
      {"isSecret", true}};
  json::object authorization{
      {"name", "Authorization"},
      {"description", "Optional: a private API key instead of signing in with OAuth"},
      {"isRequired", false},
      {"isSecret", true},
      {"value", "Bearer {api_key}"},
      {"variables", json::object{{"api_key", std::move(api_key)}}}};
  json::object remote{{"type", "streamable-http"},
                      {"url", McpResourceUrl(public_url)},
                      {"supportedProtocolVersions", std::move(versions)},
                      {"headers", json::array{std::move(authorization)}}};
  return {{"$schema", kServerCardSchema},
          {"name", "dev.sightline/sightline"},
          {"version", core::kServerVersion},
          {"title", "Sightline"},
          {"description", "Web analytics, crawler analytics and AI visibility of your sites."},
          {"remotes", json::array{std::move(remote)}}};
}

json::object ProtectedResourceMetadata(std::string_view public_url,
                                       const std::vector<std::string>& scopes) {
  json::object metadata{{"resource", McpResourceUrl(public_url)},
                        {"authorization_servers", json::array{AuthorizationServerIssuer(public_url)}},
                        {"bearer_methods_supported", json::array{"header"}},
                        {"resource_name", "Sightline MCP server"}};
  if (!scopes.empty()) {
    json::array names;
    for (const std::string& scope : scopes) names.emplace_back(scope);
    metadata["scopes_supported"] = std::move(names);
  }
  return metadata;
}

}  // namespace sightline::mcp
