#include "reports/visit_rules.h"

#include "core/text.h"
#include "core/url.h"

namespace sightline::reports {

std::string ReferrerDomain(std::string_view referrer, std::string_view channel,
                           std::span<const std::string> own_domains) {
  if (channel == "Direct") return {};
  const std::string host = core::HostOfUrl(core::TrimSpaces(referrer));
  if (host.empty() || core::IsLoopbackHost(host) || host.ends_with(".localhost")) return {};
  if (core::IsWithinDomains(host, own_domains)) return {};
  return core::SiteHost(host);
}

}  // namespace sightline::reports
