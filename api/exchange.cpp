#include "api/exchange.h"

#include <cstring>
#include <random>

#include "api/error_response.h"
#include "api/http_methods.h"
#include "api/request_log.h"
#include "core/crypto.h"
#include "core/logging.h"
#include "core/text.h"

namespace sightline::api {
namespace {

// A caller's own X-Request-Id, when it is a sane token, is logged beside ours (so a proxy's id
// can be followed) but never replaces it: request ids in the audit log are the server's.
std::string ClientRequestId(const core::HttpRequest& request) {
  const auto given = request.headers.Get("X-Request-Id");
  if (!given) return {};
  const bool sane = !given->empty() && given->size() <= 128 &&
                    given->find_first_not_of(
                        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
                        "WXYZ0123456789-_.:") == std::string_view::npos;
  return sane ? std::string(*given) : std::string();
}

}  // namespace

std::shared_ptr<Exchange> Exchange::Begin(const core::HttpRequest& request, core::Responder respond,
                                          const core::Clock& clock) {
  std::shared_ptr<Exchange> exchange(new Exchange(clock));
  exchange->started_ = std::chrono::steady_clock::now();
  exchange->request_id_ = NewRequestId();
  exchange->method_name_ = request.method_name;
  exchange->client_request_id_ = ClientRequestId(request);
  exchange->respond_ = std::move(respond);
  return exchange;
}

// Request ids only need to be unique, not unguessable: a per-thread generator seeded from the
// system's randomness is an order of magnitude cheaper than asking OpenSSL each time.
std::string Exchange::NewRequestId() {
  thread_local std::mt19937_64 generator = [] {
    const std::string seed = core::RandomBytes(32);
    std::seed_seq sequence(seed.begin(), seed.end());
    return std::mt19937_64(sequence);
  }();
  const std::uint64_t high = generator();
  const std::uint32_t low = static_cast<std::uint32_t>(generator());
  std::string bytes(12, '\0');
  std::memcpy(bytes.data(), &high, sizeof high);
  std::memcpy(bytes.data() + sizeof high, &low, sizeof low);
  return core::HexEncode(bytes);
}

void Exchange::set_credential(const identity::Principal& principal) {
  credential_kind_ = identity::CredentialKindName(principal.kind);
  credential_id_ = principal.credential_id;
}

tools::RequestMeta Exchange::MetaOf(const core::HttpRequest& request) const {
  tools::RequestMeta meta{request_id_, request.remote_address, std::nullopt, &request.headers};
  if (auto agent = request.headers.Get("User-Agent")) meta.user_agent = std::string(*agent);
  return meta;
}

void Exchange::NoteFailure(const core::Error& error) {
  error_code_ = std::string(error.info().id);
  if (error.code() == core::ErrorCode::kInternal || !error.internal().empty()) {
    core::Log(
        error.code() == core::ErrorCode::kInternal ? core::LogLevel::kError : core::LogLevel::kWarn,
        "request failed",
        {{"requestId", request_id_}, {"code", error.info().id}, {"internal", error.internal()}});
  }
}

core::HttpResponse Exchange::Fail(const core::Error& error) {
  NoteFailure(error);
  return RenderErrorResponse(error, clock_.NowMillis(), request_id_);
}

core::HttpResponse Exchange::FailOAuth(const core::Error& error) {
  NoteFailure(error);
  return RenderOAuthError(error);
}

void Exchange::AddDeprecationHeaders(const tools::OperationSpec& spec,
                                     core::HttpResponse& response) {
  if (!spec.deprecation) return;
  response.headers.Set("Deprecation", "@" + std::to_string(spec.deprecation->announced_unix));
  response.headers.Set("Sunset", core::FormatHttpDate(spec.deprecation->sunset_unix));
  response.headers.Set("Link", "<" + std::string(spec.deprecation->notes_url) +
                                   ">; rel=\"deprecation\"; type=\"text/html\"");
}

void Exchange::Finish(core::HttpResponse response) {
  if (finished_.exchange(true)) return;  // answered already
  response.headers.Set("X-Request-Id", request_id_);
  if (operation_) AddDeprecationHeaders(*operation_, response);
  if (operation_ && operation_->browser_cors) AddCors(CorsPolicy::kPublic, std::nullopt, response);
  const double elapsed_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_)
          .count();
  LogAccess({method_name_, route_, response.status, elapsed_ms, request_id_, credential_kind_,
             credential_id_, error_code_, client_request_id_});
  respond_(std::move(response));
}

}  // namespace sightline::api
