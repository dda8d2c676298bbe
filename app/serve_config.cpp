#include "app/serve_config.h"

#include <algorithm>
#include <filesystem>
#include <thread>

#include "app/data_paths.h"
#include "core/text.h"

namespace sightline::app {
namespace {

using core::Error;
using core::Result;

// Reads the whole-number options into their fields, each within its declared range.
Result<void> ReadNumbers(const Options& options, ServeConfig& config) {
  struct Number {
    std::string_view flag;
    long* out;
  };
  long threads = 0, connections = 0, body = 0, header = 0, read = 0, idle = 0, grace = 0, pool = 0,
       queue_rows = 0, access_ttl = 0, refresh = 0, rollup = 0, seal_after = 0, quota = 0,
       public_quota = 0, llm_timeout = 0, steps = 0, seconds = 0, cli_login_ttl = 0,
       ai_interval = 0, audit_interval = 0, audit_crawls = 0;
  const Number numbers[] = {{"threads", &threads},
                            {"max-connections", &connections},
                            {"max-body-bytes", &body},
                            {"max-header-bytes", &header},
                            {"read-timeout", &read},
                            {"idle-timeout", &idle},
                            {"shutdown-grace", &grace},
                            {"db-pool-size", &pool},
                            {"ingest-queue-rows", &queue_rows},
                            {"oauth-access-ttl", &access_ttl},
                            {"cli-login-ttl", &cli_login_ttl},
                            {"bot-ranges-refresh", &refresh},
                            {"rollup-interval", &rollup},
                            {"seal-after", &seal_after},
                            {"rate-limit", &quota},
                            {"public-rate-limit", &public_quota},
                            {"llm-timeout", &llm_timeout},
                            {"agent-max-steps", &steps},
                            {"agent-max-seconds", &seconds},
                            {"ai-visibility-interval", &ai_interval},
                            {"audit-interval", &audit_interval},
                            {"audit-crawls", &audit_crawls}};
  for (const Number& number : numbers) {
    auto value = options.GetInt(number.flag);
    if (!value) return value.error();
    *number.out = *value;
  }
  net::ServerLimits& limits = config.limits;
  limits.threads = threads > 0
                       ? static_cast<int>(threads)
                       : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  limits.max_connections = static_cast<std::size_t>(connections);
  limits.max_body_bytes = static_cast<std::size_t>(body);
  limits.max_header_bytes = static_cast<std::size_t>(header);
  limits.read_timeout = std::chrono::seconds(read);
  limits.idle_timeout = std::chrono::seconds(idle);
  limits.shutdown_grace = std::chrono::seconds(grace);
  config.store.pool_size = static_cast<int>(pool);
  config.ingest_queue_rows = static_cast<std::size_t>(queue_rows);
  config.oauth_access_ttl = std::chrono::seconds(access_ttl);
  config.cli_login_ttl = std::chrono::seconds(cli_login_ttl);
  config.bot_ranges_refresh = std::chrono::hours(refresh);
  config.rollup_interval = std::chrono::seconds(rollup);
  config.seal_after = std::chrono::seconds(seal_after);
  config.rate_limit = quota;
  config.public_rate_limit = public_quota;
  config.llm.limits.idle_timeout = std::chrono::seconds(llm_timeout);
  config.assistant.max_steps = static_cast<int>(steps);
  config.assistant.max_duration = std::chrono::seconds(seconds);
  config.ai_visibility_interval = std::chrono::seconds(ai_interval);
  config.audit_interval = std::chrono::seconds(audit_interval);
  config.audit_crawls = audit_crawls;
  return {};
}

// `auto`: inline handlers on SQLite (in-process, microsecond queries), the database pool size
// on PostgreSQL, so a round trip never holds an I/O thread.
Result<int> Workers(const Options& options, const storage::StoreOptions& store) {
  if (options.Get("workers") == "auto") return store.database_url.empty() ? 0 : store.pool_size;
  auto workers = options.GetInt("workers");
  if (!workers) return workers.error();
  return static_cast<int>(*workers);
}

Result<std::vector<std::string>> HttpOrigins(const Options& options, std::string_view flag) {
  std::vector<std::string> origins = core::SplitList(options.Get(flag));
  for (const std::string& origin : origins) {
    if (!origin.starts_with("http://") && !origin.starts_with("https://")) {
      return Error::Invalid(std::string(flag), "--" + std::string(flag) + ": '" + origin +
                                                   "' is not an http(s) origin.");
    }
  }
  return origins;
}

Result<void> ReadAddresses(const Options& options, ServeConfig& config) {
  auto listen = ParseListen(options.Get("listen"));
  if (!listen) return listen.error();
  config.listen = std::move(*listen);
  auto origins = HttpOrigins(options, "mcp-allowed-origins");
  if (!origins) return origins.error();
  config.mcp_allowed_origins = std::move(*origins);
  std::string bad_proxy;
  auto trusted = core::ParseCidrList(options.Get("trusted-proxies"), &bad_proxy);
  if (!trusted) {
    return Error::Invalid("trusted-proxies",
                          "--trusted-proxies: '" + bad_proxy + "' is not an address or CIDR.");
  }
  config.trusted_proxies = std::move(*trusted);
  if (options.Has("public-url")) config.public_url = options.Get("public-url");
  return {};
}

Result<void> ReadSources(const Options& options, ServeConfig& config) {
  config.geoip = GeoipPath(options);
  config.bot_ranges_dir = options.Get("bot-ranges-dir");
  if (!config.bot_ranges_dir.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(config.bot_ranges_dir, ec)) {
      return Error::Invalid("bot-ranges-dir", "--bot-ranges-dir: '" + config.bot_ranges_dir +
                                                  "' is not a directory.");
    }
  }
  config.bot_ranges_mirror = options.Get("bot-ranges-mirror");
  config.outbound_ca = options.Get("outbound-ca");
  config.dns_server = options.Get("dns-server");
  config.signature_directory_private = options.Has("signature-directory-private");
  config.client_metadata_private = options.Has("client-metadata-private");
  if (options.Has("sdk-script")) config.sdk_script = options.Get("sdk-script");
  config.encryption_key_file = options.Get("encryption-key-file");
  if (config.encryption_key_file.empty() && config.store.database_url.empty()) {
    config.encryption_key_file = options.Get("data") + "/encryption.key";
    config.create_encryption_key = true;
  }
  config.ai_engines_private_urls = options.Has("ai-engines-private-urls");
  config.audit_private_addresses = options.Has("audit-private-addresses");
  return {};
}

Result<void> ReadAssistant(const Options& options, ServeConfig& config) {
  config.llm.provider = options.Get("llm-provider");
  config.llm.base_url = options.Get("llm-base-url");
  config.llm.model = options.Get("llm-model");
  config.llm.api_key = options.Get("llm-api-key");
  if (config.llm.provider.empty()) return {};
  if (config.llm.provider != "openai" && config.llm.provider != "anthropic") {
    return Error::Invalid("llm-provider", "--llm-provider must be openai or anthropic.");
  }
  if (config.llm.model.empty()) {
    return Error::Invalid("llm-model", "--llm-model is needed with --llm-provider.");
  }
  return {};
}

}  // namespace

Result<ListenAddress> ParseListen(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return Error::Invalid("listen", "--listen must be HOST:PORT, e.g. 127.0.0.1:8080.");
  }
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  const std::string port = text.substr(colon + 1);
  char* end = nullptr;
  const long number = std::strtol(port.c_str(), &end, 10);
  if (port.empty() || *end != '\0' || number < 0 || number > 65535) {
    return Error::Invalid("listen", "--listen needs a port from 0 to 65535.");
  }
  return ListenAddress{host, static_cast<std::uint16_t>(number)};
}

Result<ServeConfig> ParseServeConfig(const Options& options) {
  ServeConfig config;
  config.store = StoreOptionsFrom(options);
  for (auto read : {ReadNumbers, ReadAddresses, ReadSources, ReadAssistant}) {
    auto done = read(options, config);
    if (!done) return done.error();
  }
  auto workers = Workers(options, config.store);
  if (!workers) return workers.error();
  config.limits.workers = *workers;
  config.passkey_rp_id = options.Get("passkey-rp-id");
  config.passkey_origins = core::SplitList(options.Get("passkey-origins"));
  return config;
}

}  // namespace sightline::app
