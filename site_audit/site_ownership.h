// Proof that a project owns a site before ServiceAuditBot crawls it, checked by the server the way
// search consoles do: a file at /.well-known/sightline-verification.txt holding the token, a
// <meta name="sightline-site-verification" content="TOKEN"> on the home page, or a DNS TXT record
// "sightline-site-verification=TOKEN" on the host. Thread-safe.
#pragma once

#include <optional>
#include <string>

namespace sightline::detection {
class DnsResolver;
}

namespace sightline::site_audit {

class PageFetcher;

inline constexpr std::string_view kVerificationName = "sightline-site-verification";
inline constexpr std::string_view kVerificationPath = "/.well-known/sightline-verification.txt";

struct OwnershipCheck {
  std::optional<std::string> method;  // "file", "meta" or "dns" when proven
  std::string problem;                // what each way found, when none proved it
};

// `method`: "file", "meta", "dns" or "" for each in turn. `dns` may be null (DNS not tried).
OwnershipCheck CheckOwnership(const PageFetcher& fetcher, detection::DnsResolver* dns,
                              const std::string& origin, const std::string& token,
                              const std::string& method);

// A new verification token.
std::string NewVerificationToken();

}  // namespace sightline::site_audit
