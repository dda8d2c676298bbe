// The anonymous documents that let clients find and authorize the MCP server: the server card
// (`/mcp/server-card`, the MCP server-card draft) and the OAuth protected-resource metadata
// (RFC 9728) naming the exact MCP URL. Pure functions of the public base URL.
#pragma once

#include <boost/json/object.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace sightline::mcp {

inline constexpr std::string_view kServerCardMediaType = "application/mcp-server-card+json";
inline constexpr std::string_view kServerCardSchema =
    "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";

// The MCP endpoint's URL: the resource every token is bound to.
std::string McpResourceUrl(std::string_view public_url);
// The authorization server's issuer: the public URL without a trailing slash, one exact string
// everywhere (RFC 8414 metadata, the protected-resource metadata, the `iss` of redirects).
std::string AuthorizationServerIssuer(std::string_view public_url);
// Where RFC 9728 places the metadata of that resource (the well-known segment between the
// origin and the path).
std::string ProtectedResourceMetadataUrl(std::string_view public_url);

boost::json::object ServerCard(std::string_view public_url);
// `scopes` is the baseline a client should ask for (RFC 9728 `scopes_supported`); empty leaves
// the member out.
boost::json::object ProtectedResourceMetadata(std::string_view public_url,
                                              const std::vector<std::string>& scopes = {});

}  // namespace sightline::mcp
