// gzip (RFC 1952) decoding for request bodies, via zlib.
#pragma once

#include "core/result.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace sightline::core {

// The inflated content of one or more concatenated gzip members. VAL_007 for data that is not
// gzip; VAL_004 when the output would exceed `max_output` bytes.
Result<std::string> Gunzip(std::string_view compressed, std::size_t max_output);

// gzip-compresses `data` (tests and tools).
std::string Gzip(std::string_view data);

}  // namespace sightline::core
