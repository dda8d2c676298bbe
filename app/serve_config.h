// `sightline serve`'s configuration: every option of its table (app/serve_options.cpp) parsed
// and checked once, into typed values, before anything is built. Each whole-number option's
// range is declared beside it in the table. Plain data; thread-compatible.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "agent/assistant.h"
#include "agent/provider.h"
#include "net/http_server.h"
#include "app/options.h"
#include "core/ip_address.h"
#include "core/result.h"
#include "reports/report_windows.h"
#include "storage/store.h"

namespace sightline::app {

struct ListenAddress {
  std::string host;  // without IPv6 brackets
  std::uint16_t port = 0;
};

struct ServeConfig {
  ListenAddress listen;
  net::ServerLimits limits;
  storage::StoreOptions store;
  std::string public_url;  // the site (the API is its /api); empty: http://<the address listened on>
  std::vector<std::string> mcp_allowed_origins;
  core::CidrList trusted_proxies;
  std::string geoip;  // empty: no geolocation
  std::string bot_ranges_dir;
  std::string bot_ranges_mirror;
  std::chrono::hours bot_ranges_refresh{24};
  std::chrono::seconds rollup_interval{15};
  std::chrono::seconds seal_after{600};  // inbox events older than this are sealed into blocks
  std::string outbound_ca;
  std::string dns_server;
  bool signature_directory_private = false;
  bool client_metadata_private = false;
  std::chrono::seconds oauth_access_ttl{3600};
  std::chrono::seconds cli_login_ttl{600};  // how long a command-line login's codes live
  std::size_t ingest_queue_rows = 100000;
  std::int64_t rate_limit = 1000;
  std::int64_t public_rate_limit = 60;
  agent::ProviderSettings llm;  // provider empty: the assistant is off
  agent::AssistantSettings assistant;
  std::string passkey_rp_id;
  std::vector<std::string> passkey_origins;
  std::string sdk_script;  // empty: the script compiled into the binary
  std::string encryption_key_file;  // empty: none (engine keys refused)
  bool create_encryption_key = false;  // the SQLite default: made at first start
  std::chrono::seconds ai_visibility_interval{10};
  bool ai_engines_private_urls = false;
  std::chrono::seconds audit_interval{5};  // 0: this node crawls none
  std::int64_t audit_crawls = 2;           // crawls this node runs at once
  bool audit_private_addresses = false;    // tests: ServiceAuditBot may reach loopback

  // Reports leave changed days to the background refresher when it runs.
  reports::ChangedDays changed_days() const {
    return rollup_interval.count() > 0 ? reports::ChangedDays::kLeaveToBackground
                                       : reports::ChangedDays::kRollUpFirst;
  }
};

// VAL_003 naming the option for anything out of range or malformed.
core::Result<ServeConfig> ParseServeConfig(const Options& options);

// "HOST:PORT", "[::1]:PORT"; VAL_003 otherwise.
core::Result<ListenAddress> ParseListen(const std::string& text);

}  // namespace sightline::app
