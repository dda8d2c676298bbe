// Access tokens for user sessions: compact JWS (RFC 7515/7519) signed with HMAC-SHA-256 under a
// server secret that every node reads from the store. Claims: iss "sightline", sub (user id),
// sid (session id), typ ("access", or "2fa_setup" for the two-factor setup token), iat, exp.
// Pure functions; thread-safe.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace sightline::identity {

struct TokenClaims {
  std::string user_id;
  std::string session_id;
  std::string type;  // "access" or "2fa_setup"
  std::int64_t issued_at = 0;   // Unix seconds
  std::int64_t expires_at = 0;  // Unix seconds
};

std::string SignToken(const TokenClaims& claims, std::string_view secret);

// AUTH_001 when it is not a well-formed HS256 JWT of ours, AUTH_002 when the signature does not
// verify, AUTH_004 when it has expired at `now_seconds`.
core::Result<TokenClaims> VerifyToken(std::string_view token, std::string_view secret,
                                      std::int64_t now_seconds);

// Three base64url parts separated by dots: worth verifying as a JWT.
bool LooksLikeJwt(std::string_view token);

}  // namespace sightline::identity
