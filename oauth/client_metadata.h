// OAuth clients as the authorization server knows them, and the rules for their metadata:
// dynamic registration (RFC 7591), client metadata documents (a URL as client_id,
// draft-ietf-oauth-client-id-metadata-document) and redirect URI matching. Pure functions.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace sightline::storage {
struct OAuthClientRecord;
}

namespace sightline::oauth {

inline constexpr std::string_view kRegisteredClient = "registered";
inline constexpr std::string_view kMetadataDocumentClient = "metadata_document";

struct OAuthClient {
  std::string id;
  std::string kind;  // kRegisteredClient or kMetadataDocumentClient
  std::string name;
  std::vector<std::string> redirect_uris;
  std::string auth_method;  // none, client_secret_basic, client_secret_post
  std::optional<std::string> secret_hash;
  boost::json::object metadata;

  bool is_public() const { return auth_method == "none"; }
};

// A registration accepted by Register: the client, and its secret when confidential (shown once).
struct NewClient {
  OAuthClient client;
  std::optional<std::string> secret;
};

// OAUTH_008 for a redirect URI that is relative, has a fragment or userinfo, is plain http to a
// host other than loopback, or uses a scheme browsers could be tricked with (javascript:,
// data:, file:…). Private-use schemes of native apps ("cursor://…") are allowed.
core::Result<void> CheckRedirectUri(std::string_view uri);
// Exact string match, except that a loopback http redirect matches on any port (RFC 8252 §7.3:
// native apps listen on an ephemeral port).
bool RedirectUriMatches(std::string_view registered, std::string_view requested);
bool RedirectUriAllowed(const OAuthClient& client, std::string_view requested);

// Whether a client_id is the https URL of a metadata document (has a path beyond "/").
bool IsMetadataDocumentUrl(std::string_view client_id);

// RFC 7591: validates the registration request; OAUTH_008 / OAUTH_009 on failure. The client
// gets a fresh id and, unless it asked for `none`, a secret.
core::Result<NewClient> ParseRegistration(const boost::json::value& body);
// The 201 body: the client's metadata with client_id, client_id_issued_at and the secret.
boost::json::object RegistrationResponse(const NewClient& registered, std::int64_t issued_at);

// A fetched metadata document for `url`: its client_id must be `url` exactly, and it needs
// client_name and redirect_uris; public clients only (no secrets). OAUTH_009 otherwise.
core::Result<OAuthClient> ParseMetadataDocument(std::string_view url, std::string_view document);

storage::OAuthClientRecord ToRecord(const OAuthClient& client, std::int64_t created_at,
                                    std::int64_t fetched_at);
core::Result<OAuthClient> FromRecord(const storage::OAuthClientRecord& record);

}  // namespace sightline::oauth
