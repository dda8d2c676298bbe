// The option table of `sightline serve`: each flag with its environment variable, default,
// help line and, for whole numbers, its range. `--help`, the README's table (checked by a test)
// and ParseServeConfig all read it.
#include "app/serve_config.h"

namespace sightline::app {
namespace {

const OptionDef kServeOptions[] = {
    {"listen", "SIGHTLINE_LISTEN", "127.0.0.1:8080", "HOST:PORT",
     "Address to listen on; port 0 picks a free port (the ready log line says which)."},
    kDataOption,
    kDatabaseUrlOption,
    {"public-url", "SIGHTLINE_PUBLIC_URL", "", "URL",
     "External URL of the site, where people open the dashboard (e.g. "
     "https://analytics.example.com); the API is its /api. Default http://<listen>."},
    {"mcp-allowed-origins", "SIGHTLINE_MCP_ALLOWED_ORIGINS", "", "ORIGINS",
     "Comma-separated browser origins (https://app.example.com) allowed to call /api/mcp besides "
     "the public URL's own; other Origin headers get 403."},
    {"threads", "SIGHTLINE_THREADS", "0", "N", "I/O threads; 0 means one per core.",
     0, 256},
    {"workers", "SIGHTLINE_WORKERS", "auto", "N",
     "Threads that run request handlers off the I/O threads; 0 runs them inline. auto: 0 on "
     "SQLite (in-process, microsecond queries), the database pool size on PostgreSQL.",
     0, 1024},
    {"max-connections", "SIGHTLINE_MAX_CONNECTIONS", "10000", "N",
     "Concurrent connections; more are answered 503 and closed.",
     1, 1000000},
    {"max-body-bytes", "SIGHTLINE_MAX_BODY_BYTES", "5242880", "N",
     "Largest request body; larger ones get 413.",
     1024, 1073741824},
    {"max-header-bytes", "SIGHTLINE_MAX_HEADER_BYTES", "16384", "N",
     "Largest request line plus headers; larger ones get 431.",
     1024, 1048576},
    {"read-timeout", "SIGHTLINE_READ_TIMEOUT", "30", "SECONDS",
     "Time allowed to receive one request once it has begun.",
     1, 3600},
    {"idle-timeout", "SIGHTLINE_IDLE_TIMEOUT", "75", "SECONDS",
     "Time a keep-alive connection may sit idle between requests.",
     1, 3600},
    {"shutdown-grace", "SIGHTLINE_SHUTDOWN_GRACE", "20", "SECONDS",
     "On SIGTERM/SIGINT, how long in-flight requests may take to finish.",
     0, 3600},
    {"db-pool-size", "SIGHTLINE_DB_POOL_SIZE", "8", "N", "Database connections per process.",
     1, 512},
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
     "kept in the store. 0: never.",
     0, 8760},
    {"rollup-interval", "SIGHTLINE_ROLLUP_INTERVAL", "15", "SECONDS",
     "How often report days changed by new rows are rolled up in the background; reports of "
     "days already rolled up lag new rows by up to this. 0: never in the background, and every "
     "report first rolls up the changed days it reads (exact to the last row).",
     0, 86400},
    {"seal-after", "SIGHTLINE_SEAL_AFTER", "600", "SECONDS",
     "Tracked events received this long ago leave the inbox table for the compact column "
     "blocks (docs/storage.md); the sealing runs every minute, or every second when this is "
     "under a minute.",
     0, 604800},
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
     "Lifetime of the OAuth access tokens /api/mcp accepts; clients refresh them (refresh tokens "
     "last 90 days, rotated on every use).",
     1, 86400},
    {"cli-login-ttl", "SIGHTLINE_CLI_LOGIN_TTL", "600", "SECONDS",
     "How long a command-line login's device and user codes stay valid before the user "
     "approves it (RFC 8628 suggests minutes, not hours).",
     1, 3600},
    {"client-metadata-private", "SIGHTLINE_CLIENT_METADATA_PRIVATE", "", "",
     "Let OAuth client metadata documents (a URL as client_id) be fetched from private and "
     "loopback addresses. Turns off SSRF protection: for tests only."},
    {"dns-server", "SIGHTLINE_DNS_SERVER", "", "HOST:PORT",
     "The DNS resolver asked for forward-confirmed reverse DNS and for the host names of "
     "outbound HTTPS fetches; default: the system's."},
    {"ingest-queue-rows", "SIGHTLINE_INGEST_QUEUE_ROWS", "100000", "N",
     "Rows of accepted-but-uncommitted ingestion the writer may hold; beyond it ingestion "
     "answers 503.",
     100, 100000000},
    {"rate-limit", "SIGHTLINE_RATE_LIMIT", "1000", "N",
     "Requests per minute per credential (user, private API key); ingestion is exempt.",
     1, 1000000000},
    {"public-rate-limit", "SIGHTLINE_PUBLIC_RATE_LIMIT", "60", "N",
     "Requests per minute per client IP to the anonymous operations (sign-in, token refresh, "
     "accepting an invitation).",
     1, 1000000000},
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
     "Longest silence from the provider while it answers one turn.",
     1, 3600},
    {"agent-max-steps", "SIGHTLINE_AGENT_MAX_STEPS", "8", "N",
     "Model turns per answer; the last one may not call tools.",
     1, 50},
    {"agent-max-seconds", "SIGHTLINE_AGENT_MAX_SECONDS", "180", "SECONDS",
     "Longest time one answer may take.",
     5, 3600},
    {"encryption-key-file", "SIGHTLINE_ENCRYPTION_KEY_FILE", "", "FILE",
     "The 32-byte key (raw, hex or base64) that seals secrets the server must read back, such "
     "as AI-visibility engines' API keys (AES-256-GCM). Default on SQLite: <data>/"
     "encryption.key, created at first start; on PostgreSQL none (engine keys are then "
     "refused): give every node the same file. Keep it out of the database's backups."},
    {"ai-visibility-interval", "SIGHTLINE_AI_VISIBILITY_INTERVAL", "10", "SECONDS",
     "How often this node looks for scheduled AI-visibility runs to start and queued answers "
     "to ask (each is claimed by one node). 0: this node runs none.",
     0, 3600},
    {"ai-engines-private-urls", "SIGHTLINE_AI_ENGINES_PRIVATE_URLS", "", "",
     "Let AI-visibility engines' base URLs reach private and loopback addresses (a model served "
     "on the local network; tests). Off: only public addresses, checked on connect."},
    {"audit-interval", "SIGHTLINE_AUDIT_INTERVAL", "5", "SECONDS",
     "How often this node looks for queued site-audit crawls (and crawls a stopped node left) "
     "to claim; each crawl is run by one node. 0: this node crawls none.",
     0, 3600},
    {"audit-crawls", "SIGHTLINE_AUDIT_CRAWLS", "2", "N",
     "How many site-audit crawls this node runs at once.",
     1, 64},
    {"audit-private-addresses", "SIGHTLINE_AUDIT_PRIVATE_ADDRESSES", "", "",
     "Let ServiceAuditBot (crawls and ownership checks) reach private and loopback addresses. "
     "For tests only: off, it fetches only public addresses, checked on connect."},
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

}  // namespace

std::span<const OptionDef> ServeOptionDefs() { return kServeOptions; }

}  // namespace sightline::app
