// `sightline serve`: the composition root of the server. Builds every object once and passes
// references down; nothing below app/ constructs its own dependencies.
#include "api/openapi.h"
#include "api/rest_handler.h"
#include "agent/assistant.h"
#include "api/transport/http_client.h"
#include "api/transport/https_fetcher.h"
#include "api/transport/dns_resolver.h"
#include "api/transport/http_server.h"
#include "app/commands.h"
#include "app/data_paths.h"
#include "app/options.h"
#include "app/periodic_task.h"
#include "app/range_refresh.h"
#include "app/rollup_refresh.h"
#include "reports/rollups.h"
#include "core/logging.h"
#include "detection/bot_catalog.h"
#include "detection/geo.h"
#include "detection/ip_ranges.h"
#include "detection/request_classifier.h"
#include "identity/authenticator.h"
#include "identity/passkeys.h"
#include "ingest/event_writer.h"
#include "ingest/ingest_service.h"
#include "identity/rate_limiter.h"
#include "identity/sessions.h"
#include "tools/dispatch.h"
#include "tools/registry.h"
#include "mcp/discovery.h"
#include "mcp/fixture_call.h"
#include "mcp/mcp_server.h"
#include "mcp/tool_catalog.h"
#include "oauth/authorization_server.h"
#include "core/version.h"
#include "core/text.h"
#include "core/url.h"

#include <filesystem>
#include <iostream>
#include <thread>

namespace sightline::app {
namespace {

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

const OptionDef kServeOptions[] = {
    {"listen", "SIGHTLINE_LISTEN", "127.0.0.1:8080", "HOST:PORT",
     "Address to listen on; port 0 picks a free port (the ready log line says which)."},
    kDataOption,
    kDatabaseUrlOption,
    {"public-url", "SIGHTLINE_PUBLIC_URL", "", "URL",
     "External base URL of the API (e.g. https://analytics.example.com/api); default "
     "http://<listen>."},
    {"mcp-allowed-origins", "SIGHTLINE_MCP_ALLOWED_ORIGINS", "", "ORIGINS",
     "Comma-separated browser origins (https://app.example.com) allowed to call /mcp besides "
     "the public URL's own; other Origin headers get 403."},
    {"threads", "SIGHTLINE_THREADS", "0", "N", "I/O threads; 0 means one per core."},
    {"workers", "SIGHTLINE_WORKERS", "auto", "N",
     "Threads that run request handlers off the I/O threads; 0 runs them inline. auto: 0 on "
     "SQLite (in-process, microsecond queries), the database pool size on PostgreSQL."},
    {"max-connections", "SIGHTLINE_MAX_CONNECTIONS", "10000", "N",
     "Concurrent connections; more are answered 503 and closed."},
    {"max-body-bytes", "SIGHTLINE_MAX_BODY_BYTES", "5242880", "N",
     "Largest request body; larger ones get 413."},
    {"max-header-bytes", "SIGHTLINE_MAX_HEADER_BYTES", "16384", "N",
     "Largest request line plus headers; larger ones get 431."},
    {"read-timeout", "SIGHTLINE_READ_TIMEOUT", "30", "SECONDS",
     "Time allowed to receive one request once it has begun."},
    {"idle-timeout", "SIGHTLINE_IDLE_TIMEOUT", "75", "SECONDS",
     "Time a keep-alive connection may sit idle between requests."},
    {"shutdown-grace", "SIGHTLINE_SHUTDOWN_GRACE", "20", "SECONDS",
     "On SIGTERM/SIGINT, how long in-flight requests may take to finish."},
    {"db-pool-size", "SIGHTLINE_DB_POOL_SIZE", "8", "N", "Database connections per process."},
    {"trusted-proxies", "SIGHTLINE_TRUSTED_PROXIES", "", "CIDRS",
     "Comma-separated addresses or CIDR ranges of proxies whose CF-Connecting-IP, "
     "X-Forwarded-For, X-Real-IP or True-Client-IP header gives the visitor's IP; from anyone "
     "else those headers are ignored."},
    {"geoip", "SIGHTLINE_GEOIP", "", "PATH",
     "A MaxMind-format .mmdb file, or a directory of them, for __country, __region and __city; "
     "default: the installed share/sightline/geoip beside the executable (<exe dir>/../share/"
     "sightline/geoip, or the build tree's). Missing: those tags stay empty (a warning is "
     "logged at start)."},
    {"bot-ranges-dir", "SIGHTLINE_BOT_RANGES_DIR", "", "DIR",
     "Vendors' published crawler IP ranges, one file per catalog list id (e.g. gptbot.json) in "
     "the vendors' own JSON format, for CIDR verification; for air-gapped installs and tests."},
    {"bot-ranges-refresh", "SIGHTLINE_BOT_RANGES_REFRESH", "24", "HOURS",
     "How often the vendors' IP-range lists are fetched (first at start); each good list is "
     "kept in the store. 0: never."},
    {"rollup-interval", "SIGHTLINE_ROLLUP_INTERVAL", "15", "SECONDS",
     "How often report days changed by new rows are rolled up in the background; reports of "
     "days already rolled up lag new rows by up to this. 0: never in the background, and every "
     "report first rolls up the changed days it reads (exact to the last row)."},
    {"bot-ranges-mirror", "SIGHTLINE_BOT_RANGES_MIRROR", "", "URL",
     "Fetch the range lists from URL/<list id>.json instead of the vendors' URLs."},
    {"outbound-ca", "SIGHTLINE_OUTBOUND_CA", "", "FILE",
     "Extra CA certificates (PEM) trusted by outbound HTTPS (key directories, range lists, "
     "OAuth client metadata documents), "
     "beside the system's (a private PKI; tests)."},
    {"signature-directory-private", "SIGHTLINE_SIGNATURE_DIRECTORY_PRIVATE", "", "",
     "Let Web Bot Auth key directories be fetched from private and loopback addresses. Turns "
     "off SSRF protection: for tests only."},
    {"oauth-access-ttl", "SIGHTLINE_OAUTH_ACCESS_TTL", "3600", "SECONDS",
     "Lifetime of the OAuth access tokens /mcp accepts; clients refresh them (refresh tokens "
     "last 90 days, rotated on every use)."},
    {"mcp-conformance-fixtures", "SIGHTLINE_MCP_CONFORMANCE_FIXTURES", "", "",
     "Add the MCP conformance suite's fixture tools, resources and prompts to /mcp and answer "
     "/mcp without a credential (only the fixtures are then visible). For tests only."},
    {"client-metadata-private", "SIGHTLINE_CLIENT_METADATA_PRIVATE", "", "",
     "Let OAuth client metadata documents (a URL as client_id) be fetched from private and "
     "loopback addresses. Turns off SSRF protection: for tests only."},
    {"dns-server", "SIGHTLINE_DNS_SERVER", "", "HOST:PORT",
     "The DNS resolver asked for forward-confirmed reverse DNS and for the host names of "
     "outbound HTTPS fetches; default: the system's."},
    {"ingest-queue-rows", "SIGHTLINE_INGEST_QUEUE_ROWS", "100000", "N",
     "Rows of accepted-but-uncommitted ingestion the writer may hold; beyond it ingestion "
     "answers 503."},
    {"rate-limit", "SIGHTLINE_RATE_LIMIT", "1000", "N",
     "Requests per minute per credential (user, private API key); ingestion is exempt."},
    {"public-rate-limit", "SIGHTLINE_PUBLIC_RATE_LIMIT", "60", "N",
     "Requests per minute per client IP to the anonymous operations (sign-in, token refresh, "
     "accepting an invitation)."},
    {"llm-provider", "SIGHTLINE_LLM_PROVIDER", "", "NAME",
     "The agent assistant's language model API: openai (OpenAI and every server speaking its "
     "Chat Completions API: vLLM, llama.cpp, Ollama, LiteLLM) or anthropic. Empty: the "
     "assistant is off and says so."},
    {"llm-base-url", "SIGHTLINE_LLM_BASE_URL", "", "URL",
     "The provider's API base URL, e.g. http://localhost:11434/v1 for Ollama; default: "
     "https://api.openai.com/v1 or https://api.anthropic.com."},
    {"llm-model", "SIGHTLINE_LLM_MODEL", "", "NAME", "The model the assistant asks."},
    {"llm-api-key", "SIGHTLINE_LLM_API_KEY", "", "KEY",
     "The provider's API key (prefer the environment variable; never logged)."},
    {"llm-timeout", "SIGHTLINE_LLM_TIMEOUT", "60", "SECONDS",
     "Longest silence from the provider while it answers one turn."},
    {"agent-max-steps", "SIGHTLINE_AGENT_MAX_STEPS", "8", "N",
     "Model turns per answer; the last one may not call tools."},
    {"agent-max-seconds", "SIGHTLINE_AGENT_MAX_SECONDS", "180", "SECONDS",
     "Longest time one answer may take."},
    {"passkey-rp-id", "SIGHTLINE_PASSKEY_RP_ID", "", "HOST",
     "The WebAuthn relying party ID passkeys are bound to; default: the public URL's host "
     "(localhost for a loopback address). Passkeys need a host name, not an IP address."},
    {"passkey-origins", "SIGHTLINE_PASSKEY_ORIGINS", "", "ORIGINS",
     "Comma-separated origins whose pages may use passkeys; default: the public URL's origin "
     "(and http://localhost:<port> for a loopback address)."},
    {"sdk-script", "SIGHTLINE_SDK_SCRIPT", "", "PATH",
     "Serve this built browser tracking script at /sdk/v1/script.js instead of the one compiled "
     "into the binary (to try another SDK build without rebuilding the server). Missing: those "
     "routes answer 404 (a warning is logged at start)."},
    {"log-level", "SIGHTLINE_LOG_LEVEL", "info", "LEVEL", "debug, info, warn or error."},
};

struct ListenAddress {
  std::string host;
  std::uint16_t port;
};

core::Result<ListenAddress> ParseListen(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return core::Error::Invalid("listen", "--listen must be HOST:PORT, e.g. 127.0.0.1:8080.");
  }
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string port = text.substr(colon + 1);
  char* end = nullptr;
  const long number = std::strtol(port.c_str(), &end, 10);
  if (port.empty() || *end != '\0' || number < 0 || number > 65535) {
    return core::Error::Invalid("listen", "--listen needs a port from 0 to 65535.");
  }
  return ListenAddress{host, static_cast<std::uint16_t>(number)};
}

core::Result<transport::ServerLimits> LimitsFrom(const Options& options) {
  transport::ServerLimits limits;
  struct IntOption {
    std::string_view flag;
    long min, max;
    long* out;
  };
  long threads = 0, connections = 0, body = 0, header = 0, read = 0, idle = 0, grace = 0;
  const IntOption ints[] = {{"threads", 0, 256, &threads},
                            {"max-connections", 1, 1000000, &connections},
                            {"max-body-bytes", 1024, 1L << 30, &body},
                            {"max-header-bytes", 1024, 1L << 20, &header},
                            {"read-timeout", 1, 3600, &read},
                            {"idle-timeout", 1, 3600, &idle},
                            {"shutdown-grace", 0, 3600, &grace}};
  for (const auto& option : ints) {
    auto value = options.GetInt(option.flag, option.min, option.max);
    if (!value) return value.error();
    *option.out = *value;
  }
  limits.threads = threads > 0 ? static_cast<int>(threads)
                               : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  limits.max_connections = static_cast<std::size_t>(connections);
  limits.max_body_bytes = static_cast<std::size_t>(body);
  limits.max_header_bytes = static_cast<std::size_t>(header);
  limits.read_timeout = std::chrono::seconds(read);
  limits.idle_timeout = std::chrono::seconds(idle);
  limits.shutdown_grace = std::chrono::seconds(grace);
  return limits;
}

// The assistant's provider from the --llm-* options: null when none is chosen.
core::Result<std::unique_ptr<agent::LlmProvider>> ProviderFrom(const Options& options,
                                                               core::HttpClient& client) {
  agent::ProviderSettings settings{options.Get("llm-provider"), options.Get("llm-base-url"),
                                   options.Get("llm-model"), options.Get("llm-api-key")};
  if (settings.provider.empty()) return std::unique_ptr<agent::LlmProvider>();
  auto idle = options.GetInt("llm-timeout", 1, 3600);
  if (!idle) return idle.error();
  settings.limits.idle_timeout = std::chrono::seconds(*idle);
  if (settings.model.empty()) {
    return core::Error::Invalid("llm-model", "--llm-model is needed with --llm-provider.");
  }
  auto provider = agent::MakeProvider(settings, client);
  if (!provider) {
    return core::Error::Invalid("llm-provider", "--llm-provider must be openai or anthropic.");
  }
  return provider;
}

// Passkeys are bound to a host name: the public URL's, or localhost when the server is reached
// on a loopback address (browsers treat http://localhost as a secure origin).
identity::PasskeySettings PasskeySettingsFrom(const Options& options,
                                              const std::string& public_url) {
  identity::PasskeySettings settings;
  settings.rp_id = options.Get("passkey-rp-id");
  settings.origins = core::SplitList(options.Get("passkey-origins"));
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

core::Result<agent::AssistantSettings> AssistantSettingsFrom(const Options& options) {
  auto steps = options.GetInt("agent-max-steps", 1, 50);
  if (!steps) return steps.error();
  auto seconds = options.GetInt("agent-max-seconds", 5, 3600);
  if (!seconds) return seconds.error();
  agent::AssistantSettings settings;
  settings.max_steps = static_cast<int>(*steps);
  settings.max_duration = std::chrono::seconds(*seconds);
  return settings;
}

int Serve(const Options& options) {
  auto listen = ParseListen(options.Get("listen"));
  if (!listen) return ReportFailure(listen.error());
  auto limits = LimitsFrom(options);
  if (!limits) return ReportFailure(limits.error());
  auto pool = options.GetInt("db-pool-size", 1, 512);
  if (!pool) return ReportFailure(pool.error());
  storage::StoreOptions store_options = StoreOptionsFrom(options);
  store_options.pool_size = static_cast<int>(*pool);

  if (options.Get("workers") == "auto") {
    limits->workers = store_options.database_url.empty() ? 0 : store_options.pool_size;
  } else {
    auto workers = options.GetInt("workers", 0, 1024);
    if (!workers) return ReportFailure(workers.error());
    limits->workers = static_cast<int>(*workers);
  }
  auto store = storage::OpenStore(store_options);
  if (!store) return ReportFailure(store.error());
  auto migrated = (*store)->Migrate();
  if (!migrated) return ReportFailure(migrated.error());
  auto registry = tools::Registry::Build(tools::AllOperations());
  if (!registry) return ReportFailure(registry.error());

  auto quota = options.GetInt("rate-limit", 1, 1000000000);
  if (!quota) return ReportFailure(quota.error());
  auto public_quota = options.GetInt("public-rate-limit", 1, 1000000000);
  if (!public_quota) return ReportFailure(public_quota.error());

  std::string bad_proxy;
  const std::vector<std::string> mcp_origins = core::SplitList(options.Get("mcp-allowed-origins"));
  for (const std::string& origin : mcp_origins) {
    if (!origin.starts_with("http://") && !origin.starts_with("https://")) {
      return ReportFailure(core::Error::Invalid(
          "mcp-allowed-origins",
          "--mcp-allowed-origins: '" + origin + "' is not an http(s) origin."));
    }
  }
  auto trusted = core::ParseCidrList(options.Get("trusted-proxies"), &bad_proxy);
  if (!trusted) {
    return ReportFailure(core::Error::Invalid(
        "trusted-proxies", "--trusted-proxies: '" + bad_proxy + "' is not an address or CIDR."));
  }
  auto queue_rows = options.GetInt("ingest-queue-rows", 100, 100000000);
  if (!queue_rows) return ReportFailure(queue_rows.error());
  auto access_ttl = options.GetInt("oauth-access-ttl", 1, 24 * 3600);
  if (!access_ttl) return ReportFailure(access_ttl.error());

  std::unique_ptr<detection::GeoDatabase> geo;
  const std::string geoip_path = GeoipPath(options);
  if (auto opened = detection::GeoDatabase::Open(geoip_path)) {
    geo = std::move(*opened);
    core::Log(core::LogLevel::kInfo, "geolocation ready",
              {{"path", geoip_path}, {"files", static_cast<std::int64_t>(geo->files().size())}});
  } else {
    core::Log(core::LogLevel::kWarn, "geolocation disabled: no database",
              {{"path", geoip_path}});
  }

  std::vector<std::string> list_ids;
  for (const auto& source : CatalogRangeSources(detection::BotCatalog::Builtin(), "")) {
    list_ids.push_back(source.list_id);
  }
  const std::string ranges_dir = options.Get("bot-ranges-dir");
  if (!ranges_dir.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(ranges_dir, ec)) {
      return ReportFailure(core::Error::Invalid(
          "bot-ranges-dir", "--bot-ranges-dir: '" + ranges_dir + "' is not a directory."));
    }
  }
  auto refresh_hours = options.GetInt("bot-ranges-refresh", 0, 24 * 365);
  if (!refresh_hours) return ReportFailure(refresh_hours.error());
  auto rollup_seconds = options.GetInt("rollup-interval", 0, 24 * 3600);
  if (!rollup_seconds) return ReportFailure(rollup_seconds.error());
  auto initial_ranges = LoadRanges(**store, ranges_dir, list_ids);
  if (!initial_ranges) return ReportFailure(initial_ranges.error());
  core::Log(core::LogLevel::kInfo, "bot ip ranges loaded",
            {{"lists", static_cast<std::int64_t>((*initial_ranges)->loaded())}});
  detection::LiveRanges live_ranges;
  live_ranges.Replace(std::move(*initial_ranges));

  core::SystemClock clock;
  // One bounded resolver (c-ares) for reverse DNS and for the fetchers' host names.
  auto resolver = api::AresResolver::Create(options.Get("dns-server"));
  if (!resolver) return ReportFailure(resolver.error());
  api::HttpsFetcherOptions fetch_options;
  fetch_options.resolver = resolver->get();
  fetch_options.allow_private_addresses = options.Has("signature-directory-private");
  fetch_options.ca_file = options.Get("outbound-ca");
  fetch_options.media_types = {"application/http-message-signatures-directory+json",
                               "application/json", "application/jwk-set+json"};
  // Range lists come from URLs the catalog or the operator chose, so any address is allowed.
  api::HttpsFetcherOptions range_fetch_options{.allow_private_addresses = true,
                                                   .ca_file = fetch_options.ca_file,
                                                   .timeout = std::chrono::seconds(30),
                                                   .max_bytes = 8 * 1024 * 1024,
                                                   .resolver = resolver->get()};
  // OAuth client metadata documents: a client_id anyone can send, so fetched defensively.
  api::HttpsFetcherOptions client_fetch_options{
      .allow_private_addresses = options.Has("client-metadata-private"),
      .ca_file = fetch_options.ca_file,
      .max_bytes = 16 * 1024,
      .media_types = {"application/json"},
      .resolver = resolver->get()};
  std::unique_ptr<api::HttpsFetcher> fetcher, range_fetcher, client_fetcher;
  try {
    fetcher = std::make_unique<api::HttpsFetcher>(fetch_options);
    range_fetcher = std::make_unique<api::HttpsFetcher>(range_fetch_options);
    client_fetcher = std::make_unique<api::HttpsFetcher>(client_fetch_options);
  } catch (const std::exception&) {
    return ReportFailure(core::Error::Invalid(
        "outbound-ca", "--outbound-ca: '" + fetch_options.ca_file +
                           "' is not a readable PEM certificate file."));
  }
  RangeRefresher refresher(*range_fetcher, **store, clock,
                           CatalogRangeSources(detection::BotCatalog::Builtin(),
                                               options.Get("bot-ranges-mirror")),
                           ranges_dir, list_ids, live_ranges,
                           std::chrono::hours(*refresh_hours));
  PeriodicTask rollups(std::chrono::seconds(*rollup_seconds), /*first_at_start=*/false,
                       [&](const std::atomic<bool>&) { RefreshMarkedRollups(**store); });
  reports::SetChangedDaysPolicy(*rollup_seconds > 0 ? reports::ChangedDays::kLeaveToBackground
                                                    : reports::ChangedDays::kRollUpFirst);
  detection::SignatureDirectory signature_keys(fetcher.get(), clock);
  // ServiceAuditBot, this installation's crawler, signs as the installation's public origin.
  const std::string own_signer =
      options.Has("public-url") ? detection::UrlOrigin(options.Get("public-url")).value_or("") : "";
  detection::ReverseDnsVerifier reverse_dns(resolver->get(), clock);
  const detection::RequestClassifier classifier(
      detection::BotCatalog::Builtin(), {.ranges = &live_ranges,
                                         .signatures = &signature_keys,
                                         .reverse_dns = &reverse_dns,
                                         .own_signer = own_signer});

  ingest::WriterOptions writer_options;
  writer_options.max_queued_rows = static_cast<std::size_t>(*queue_rows);
  ingest::EventWriter writer(**store, writer_options);
  ingest::IngestService ingestion(clock, writer, {*trusted, geo.get(), &classifier});
  auto secret = identity::SessionService::LoadSigningSecret(**store, clock);
  if (!secret) return ReportFailure(secret.error());
  identity::SessionService sessions(**store, clock, std::move(*secret));
  tools::Dispatcher dispatcher(**store, clock, sessions, &ingestion);
  api::BeastHttpClient llm_client({.ca_file = options.Get("outbound-ca"),
                                   .resolver = resolver->get(),
                                   .user_agent = "Sightline/" + std::string(core::kServerVersion)});
  auto provider = ProviderFrom(options, llm_client);
  if (!provider) return ReportFailure(provider.error());
  auto assistant_settings = AssistantSettingsFrom(options);
  if (!assistant_settings) return ReportFailure(assistant_settings.error());
  agent::AssistantService assistant(std::move(*provider), *assistant_settings, dispatcher,
                                    *registry, **store, clock);
  dispatcher.AttachAssistant(&assistant);
  if (const tools::AssistantStatus status = assistant.Status(); status.configured) {
    core::Log(core::LogLevel::kInfo, "agent assistant ready",
              {{"provider", status.provider}, {"model", status.model}});
  }
  identity::Authenticator authenticator(**store);
  identity::RateLimiter credential_limits(**store, clock, {"per-minute", *quota, 60});
  identity::RateLimiter public_limits(**store, clock, {"per-minute-per-ip", *public_quota, 60});
  transport::HttpServer server(*limits);
  auto bound = server.Listen(listen->host, listen->port);
  if (!bound) return ReportFailure(bound.error());
  const std::string host_for_url =
      listen->host.find(':') != std::string::npos ? "[" + listen->host + "]" : listen->host;
  const std::string address = host_for_url + ":" + std::to_string(server.port());
  api::OpenApiOptions openapi;
  openapi.server_url = options.Has("public-url") ? options.Get("public-url") : "http://" + address;
  identity::PasskeyService passkeys(**store, clock,
                                    PasskeySettingsFrom(options, openapi.server_url));
  dispatcher.AttachPasskeys(&passkeys);
  const mcp::ToolCatalog tool_catalog(*registry);
  const mcp::ConformanceExtension fixtures;
  const bool fixture_mode = options.Has("mcp-conformance-fixtures");
  if (fixture_mode) {
    core::Log(core::LogLevel::kWarn, "MCP conformance fixtures on: /mcp answers anonymous "
                                     "requests (tests only)", {});
  }
  mcp::McpServer mcp_server(tool_catalog, dispatcher, **store, clock, McpIdentity(),
                            fixture_mode ? &fixtures : nullptr);
  oauth::AuthorizationServer authorization_server(
      **store, clock, client_fetcher.get(),
      {.issuer = mcp::AuthorizationServerIssuer(openapi.server_url),
       .resource = mcp::McpResourceUrl(openapi.server_url),
       .grantable = tool_catalog.GrantablePermissions(),
       .access_ttl = std::chrono::seconds(*access_ttl)});
  std::optional<api::SdkScript> sdk_script;
  if (auto loaded = options.Has("sdk-script") ? api::LoadSdkScript(options.Get("sdk-script"))
                                               : api::EmbeddedSdkScript()) {
    sdk_script = std::move(*loaded);
    core::Log(core::LogLevel::kInfo, "tracking script ready",
              {{"url", sdk_script->versioned_path}, {"integrity", sdk_script->integrity},
               {"bytes", static_cast<std::int64_t>(sdk_script->body.size())}});
  } else {
    core::Log(core::LogLevel::kWarn, "tracking script not served", {{"reason", loaded.error().message()}});
  }
  api::RestHandler handler({*registry, dispatcher, authenticator, sessions, credential_limits,
                            public_limits, clock, *trusted, &mcp_server, mcp_origins,
                            &authorization_server, fixture_mode,
                            sdk_script ? &*sdk_script : nullptr},
                           openapi);
  core::Log(core::LogLevel::kInfo, "ready",
            {{"listen", address},
             {"port", server.port()},
             {"storage", (*store)->backend_name()},
             {"schemaVersion", storage::Store::LatestSchemaVersion()},
             {"operations", registry->operations().size()},
             {"threads", limits->threads},
             {"workers", limits->workers}});
  server.OnShutdown([&assistant] { assistant.StopAnswers(); });
  server.Run(handler);
  assistant.Shutdown();  // running answers end while the handler their callbacks reach exists
  // A client metadata fetch still pending is answered now, while authorization_server (which
  // its callback reaches) exists; the other fetchers' callbacks hold shared state.
  client_fetcher->Stop();
  writer.Stop();  // commits whatever was accepted before the last connection closed
  core::Log(core::LogLevel::kInfo, "stopped");
  core::FlushLogs();
  return 0;
}


}  // namespace

std::span<const OptionDef> ServeOptionDefs() { return kServeOptions; }

int RunServe(std::span<char*> args) {
  auto options = ParseOptions(kServeOptions, args);
  if (!options) return ReportFailure(options.error());
  if (options->help) {
    std::cout << HelpText("sightline serve [options]",
                          "Runs the HTTP server: the REST API and its OpenAPI document.",
                          kServeOptions);
    return 0;
  }
  core::SetupLogging(options->Get("log-level"));
  return Serve(*options);
}

}  // namespace sightline::app
