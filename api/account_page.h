// The account security page (GET /account): sign in (password, second factor, or a passkey),
// then add, rename and remove passkeys. A static page whose script calls the REST API; it holds
// the access token in memory only. Exposes window.sightline for automation (the browser tests).
#pragma once

#include <string_view>

#include "core/http_types.h"

namespace sightline::api {

core::HttpResponse AccountPage(std::string_view nonce);

}  // namespace sightline::api
