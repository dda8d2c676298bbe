#include "api/bot_endpoint.h"

#include <boost/json/parse.hpp>

#include "api/exchange.h"
#include "api/http_methods.h"
#include "site_audit/page_fetcher.h"
#include "site_audit/site_audit_service.h"

namespace sightline::api {
namespace {

using core::HttpRequest;
using core::HttpResponse;

const PathMethods kPublicDocument = ReadOnlyMethods(CorsPolicy::kPublic);

// Verifiers cache the directory; an hour keeps a rotation visible soon while staying well inside
// the response signatures' validity (site_audit::kDirectoryResponseValiditySeconds).
constexpr std::string_view kDirectoryCaching = "public, max-age=3600";

std::string HtmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string KeyList(std::string_view directory) {
  std::string items;
  boost::system::error_code ec;
  const auto parsed = boost::json::parse(directory, ec);
  if (ec || !parsed.is_object() || !parsed.as_object().contains("keys")) return items;
  for (const auto& key : parsed.at("keys").as_array()) {
    if (const auto* kid = key.as_object().if_contains("kid"); kid && kid->is_string()) {
      items += "<li><code>" + HtmlEscape(kid->as_string()) + "</code></li>";
    }
  }
  return items;
}

std::string BotPageHtml(std::string_view public_url, std::string_view key_items) {
  const std::string url = HtmlEscape(public_url);
  const std::string agent = HtmlEscape(site_audit::ServiceAuditBotUserAgent(public_url));
  return R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ServiceAuditBot</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
code,pre{background:#f3f4f6;border-radius:4px;padding:0 .25rem}pre{padding:.75rem;overflow:auto}</style>
</head><body>
<h1>ServiceAuditBot</h1>
<p>ServiceAuditBot is the site-audit crawler of the Sightline installation at <a href=")" +
         url + R"(">)" + url + R"(</a>. It fetches public pages of a website only after the
website's owner proved ownership to that installation (a file, a meta tag or a DNS TXT record),
and only to audit the site: status codes, links, redirects, canonicals, titles, structured data,
robots.txt, sitemaps and llms.txt.</p>
<h2>How to recognize it</h2>
<p>Its requests carry the User-Agent</p><pre>)" + agent + R"(</pre>
<p>and are signed with <a href="https://datatracker.ietf.org/doc/draft-meunier-web-bot-auth-architecture/">Web Bot Auth</a>
(HTTP Message Signatures, RFC 9421, Ed25519). The <code>Signature-Agent</code> header names
<code>)" + url + R"(</code>; its public keys are listed at
<a href=")" + url + std::string(kKeyDirectoryPath) + R"(">)" + url +
         std::string(kKeyDirectoryPath) + R"(</a>. Current key ids:</p>
<ul>)" + std::string(key_items) + R"(</ul>
<p>A request that names ServiceAuditBot without a valid signature is not from this installation.</p>
<h2>How it behaves</h2>
<ul><li>It reads <code>/robots.txt</code> first (RFC 9309) and obeys the group for
<code>ServiceAuditBot</code>, or <code>*</code>, including <code>Crawl-delay</code>.</li>
<li>It waits between requests to one host and sends no cookies or credentials.</li>
<li>On a re-crawl it asks with <code>If-None-Match</code> and <code>If-Modified-Since</code>.</li>
<li>It never fetches private or loopback addresses.</li></ul>
<h2>How to keep it out</h2>
<pre>User-agent: ServiceAuditBot
Disallow: /</pre>
</body></html>
)";
}

}  // namespace

bool BotEndpoint::Claims(const Target& target) const {
  return !target.api && (target.path == kKeyDirectoryPath || target.path == kBotPagePath);
}

std::optional<HttpResponse> BotEndpoint::Serve(const HttpRequest& request, const Target& target,
                                               const std::shared_ptr<Exchange>& exchange) {
  exchange->set_route(target.path);
  if (auto answered = AnswerMethod(request, kPublicDocument, *exchange)) return answered;
  return target.path == kKeyDirectoryPath ? KeyDirectory(request, *exchange)
                                          : BotPage(*exchange);
}

HttpResponse BotEndpoint::KeyDirectory(const HttpRequest& request, Exchange& exchange) const {
  auto directory = service_.KeyDirectory(request.headers.Get("Host").value_or(""));
  if (!directory) return exchange.Fail(directory.error());
  HttpResponse response;
  response.headers.Set("Content-Type", std::string(site_audit::kSignatureDirectoryMediaType));
  response.headers.Set("Cache-Control", std::string(kDirectoryCaching));
  response.headers.Set("Signature-Input", directory->headers.signature_input);
  response.headers.Set("Signature", directory->headers.signature);
  AddCors(CorsPolicy::kPublic, std::nullopt, response);
  response.body = std::move(directory->body);
  return response;
}

HttpResponse BotEndpoint::BotPage(Exchange& exchange) const {
  auto directory = service_.KeyDirectoryDocument();
  if (!directory) return exchange.Fail(directory.error());
  HttpResponse response;
  response.headers.Set("Content-Type", "text/html; charset=utf-8");
  response.headers.Set("Cache-Control", "public, max-age=3600");
  response.headers.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
  AddCors(CorsPolicy::kPublic, std::nullopt, response);
  response.body = BotPageHtml(service_.settings().public_url, KeyList(*directory));
  return response;
}

}  // namespace sightline::api
