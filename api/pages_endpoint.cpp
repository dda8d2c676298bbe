#include "api/pages_endpoint.h"

#include "api/account_page.h"
#include "api/exchange.h"
#include "api/http_methods.h"
#include "core/crypto.h"

namespace sightline::api {
namespace {

constexpr std::string_view kAccountPath = "/account";

const PathMethods kPageMethods = ReadOnlyMethods(CorsPolicy::kNone);

}  // namespace

bool PagesEndpoint::Claims(std::string_view path) const { return path == kAccountPath; }

std::optional<core::HttpResponse> PagesEndpoint::Serve(const core::HttpRequest& request,
                                                       std::string_view,
                                                       const std::shared_ptr<Exchange>& exchange) {
  exchange->set_route(kAccountPath);
  if (auto answered = AnswerMethod(request, kPageMethods, *exchange)) return answered;
  return AccountPage(core::HexEncode(core::RandomBytes(16)));  // the page's CSP nonce
}

}  // namespace sightline::api
