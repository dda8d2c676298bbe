// ServiceAuditBot's public face at the site's root: the Web Bot Auth key directory at
// /.well-known/http-message-signatures-directory (the Signature-Agent of every crawl request
// names this origin; the response is signed by each listed key, as the directory draft asks) and
// /bot, the page the crawler's User-Agent links to, telling site owners what it is, how to
// verify it and how to keep it out. Anonymous and readable from any site.
// Thread-safe: the service reads the keys from the store on each request.
#pragma once

#include "api/endpoint.h"

namespace sightline::site_audit {
class SiteAuditService;
}

namespace sightline::api {

inline constexpr std::string_view kKeyDirectoryPath =
    "/.well-known/http-message-signatures-directory";
inline constexpr std::string_view kBotPagePath = "/bot";

class BotEndpoint final : public Endpoint {
 public:
  explicit BotEndpoint(const site_audit::SiteAuditService& service) : service_(service) {}

  bool Claims(const Target& target) const override;
  std::optional<core::HttpResponse> Serve(const core::HttpRequest& request, const Target& target,
                                          const std::shared_ptr<Exchange>& exchange) override;

 private:
  core::HttpResponse KeyDirectory(const core::HttpRequest& request, Exchange& exchange) const;
  core::HttpResponse BotPage(Exchange& exchange) const;

  const site_audit::SiteAuditService& service_;
};

}  // namespace sightline::api
