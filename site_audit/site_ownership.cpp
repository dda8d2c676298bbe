#include "site_audit/site_ownership.h"

#include <condition_variable>
#include <memory>
#include <mutex>

#include "site_audit/crawl_url.h"
#include "site_audit/html_document.h"
#include "site_audit/page_fetcher.h"
#include "core/crypto.h"
#include "core/text.h"
#include "detection/reverse_dns.h"

namespace sightline::site_audit {
namespace {

bool Mentions(std::string_view text, const std::string& token) {
  for (const std::string& line : core::SplitList(text, '\n')) {
    std::string_view value = core::TrimSpaces(line);
    const std::string prefix = std::string(kVerificationName) + "=";
    if (value.substr(0, prefix.size()) == prefix) value.remove_prefix(prefix.size());
    if (core::ConstantTimeEquals(core::TrimSpaces(value), token)) return true;
  }
  return false;
}

std::string ByFile(const PageFetcher& fetcher, const std::string& origin,
                   const std::string& token) {
  FetchResult answer = fetcher.Fetch({.url = origin + std::string(kVerificationPath)}, {});
  if (answer.status == 0) return "the file could not be fetched (" + answer.error + ")";
  if (answer.status != 200) return "the file answered " + std::to_string(answer.status);
  return Mentions(answer.body, token) ? "" : "the file does not hold the token";
}

std::string ByMeta(const PageFetcher& fetcher, const std::string& origin,
                   const std::string& token) {
  FetchResult answer = fetcher.Fetch({.url = origin + "/"}, {});
  if (answer.status != 200) return "the home page answered " + std::to_string(answer.status);
  for (const auto& [name, content] : ParseHtml(answer.body).metas) {
    if (name == kVerificationName && Mentions(content, token)) return "";
  }
  return "the home page has no matching meta tag";
}

std::string ByDns(detection::DnsResolver* dns, const std::string& origin,
                  const std::string& token) {
  if (dns == nullptr) return "DNS is not available";
  std::string host = UrlAuthority(origin + "/");
  if (const std::size_t colon = host.rfind(':'); colon != std::string::npos) host.resize(colon);
  struct Wait {
    std::mutex mutex;
    std::condition_variable ready;
    std::optional<detection::DnsAnswer> answer;
  };
  auto wait = std::make_shared<Wait>();
  dns->Text(host, [wait](detection::DnsAnswer answer) {
    std::lock_guard lock(wait->mutex);
    wait->answer = std::move(answer);
    wait->ready.notify_all();
  });
  std::unique_lock lock(wait->mutex);
  if (!wait->ready.wait_for(lock, std::chrono::seconds(10), [&] { return wait->answer.has_value(); })) {
    return "the DNS lookup timed out";
  }
  for (const std::string& value : wait->answer->values) {
    if (Mentions(value, token)) return "";
  }
  return "no TXT record of " + host + " holds the token";
}

}  // namespace

OwnershipCheck CheckOwnership(const PageFetcher& fetcher, detection::DnsResolver* dns,
                              const std::string& origin, const std::string& token,
                              const std::string& method) {
  OwnershipCheck check;
  std::vector<std::string> problems;
  for (const char* way : {"file", "meta", "dns"}) {
    if (!method.empty() && method != way) continue;
    const std::string problem = std::string(way) == "file"   ? ByFile(fetcher, origin, token)
                                : std::string(way) == "meta" ? ByMeta(fetcher, origin, token)
                                                             : ByDns(dns, origin, token);
    if (problem.empty()) {
      check.method = way;
      return check;
    }
    problems.push_back(std::string(way) + ": " + problem);
  }
  check.problem = core::JoinStrings(problems, "; ");
  return check;
}

std::string NewVerificationToken() { return "sl-" + core::RandomBase62(32); }

}  // namespace sightline::site_audit
