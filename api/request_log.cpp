#include "api/request_log.h"

#include "core/logging.h"

namespace sightline::api {

void LogAccess(const AccessRecord& r) {
  const core::LogLevel level = r.status >= 500 ? core::LogLevel::kError : core::LogLevel::kInfo;
  if (!core::LogEnabled(level)) return;  // every request passes here: build nothing for nobody
  boost::json::object fields{{"method", r.method},
                             {"route", r.route},
                             {"status", r.status},
                             {"durationUs", static_cast<std::int64_t>(r.duration_ms * 1000.0)},
                             {"requestId", r.request_id}};
  if (!r.credential_kind.empty()) fields["credential"] = r.credential_kind;
  if (!r.credential_id.empty()) fields["credentialId"] = r.credential_id;
  if (!r.error_code.empty()) fields["errorCode"] = r.error_code;
  if (!r.client_request_id.empty()) fields["clientRequestId"] = r.client_request_id;
  core::Log(level, "access", fields);
}

}  // namespace sightline::api
