// The demo's built-in sample site: a small outdoor-gear shop at https://outfitters.example that
// the demo project's site-audit crawl reads, through the real crawler and checks, without a
// network. It answers as core::HttpClient, so the crawler's PageFetcher reads it as it reads any
// site; it has what an audit should find (a robots.txt that blocks some AI crawlers, a sitemap
// naming a page no link reaches, llms.txt, a redirect, a broken link, a noindex page, product
// pages with JSON-LD, a page without a description). `.example` is reserved (RFC 2606), so the
// name can never be a real site. Stateless and thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/http_client.h"

namespace sightline::demo {

inline constexpr std::string_view kSampleOrigin = "https://outfitters.example";
inline constexpr std::string_view kSampleHost = "outfitters.example";

struct SamplePage {
  std::string path;
  std::string title;
  std::string description;  // "" for a page that lacks one
  std::string section;      // products, blog, guides, company
  bool in_sitemap = true;
  bool noindex = false;
  bool product = false;     // carries Product JSON-LD
  bool linked = true;       // false: only the sitemap names it
};

// Every page the site serves with 200, in the order of the site's navigation.
const std::vector<SamplePage>& SamplePages();

// The paths robots.txt keeps every crawler from, and the crawlers it keeps from the whole site.
const std::vector<std::string>& SampleDisallowedPaths();
const std::vector<std::string>& SampleBlockedCrawlers();

class SampleSite : public core::HttpClient {
 public:
  // `verification_token`: what /.well-known/sightline-verification.txt holds, so the audit
  // site's ownership is proven the way a customer proves theirs.
  explicit SampleSite(std::string verification_token);

  // Any other host fails as a refused connection would (SYS_002).
  core::Result<core::OutboundResponse> Send(const core::OutboundRequest& request,
                                            const core::OutboundLimits& limits,
                                            const core::BodyCallback& on_body,
                                            const std::function<bool()>& cancelled) override;

 private:
  std::string token_;
};

}  // namespace sightline::demo
