// The composition root of `sightline serve`: every object of the server, held as members in
// construction order. A member is declared after everything it uses, so construction follows
// the dependencies and destruction, in reverse, never leaves a member holding a reference to a
// destroyed one. Background work (range refreshes, rollups) is declared last: it starts once
// everything it reaches exists and stops first.
//
// Everything that can fail (opening the store, listening, reading certificates, choosing a
// provider) happens in Start, before the first member is built; constructing the members
// themselves cannot fail. Not thread-safe: one thread starts and runs it.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "agent/assistant.h"
#include "agent/visibility_runner.h"
#include "api/authorize_endpoint.h"
#include "api/bot_endpoint.h"
#include "api/dashboard_endpoint.h"
#include "api/documents_endpoint.h"
#include "api/front_door.h"
#include "api/mcp_endpoint.h"
#include "api/oauth_endpoint.h"
#include "api/operations_endpoint.h"
#include "api/rate_limits.h"
#include "api/sdk_script.h"
#include "net/dns_resolver.h"
#include "net/http_client.h"
#include "net/http_server.h"
#include "net/https_fetcher.h"
#include "app/periodic_task.h"
#include "app/range_refresh.h"
#include "app/serve_config.h"
#include "app/serve_hooks.h"
#include "site_audit/crawl_runner.h"
#include "site_audit/site_audit_service.h"
#include "core/sealed_box.h"
#include "detection/geo.h"
#include "detection/ip_ranges.h"
#include "detection/request_classifier.h"
#include "detection/reverse_dns.h"
#include "detection/signature_directory.h"
#include "identity/authenticator.h"
#include "identity/passkeys.h"
#include "identity/rate_limiter.h"
#include "identity/sessions.h"
#include "ingest/event_writer.h"
#include "ingest/ingest_service.h"
#include "mcp/extension.h"
#include "mcp/mcp_server.h"
#include "mcp/tool_catalog.h"
#include "oauth/authorization_server.h"
#include "oauth/device_login.h"
#include "tools/dispatch.h"
#include "tools/gate.h"
#include "tools/registry.h"
#include "tools/services.h"

namespace sightline::app {

// What Start prepares before the first member is built (server.cpp).
struct ServerFoundations;

class Server {
 public:
  // Opens the store (migrating it), listens, and builds the server; the first failure, naming
  // the option at fault where there is one. `hooks` are a test-only server's (none for
  // `sightline serve`); used while building, not kept.
  static core::Result<std::unique_ptr<Server>> Start(ServeConfig config, const ServeHooks& hooks);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Serves until SIGTERM or SIGINT, then ends running answers, pending fetches and the
  // writer's queue, in that order. The process exit code.
  int Run();

 private:
  Server(ServeConfig config, ServerFoundations& foundations, const ServeHooks& hooks);
  void LogReady() const;
  // Hands ServiceAuditBot's published keys to detection for the installation's own origin, so
  // forwarded requests of its crawls verify without fetching our own directory (again each
  // crawl round: another node may have rotated the key).
  void PinOwnCrawlerKeys();

  const ServeConfig config_;
  const std::shared_ptr<const core::Clock> clock_owner_;  // the hooks' clock, else the system's
  const core::Clock& clock_;
  // What Start prepared (each may have failed there).
  std::unique_ptr<storage::Store> store_;
  tools::Registry registry_;
  std::unique_ptr<net::AresResolver> resolver_;  // reverse DNS and the fetchers' host names
  std::unique_ptr<net::HttpsFetcher> directory_fetcher_;  // Web Bot Auth key directories
  std::unique_ptr<net::HttpsFetcher> range_fetcher_;      // vendors' IP-range lists
  std::unique_ptr<net::HttpsFetcher> client_fetcher_;     // OAuth client metadata documents
  // Outbound HTTP(S): AI engines, the assistant's provider and ServiceAuditBot.
  std::unique_ptr<net::BeastHttpClient> llm_client_;
  std::unique_ptr<net::HttpServer> http_;  // listening already
  const std::string address_;                    // host:port listened on
  const std::string public_url_;  // where people open the dashboard
  const std::string api_url_;     // the API base: the public URL + /api
  // Detection and ingestion.
  std::unique_ptr<detection::GeoDatabase> geo_;  // null: no geolocation
  detection::LiveRanges live_ranges_;
  detection::SignatureDirectory signature_keys_;
  detection::ReverseDnsVerifier reverse_dns_;
  const detection::RequestClassifier classifier_;
  ingest::EventWriter writer_;
  ingest::IngestService ingestion_;
  // Identity and the operations.
  identity::SessionService sessions_;
  identity::PasskeyService passkeys_;
  // Names the assistant below: the dispatcher reaches it only when serving, once it exists.
  std::unique_ptr<core::SealedBox> ai_keys_;  // null: no --encryption-key-file
  site_audit::SiteAuditService site_audit_;          // ownership checks, the crawler's keys
  tools::Services services_;
  tools::Dispatcher dispatcher_;
  identity::Authenticator authenticator_;
  identity::RateLimiter credential_limits_;
  identity::RateLimiter public_limits_;
  const mcp::ToolCatalog tool_catalog_;
  oauth::AuthorizationServer authorization_server_;  // MCP grants and command-line logins
  oauth::DeviceLogin device_login_;  // command-line logins (its grants are the server's above)
  // Who is calling, for every way in below.
  tools::Gate gate_;
  agent::AssistantService assistant_;
  // The ways in.
  std::unique_ptr<const mcp::McpExtension> mcp_extension_;  // a test-only server's, or null
  mcp::McpServer mcp_server_;
  std::optional<api::SdkScript> sdk_script_;
  // The front door and its endpoint modules, in the order it asks them.
  api::RateLimits rate_limits_;
  api::DocumentsEndpoint documents_;  // OpenAPI, health, the static-asset table
  api::BotEndpoint bot_;              // /bot and ServiceAuditBot's key directory
  api::DashboardEndpoint dashboard_;  // the site at /, but /.well-known
  api::McpEndpoint mcp_endpoint_;
  api::OAuthEndpoint oauth_endpoint_;
  api::AuthorizeEndpoint authorize_endpoint_;
  api::OperationsEndpoint operations_;  // claims every path: asked last
  api::FrontDoor front_door_;
  // Background work, last.
  RangeRefresher range_refresher_;
  PeriodicTask rollups_;
  PeriodicTask sealing_;  // inbox events into the compact store's blocks
  agent::VisibilityRunner visibility_runner_;
  PeriodicTask ai_visibility_;  // scheduled runs and queued answers
  site_audit::CrawlRunner crawl_runner_;
  PeriodicTask site_audit_crawls_;  // claims queued crawls for crawl_runner_
};

}  // namespace sightline::app
