// One structured access-log line per request. Paths are logged as route templates (so ids and
// slugs in URLs do not multiply log cardinality) and credentials only by their key id.
#pragma once

#include <cstdint>
#include <string_view>

namespace sightline::api {

struct AccessRecord {
  std::string_view method;
  std::string_view route;  // "/{orgSlug}/projects/{projectId}", or "(unmatched)"
  int status = 0;
  double duration_ms = 0;
  std::string_view request_id;
  std::string_view credential_kind;  // empty when anonymous
  std::string_view credential_id;    // a key's id, never its secret
  std::string_view error_code;       // the ErrorResponse code, when there is one
  std::string_view client_request_id;  // the caller's own X-Request-Id, if sane
};

void LogAccess(const AccessRecord& record);

}  // namespace sightline::api
