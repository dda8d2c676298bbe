// The visitor's IP: the socket peer, unless the peer is a configured trusted proxy, in which
// case the first of CF-Connecting-IP, X-Forwarded-For (its left-most address), X-Real-IP and
// True-Client-IP that holds a valid address. A header from an untrusted peer is ignored, so
// nobody can claim another IP by sending one.
#pragma once

#include "core/http_types.h"
#include "core/ip_address.h"

#include <string>
#include <string_view>

namespace sightline::ingest {

std::string ClientIp(const core::HttpHeaders& headers, std::string_view peer,
                     const core::CidrList& trusted_proxies);

}  // namespace sightline::ingest
