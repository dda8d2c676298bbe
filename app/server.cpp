#include "app/server.h"

#include "api/embedded_assets.h"
#include "app/commands.h"
#include "app/event_sealing.h"
#include "app/rollup_refresh.h"
#include "core/crypto.h"
#include "core/logging.h"
#include "core/text.h"
#include "core/url.h"
#include "core/version.h"
#include "detection/bot_catalog.h"
#include "features/all_operations.h"
#include "mcp/discovery.h"

namespace sightline::app {
namespace {

using core::Error;
using core::Result;

mcp::ServerIdentity McpIdentity() {
  mcp::ServerIdentity identity;
  identity.version = std::string(core::kServerVersion);
  identity.instructions =
      "Sightline answers questions about one project's web analytics (visitors, pages, "
      "sources, countries, devices) and crawler analytics (which bots and AI crawlers fetch "
      "which pages, verified or spoofed). Reports take from/to dates in the project's reporting "
      "timezone and compare with the previous period by default.";
  return identity;
}

std::vector<std::string> CatalogListIds() {
  std::vector<std::string> ids;
  for (const auto& source : CatalogRangeSources(detection::BotCatalog::Builtin(), "")) {
    ids.push_back(source.list_id);
  }
  return ids;
}

// What a command-line login may be consented: everything but the account's own settings
// (password, second factors, sessions and connected clients stay with the browser session).
identity::PermissionSet CliGrantablePermissions() {
  identity::PermissionSet permissions = identity::PermissionSet::All();
  permissions.Remove(identity::Permission::kAccount);
  permissions.Remove(identity::Permission::kPublic);
  return permissions;
}

// Where a command-line login started, from the IP geolocation database when there is one.
oauth::PlaceOf PlaceOf(const detection::GeoDatabase* geo) {
  if (geo == nullptr) return {};
  return [geo](std::string_view ip) -> std::optional<oauth::LoginPlace> {
    const auto place = geo->Lookup(ip);
    if (!place) return std::nullopt;
    return oauth::LoginPlace{place->country, place->region, place->city};
  };
}

// Passkeys are bound to a host name: the public URL's, or localhost when the server is reached
// on a loopback address (browsers treat http://localhost as a secure origin).
identity::PasskeySettings PasskeySettingsFor(const ServeConfig& config,
                                             const std::string& public_url) {
  identity::PasskeySettings settings;
  settings.rp_id = config.passkey_rp_id;
  settings.origins = config.passkey_origins;
  const auto parts = core::SplitUrl(public_url);
  if (!parts) return settings;
  const bool loopback = core::IsLoopbackHost(parts->host);
  if (settings.rp_id.empty()) settings.rp_id = loopback ? "localhost" : parts->host;
  if (settings.origins.empty()) {
    settings.origins.push_back(core::OriginOf(public_url));
    if (loopback && parts->host != "localhost") {
      settings.origins.push_back(parts->scheme + "://localhost" +
                                 (parts->port.empty() ? "" : ":" + parts->port));
    }
  }
  return settings;
}

std::unique_ptr<detection::GeoDatabase> OpenGeo(const std::string& path) {
  auto opened = detection::GeoDatabase::Open(path);
  if (!opened) {
    core::Log(core::LogLevel::kWarn, "geolocation disabled: no database", {{"path", path}});
    return nullptr;
  }
  core::Log(core::LogLevel::kInfo, "geolocation ready",
            {{"path", path}, {"files", static_cast<std::int64_t>((*opened)->files().size())}});
  return std::move(*opened);
}

// The API's static-asset table: the tracking script's routes (the dashboard has its own).
api::StaticAssetTable StaticAssets(const api::SdkScript* script) {
  api::StaticAssetTable table;
  api::AddSdkScript(script, table);
  return table;
}

// The MCP Apps views compiled into the binary (web/dashboard/src/mcp-app), and the report tools
// each renders.
mcp::AppViews EmbeddedAppViews() {
  std::vector<mcp::AppViewSource> views;
  if (const api::EmbeddedAsset* reports = api::FindEmbeddedAsset("ui://sightline/reports.html")) {
    views.push_back({.name = "reports",
                     .title = "Sightline report",
                     .description = "Web analytics, crawler analytics and AI visibility as charts "
                                    "and tables, with the period and its comparison adjustable; "
                                    "a site audit's summary by severity; a query's rows as a "
                                    "table.",
                     .html = std::string(reports->body),
                     .digest_hex = core::HexEncode(reports->sha384),
                     .tools = {"get_web_analytics", "get_web_timeline", "get_web_breakdown",
                               "get_bot_timeline", "get_top_bots", "get_ai_visibility",
                               "get_ai_visibility_loop", "get_site_audit_summary", "query"}});
  }
  return mcp::AppViews(std::move(views));
}

std::string ApiUrlOf(const std::string& public_url) {
  std::string base = public_url;
  while (base.ends_with('/')) base.pop_back();
  return base + std::string(api::kApiBase);
}

std::optional<api::SdkScript> LoadScript(const std::string& override_path) {
  auto loaded =
      override_path.empty() ? api::EmbeddedSdkScript() : api::LoadSdkScript(override_path);
  if (!loaded) {
    core::Log(core::LogLevel::kWarn, "tracking script not served",
              {{"reason", loaded.error().message()}});
    return std::nullopt;
  }
  core::Log(core::LogLevel::kInfo, "tracking script ready",
            {{"url", std::string(api::kApiBase) + loaded->versioned_path},
             {"integrity", loaded->integrity},
             {"bytes", static_cast<std::int64_t>(loaded->body.size())}});
  return std::move(*loaded);
}

// Engines are configured by project members, not the operator: unless the operator allows
// private addresses, a call may only reach public ones.
agent::VisibilityRunnerSettings VisibilityRunnerSettingsFor(const ServeConfig& config) {
  agent::VisibilityRunnerSettings settings;
  settings.limits = config.llm.limits;
  settings.limits.public_only = !config.ai_engines_private_urls;
  return settings;
}

site_audit::SiteAuditSettings SiteAuditSettingsFor(const ServeConfig& config,
                                              const std::string& public_url) {
  site_audit::SiteAuditSettings settings;
  settings.public_url = public_url;
  settings.limits.public_only = !config.audit_private_addresses;
  settings.ai_crawlers = site_audit::AiCrawlersOf(detection::BotCatalog::Builtin());
  return settings;
}

site_audit::CrawlRunnerOptions CrawlRunnerOptionsFor(const site_audit::SiteAuditSettings& settings,
                                                const ServeConfig& config) {
  return {.public_url = settings.public_url,
          .limits = settings.limits,
          .max_crawls = config.audit_crawls,
          .ai_crawlers = settings.ai_crawlers};
}

}  // namespace

// Everything that can fail, done before the first member of Server is built.
struct ServerFoundations {
  std::unique_ptr<storage::Store> store;
  tools::Registry registry;
  std::shared_ptr<const detection::VendorRanges> ranges;
  std::unique_ptr<net::AresResolver> resolver;
  std::unique_ptr<net::HttpsFetcher> directory_fetcher, range_fetcher, client_fetcher;
  std::unique_ptr<net::BeastHttpClient> llm_client;
  std::unique_ptr<agent::LlmProvider> provider;  // null: the assistant is off
  std::string signing_secret;
  std::unique_ptr<core::SealedBox> ai_keys;
  std::unique_ptr<net::HttpServer> http;
  std::string address;  // host:port listened on, [host]:port for IPv6
  std::string public_url;
};

namespace {

// The most requests of one credential a node takes from its shared window per store write
// (identity::RateLimitPolicy::max_slice).
constexpr std::int64_t kRateSlice = 64;

Result<void> OpenStorage(const ServeConfig& config, ServerFoundations& out) {
  auto store = storage::OpenStore(config.store);
  if (!store) return store.error();
  if (auto migrated = (*store)->Migrate(); !migrated) return migrated.error();
  out.store = std::move(*store);
  auto registry = tools::Registry::Build(tools::AllOperations(), tools::AllSchemaDocuments());
  if (!registry) return registry.error();
  out.registry = std::move(*registry);
  auto ranges = LoadRanges(*out.store, config.bot_ranges_dir, CatalogListIds());
  if (!ranges) return ranges.error();
  core::Log(core::LogLevel::kInfo, "bot ip ranges loaded",
            {{"lists", static_cast<std::int64_t>((*ranges)->loaded())}});
  out.ranges = std::move(*ranges);
  core::SystemClock clock;
  auto secret = identity::SessionService::LoadSigningSecret(*out.store, clock);
  if (!secret) return secret.error();
  out.signing_secret = std::move(*secret);
  if (!config.encryption_key_file.empty()) {
    auto keys = config.create_encryption_key
                    ? core::SealedBox::LoadOrCreateKeyFile(config.encryption_key_file)
                    : core::SealedBox::FromKeyFile(config.encryption_key_file);
    if (!keys) return Error::Invalid("encryption-key-file", "--" + keys.error().message());
    out.ai_keys = std::make_unique<core::SealedBox>(std::move(*keys));
  }
  return {};
}

// The three fetchers differ in who chooses their URLs: key directories and client metadata
// documents come from anyone's requests, so they are fetched defensively; range lists come from
// the catalog or the operator, so any address is allowed.
Result<void> OpenFetchers(const ServeConfig& config, ServerFoundations& out) {
  net::HttpsFetcherOptions directories{
      .allow_private_addresses = config.signature_directory_private,
      .ca_file = config.outbound_ca,
      .media_types = {"application/http-message-signatures-directory+json", "application/json",
                      "application/jwk-set+json"},
      .resolver = out.resolver.get()};
  net::HttpsFetcherOptions ranges{.allow_private_addresses = true,
                                  .ca_file = config.outbound_ca,
                                  .timeout = std::chrono::seconds(30),
                                  .max_bytes = 8 * 1024 * 1024,
                                  .resolver = out.resolver.get()};
  net::HttpsFetcherOptions clients{.allow_private_addresses = config.client_metadata_private,
                                   .ca_file = config.outbound_ca,
                                   .max_bytes = 16 * 1024,
                                   .media_types = {"application/json"},
                                   .resolver = out.resolver.get()};
  try {
    out.directory_fetcher = std::make_unique<net::HttpsFetcher>(directories);
    out.range_fetcher = std::make_unique<net::HttpsFetcher>(ranges);
    out.client_fetcher = std::make_unique<net::HttpsFetcher>(clients);
    out.llm_client = std::make_unique<net::BeastHttpClient>(
        net::HttpClientOptions{.ca_file = config.outbound_ca,
                               .resolver = out.resolver.get(),
                               .user_agent = "Sightline/" + std::string(core::kServerVersion)});
  } catch (const std::exception&) {
    return Error::Invalid("outbound-ca", "--outbound-ca: '" + config.outbound_ca +
                                             "' is not a readable PEM certificate file.");
  }
  return {};
}

Result<void> OpenOutbound(const ServeConfig& config, ServerFoundations& out) {
  auto resolver = net::AresResolver::Create(config.dns_server);
  if (!resolver) return resolver.error();
  out.resolver = std::move(*resolver);
  if (auto fetchers = OpenFetchers(config, out); !fetchers) return fetchers.error();
  if (!config.llm.provider.empty()) {
    out.provider = agent::MakeProvider(config.llm, *out.llm_client);
    if (!out.provider) {
      return Error::Invalid("llm-provider", "--llm-provider must be openai or anthropic.");
    }
  }
  return {};
}

Result<void> OpenListener(const ServeConfig& config, ServerFoundations& out) {
  out.http = std::make_unique<net::HttpServer>(config.limits);
  auto bound = out.http->Listen(config.listen.host, config.listen.port);
  if (!bound) return bound.error();
  const std::string& host = config.listen.host;
  out.address = (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" +
                std::to_string(out.http->port());
  out.public_url = config.public_url.empty() ? "http://" + out.address : config.public_url;
  return {};
}

}  // namespace

Result<std::unique_ptr<Server>> Server::Start(ServeConfig config, const ServeHooks& hooks) {
  ServerFoundations foundations;
  for (auto step : {OpenStorage, OpenOutbound, OpenListener}) {
    if (auto done = step(config, foundations); !done) return done.error();
  }
  return std::unique_ptr<Server>(new Server(std::move(config), foundations, hooks));
}

Server::Server(ServeConfig config, ServerFoundations& f, const ServeHooks& hooks)
    : config_(std::move(config)),
      clock_owner_(hooks.clock ? hooks.clock : std::make_shared<const core::SystemClock>()),
      clock_(*clock_owner_),
      store_(std::move(f.store)),
      registry_(std::move(f.registry)),
      resolver_(std::move(f.resolver)),
      directory_fetcher_(std::move(f.directory_fetcher)),
      range_fetcher_(std::move(f.range_fetcher)),
      client_fetcher_(std::move(f.client_fetcher)),
      llm_client_(std::move(f.llm_client)),
      http_(std::move(f.http)),
      address_(std::move(f.address)),
      public_url_(std::move(f.public_url)),
      api_url_(ApiUrlOf(public_url_)),
      geo_(OpenGeo(config_.geoip)),
      live_ranges_(std::move(f.ranges)),
      signature_keys_(directory_fetcher_.get(), clock_),
      reverse_dns_(resolver_.get(), clock_),
      // ServiceAuditBot, this installation's crawler, signs as the installation's public origin.
      classifier_(detection::BotCatalog::Builtin(),
                  {.ranges = &live_ranges_,
                   .signatures = &signature_keys_,
                   .reverse_dns = &reverse_dns_,
                   .own_signer = detection::UrlOrigin(public_url_).value_or("")}),
      writer_(*store_, {.max_queued_rows = config_.ingest_queue_rows}),
      ingestion_(clock_, writer_, {config_.trusted_proxies, geo_.get(), &classifier_}),
      sessions_(*store_, clock_, std::move(f.signing_secret)),
      passkeys_(*store_, clock_, PasskeySettingsFor(config_, public_url_)),
      ai_keys_(std::move(f.ai_keys)),
      site_audit_(*store_, *llm_client_, resolver_.get(), ai_keys_.get(), clock_,
                  SiteAuditSettingsFor(config_, public_url_)),
      services_{sessions_,        &ingestion_,   &assistant_,
                &passkeys_,       &device_login_, config_.changed_days(),
                ai_keys_.get(),   config_.ai_engines_private_urls, &site_audit_},
      dispatcher_(*store_, clock_, services_),
      authenticator_(*store_),
      // A credential's window is hit by every request it makes: busy ones claim it in slices.
      credential_limits_(*store_, clock_, {"per-minute", config_.rate_limit, 60, kRateSlice}),
      public_limits_(*store_, clock_, {"per-minute-per-ip", config_.public_rate_limit, 60}),
      tool_catalog_(registry_, EmbeddedAppViews()),
      authorization_server_(*store_, clock_, client_fetcher_.get(),
                            {.issuer = mcp::AuthorizationServerIssuer(api_url_),
                             .resource = mcp::McpResourceUrl(api_url_),
                             .grantable = tool_catalog_.GrantablePermissions(),
                             .cli_resource = api_url_,
                             .cli_grantable = CliGrantablePermissions(),
                             .access_ttl = config_.oauth_access_ttl}),
      device_login_(*store_, clock_, authorization_server_, PlaceOf(geo_.get()),
                    {.verification_uri = public_url_ + "/cli", .ttl = config_.cli_login_ttl}),
      gate_({dispatcher_, authenticator_, sessions_, &authorization_server_, credential_limits_,
             public_limits_}),
      assistant_(std::move(f.provider), config_.assistant, gate_, registry_, *store_, clock_),
      mcp_extension_(hooks.mcp_extension ? hooks.mcp_extension() : nullptr),
      mcp_server_(tool_catalog_, gate_, *store_, clock_, McpIdentity(), mcp_extension_.get()),
      sdk_script_(LoadScript(config_.sdk_script)),
      rate_limits_(gate_, config_.trusted_proxies),
      documents_(registry_, {.server_url = api_url_},
                 StaticAssets(sdk_script_ ? &*sdk_script_ : nullptr)),
      bot_(site_audit_),
      mcp_endpoint_(mcp_server_, &authorization_server_, gate_, rate_limits_,
                    {.api_url = api_url_,
                     .allowed_origins = config_.mcp_allowed_origins,
                     .anonymous = hooks.anonymous_mcp}),
      oauth_endpoint_(authorization_server_, rate_limits_),
      authorize_endpoint_(authorization_server_, sessions_, passkeys_, rate_limits_, api_url_),
      operations_(registry_, gate_, rate_limits_),
      front_door_({&documents_, &mcp_endpoint_, &oauth_endpoint_, &authorize_endpoint_,
                   &operations_, &bot_, &dashboard_},
                  clock_),
      range_refresher_(
          *range_fetcher_, *store_, clock_,
          CatalogRangeSources(detection::BotCatalog::Builtin(), config_.bot_ranges_mirror),
          config_.bot_ranges_dir, CatalogListIds(), live_ranges_, config_.bot_ranges_refresh),
      rollups_(config_.rollup_interval, /*first_at_start=*/false,
               [this](const std::atomic<bool>&) { RefreshMarkedRollups(*store_); }),
      sealing_(config_.seal_after < std::chrono::minutes(1) ? std::chrono::seconds(1)
                                                           : std::chrono::seconds(60),
               /*first_at_start=*/true,
               [this](const std::atomic<bool>& stopping) {
                 SealInboxEvents(*store_, clock_, config_.seal_after, stopping);
               }),
      visibility_runner_(*store_, clock_, *llm_client_, ai_keys_.get(),
                         VisibilityRunnerSettingsFor(config_)),
      ai_visibility_(config_.ai_visibility_interval, /*first_at_start=*/true,
                     [this](const std::atomic<bool>& stopping) {
                       visibility_runner_.RunRound(stopping);
                     }),
      crawl_runner_(*store_, *llm_client_, ai_keys_.get(), clock_,
                    CrawlRunnerOptionsFor(site_audit_.settings(), config_)),
      site_audit_crawls_(config_.audit_interval, /*first_at_start=*/true,
                         [this](const std::atomic<bool>&) {
                           PinOwnCrawlerKeys();
                           crawl_runner_.Poll();
                         }) {
  PinOwnCrawlerKeys();
  if (const tools::AssistantStatus status = assistant_.Status(); status.configured) {
    core::Log(core::LogLevel::kInfo, "agent assistant ready",
              {{"provider", status.provider}, {"model", status.model}});
  }
}

Server::~Server() = default;

void Server::PinOwnCrawlerKeys() {
  const auto origin = detection::UrlOrigin(public_url_);
  auto directory = site_audit_.KeyDirectoryDocument();
  if (!origin || !directory) return;  // the store is down: the next round tries again
  auto keys = detection::ParseSignatureDirectory(*directory);
  if (keys) signature_keys_.Add(*origin, std::move(*keys));
}

void Server::LogReady() const {
  core::Log(core::LogLevel::kInfo, "ready",
            {{"listen", address_},
             {"port", http_->port()},
             {"storage", store_->backend_name()},
             {"schemaVersion", storage::Store::LatestSchemaVersion()},
             {"operations", registry_.operations().size()},
             {"threads", config_.limits.threads},
             {"workers", config_.limits.workers}});
}

int Server::Run() {
  LogReady();
  http_->OnShutdown([this] { assistant_.StopAnswers(); });
  http_->Run(front_door_);
  assistant_.Shutdown();  // running answers end while the handler their callbacks reach exists
  crawl_runner_.Stop();   // running crawls give their leases up for the next node to resume
  // A client metadata fetch still pending is answered now, while authorization_server_ (which
  // its callback reaches) exists; the other fetchers' callbacks hold shared state.
  client_fetcher_->Stop();
  writer_.Stop();  // commits whatever was accepted before the last connection closed
  core::Log(core::LogLevel::kInfo, "stopped");
  core::FlushLogs();
  return 0;
}

}  // namespace sightline::app
