// Rows of the AI-visibility tables (storage/migrations/0018_ai_visibility.*.sql), as plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sightline::storage {

struct AiBrandRecord {
  std::string id;
  std::string project_id;
  std::string name;
  std::vector<std::string> aliases;
  std::vector<std::string> domains;  // hosts, lowercase: "example.com"
  bool is_own = false;
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
};

struct AiPromptRecord {
  std::string id;
  std::string project_id;
  std::string text;
  std::string topic;
  std::vector<std::string> tags;
  std::string language;  // BCP 47, "" when unset
  std::string country;   // ISO 3166-1 alpha-2, "" when unset
  bool active = true;
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
};

struct AiEngineRecord {
  std::string id;
  std::string project_id;
  std::string name;
  std::string provider;  // openai, anthropic, perplexity
  std::string model;
  std::string base_url;  // "" for the vendor's own API
  bool web_search = false;
  std::string params;                  // a JSON object merged into each request
  std::optional<std::string> api_key;  // sealed (core/sealed_box.h); never shown
  std::string api_key_hint;            // the key's last four characters, "" without a key
  double input_price = 0;              // USD per million input tokens
  double output_price = 0;             // USD per million output tokens
  bool active = true;
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
};

struct AiSettingsRecord {
  std::string project_id;
  std::string schedule = "off";  // off, daily, weekly
  std::int64_t repetitions = 3;
  std::int64_t max_runs_per_day = 4;
  std::int64_t max_tokens_per_day = 2'000'000;
  std::optional<std::string> judge_engine_id;  // null: deterministic extraction, no judge
  std::int64_t updated_at = 0;
};

struct AiRunRecord {
  std::string id;
  std::string project_id;
  std::string trigger;             // manual, schedule
  std::optional<std::string> slot;  // a scheduled run's local day or ISO week
  std::string status;  // queued, running, completed, failed, cancelled, budget_exhausted
  std::optional<std::string> created_by;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> finished_at;
};

// How far a run has come, from its answers.
struct AiRunProgress {
  std::int64_t total = 0, pending = 0, running = 0, done = 0, failed = 0, skipped = 0;
  std::int64_t input_tokens = 0, output_tokens = 0, cost_micros = 0;
};

struct AiAnswerRecord {
  std::string id;
  std::string run_id;
  std::string project_id;
  std::string prompt_id;
  std::string engine_id;
  std::int64_t repetition = 0;
  std::string topic;
  std::string status = "pending";  // pending, running, done, failed, skipped
  std::int64_t attempts = 0;
  std::int64_t next_attempt_at = 0;
  std::int64_t lease_until = 0;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> answered_at;
  std::string answer;
  std::string raw_response;
  std::string model;
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  std::int64_t cost_micros = 0;  // millionths of a US dollar
  std::string error_code;
  std::string error_message;
  std::string judge_model;  // "" when nothing judged (deterministic mode)
  std::int64_t citations = 0;
  std::int64_t owned_citations = 0;
};

struct AiMentionRecord {
  std::string answer_id;
  std::string brand_id;
  std::int64_t rank = 0;          // 1 = the first tracked brand the answer names
  std::int64_t first_offset = 0;  // bytes into the answer
  std::int64_t occurrences = 0;
  std::string snippet;  // the sentence around the first mention
  std::optional<bool> recommended;
  std::optional<double> sentiment;  // 0 (negative) … 100 (positive)
};

struct AiCitationRecord {
  std::string answer_id;
  std::int64_t position = 0;  // 1-based, in the order the answer gives them
  std::string url;
  std::string domain;
  std::string path;
  std::string title;
  std::string origin;  // provider (the API's citation fields) or text (a link in the answer)
  bool owned = false;
  std::optional<std::string> brand_id;  // the tracked brand whose domain it is
};

// The answers of a report window; empty filters match everything.
struct AiReportQuery {
  std::string project_id;
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
  std::string engine_id, topic, prompt_id;
  std::string group_by;  // "", engine, topic, prompt
  // Read the day rollups of this zone (start_ms and end_ms must then be local day starts);
  // empty: the answers themselves.
  std::string zone;
};

// Where an answer goes in the day rollups: the project's zone and the local day it was answered.
struct AiRollupDay {
  std::string zone;
  std::int64_t day_start = 0;
};

struct AiAnswerTotals {
  std::string key;  // the group's engine id, topic or prompt id; "" without grouping
  std::int64_t answers = 0;
  std::int64_t cited_answers = 0;        // answers with at least one citation
  std::int64_t owned_cited_answers = 0;  // answers citing an owned page
  std::int64_t citations = 0;
  std::int64_t owned_citations = 0;
};

struct AiMentionTotals {
  std::string key;
  std::string brand_id;
  std::int64_t answers = 0;  // answers mentioning the brand
  std::int64_t occurrences = 0;
  std::int64_t rank_sum = 0;
  std::int64_t recommended = 0;
  std::int64_t judged = 0;  // answers whose recommendation was judged
  double sentiment_sum = 0;
  std::int64_t sentiment_count = 0;
};

struct AiCitedSource {
  std::string value;  // the domain, or the page's URL
  std::int64_t citations = 0;
  std::int64_t answers = 0;
  bool owned = false;
  std::optional<std::string> brand_id;
};

// One owned page's figures in the AI loop report.
struct AiPageCitations {
  std::string path;
  std::int64_t citations = 0;
  std::int64_t answers = 0;
};

struct AiCrawlerFetches {
  std::string path;
  std::string vendor;
  std::string category;    // ai_training, ai_search, ai_user_fetch, …
  std::string actor_type;  // verified_bot, spoofed_bot, suspected_bot
  std::int64_t requests = 0;
};

struct AiAssistantVisits {
  std::string path;    // the visit's entry page
  std::string source;  // ChatGPT, Perplexity, …
  std::int64_t visits = 0;
};

// Counts per quarter of an hour (UTC), folded into the report's local buckets by the caller.
struct AiQuarterCount {
  std::int64_t quarter = 0;  // unix ms / 900,000
  std::int64_t count = 0;
};

}  // namespace sightline::storage
