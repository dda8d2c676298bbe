// Rows of the reports area (storage/report_repository.h), as plain values: the report rollups,
// and what the crawler and web analytics reports ask of them and read back. Times are Unix
// milliseconds (UTC).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sightline::storage {

// ---- Report rollups (storage/report_repository_rollups.cpp): each local day of a reporting
// zone, and each local hour of it, aggregated once from the raw rows and rebuilt when they change.

// Persisted in the rollup tables' `span` column: a local day, a local hour, or an aligned
// block of 2, 4, 8, 16 or 32 local days (a block of 2^k days starts on a day number divisible
// by 2^k, counting from 1970-01-01), merged from its two halves so that a long window reads a
// few blocks instead of every day.
enum class RollupSpan : std::int64_t {
  kDay = 0, kHour = 1, kDays2 = 2, kDays4 = 3, kDays8 = 4, kDays16 = 5, kDays32 = 6
};
inline constexpr int kRollupBlockLevels = 5;  // kDays2 … kDays32
// The block span of 2^level days (level 1 … kRollupBlockLevels).
constexpr RollupSpan BlockSpan(int level) { return static_cast<RollupSpan>(level + 1); }
constexpr int BlockLevel(RollupSpan span) { return static_cast<int>(span) - 1; }

// Which raw rows changed: events ('w', web analytics) or crawler requests ('b').
enum class RollupSource : char { kWeb = 'w', kBots = 'b' };

// A UTC hour (unix_ms / 3 600 000) whose rows changed since its days were last rolled up. A
// builder clears the mark only if `generation` is still the one it read.
struct RollupMark {
  RollupSource source = RollupSource::kWeb;
  std::int64_t hour = 0;
  std::int64_t generation = 0;
};

// One human event outside `__analytics` as the web rollup reads it; nullopt columns read "".
struct RollupEvent {
  std::string id;
  std::optional<std::string> session_id;
  std::string visitor;  // the anonymous id, else the user id, else the daily id, else ""
  std::int64_t occurred_at = 0;
  std::string event, event_channel;  // the tracked event's name and channel
  std::string source, channel;       // where the visit came from: "Google", "Organic Search"
  std::string path, referrer;
  std::string utm_source, utm_medium, utm_campaign, utm_term, utm_content;
  std::string country, region, city, browser, os, device;
  std::string tags;  // the event's tags as JSON, when ListRollupEvents was asked for them

  bool operator==(const RollupEvent&) const = default;
};

// The rows of a window as ReportRepository::ReadWebWindow returns them: the inbox's, and the
// sealed blocks as stored.
struct WebWindowRows {
  std::vector<RollupEvent> inbox;
  std::vector<std::string> blocks;
};

// What a breakdown groups by. Pages count pageviews (`screen_view` events); entry and exit
// pages count visits by their first and last pageview; event channel and event count events;
// every other dimension counts visitors. Source and channel are the visit's (its first event's).
// The numbers are persisted (web_rollups.dimension): never reuse or renumber one.
enum class WebDimension {
  kPage = 1, kEntryPage, kExitPage, kReferrer, kUtmSource, kUtmMedium, kUtmCampaign, kUtmTerm,
  kUtmContent, kCountry, kRegion, kCity, kBrowser, kOs, kDevice, kEventChannel, kEvent,
  kSource, kChannel
};

// web_rollups.dimension of the rows that hold a whole period's figures (value "").
inline constexpr std::int64_t kWebTotalsDimension = 0;

// One period (a local day or hour) of web analytics, for the whole period or one value of a
// dimension. Visit figures belong to the period the visit started in.
struct WebRollupRow {
  RollupSpan span = RollupSpan::kDay;
  std::int64_t dimension = kWebTotalsDimension;
  std::int64_t period_start = 0;  // UTC ms of the local day's or hour's start
  std::string value;
  std::int64_t events = 0;     // the rows this value counts (events, pageviews or visits)
  std::int64_t pageviews = 0;  // `screen_view` events among them
  std::int64_t visits = 0, bounces = 0;
  std::int64_t duration_ms = 0;  // sum over visits of last event − first event
  std::int64_t timed_views = 0;  // pageviews followed by another one of their visit
  std::int64_t view_ms = 0;      // sum over those of the time to the next pageview
  std::string visitors;          // a serialized core::DistinctSketch
};

// Crawler requests of one period, in rows of one kind (persisted in bot_rollups.kind):
// - kAgent: per bot name, vendor, category, AI flag and verification outcome;
// - kCountry, kPath: the same per country or path (`value`), for filtered rankings;
// - narrow rows for the unfiltered rankings, every other column "" (or 0):
//   kCountryBot per country and bot name, kPathOnly per path, kPathVendor per path and vendor.
// Missing names read "". Every kind but kPath and kPathVendor (nearly a row per request) is
// also rolled up into blocks of days.
enum class BotRollupKind : std::int64_t {
  kAgent = 0, kCountry = 1, kPath = 2, kCountryBot = 3, kPathOnly = 4, kPathVendor = 5
};

// ---- Crawler reports, read from the rollups.

// What a crawler report groups by: the bot's name, its vendor, the client's country, the actor
// category, or the requested path. A missing value groups as "".
enum class BotGrouping { kBot, kVendor, kCountry, kCategory, kPath };

// Rolled-up periods of one span, by their starts.
struct RollupPeriods {
  RollupSpan span = RollupSpan::kDay;
  std::vector<std::int64_t> starts;
};

// The periods a report reads: `span` rows of `zone` starting in [start_ms, end_ms) or, when
// `blocks` is set, exactly those periods (the same window cut into the largest blocks rolled
// up; rows of a kind without blocks are still read by day).
struct RollupRange {
  std::string project_id;
  std::string zone;
  RollupSpan span = RollupSpan::kDay;
  std::int64_t start_ms = 0;  // inclusive
  std::int64_t end_ms = 0;    // exclusive
  std::vector<RollupPeriods> blocks;
};

// A block of days rolled up (rollup_blocks).
struct RollupBlock {
  RollupSpan span = RollupSpan::kDays2;
  std::int64_t start_ms = 0;
};

struct BotReportQuery {
  RollupRange range;
  BotGrouping grouping = BotGrouping::kBot;
  // Filters (nullopt: any).
  std::optional<std::string> actor_type;  // verified_bot, spoofed_bot, suspected_bot, unknown
  std::optional<bool> is_ai;
  std::optional<std::string> vendor;  // exact vendor name
  std::optional<std::string> bot_name;  // exact bot name
  std::optional<std::string> search;  // case-insensitive substring of the bot's name or vendor
  // Only these group keys (the selected period's rows, for their comparison figures).
  std::optional<std::vector<std::string>> keys;
  std::int64_t limit = 1000;
  std::int64_t offset = 0;
};

// One group: requests, distinct bots (not counted per path: 0), and (grouping by bot) the
// bot's attribution.
struct BotGroupRow {
  std::string key;
  std::int64_t requests = 0;
  std::int64_t distinct_bots = 0;
  std::optional<std::string> vendor, category;
  bool is_ai = false;
  // `requests` by verification outcome; filled for the ranking of bots, zero for the others.
  std::int64_t verified = 0, spoofed = 0, suspected = 0;
};

struct BotGroupTotals {
  std::int64_t groups = 0;
  std::int64_t requests = 0;
};

// Requests of one group in one rolled-up period.
struct BotPeriodRow {
  std::int64_t period_start = 0;
  std::string key;
  std::int64_t requests = 0;
};

// ---- Web analytics, read from the rollups.

struct WebRollupQuery {
  RollupRange range;
  std::int64_t dimension = kWebTotalsDimension;
  std::optional<std::vector<std::string>> values;  // only these values
};

// A dimension's values ranked by their stored row count (`events`), then value.
struct WebValueCount {
  std::string value;
  std::int64_t count = 0;
};

struct WebValueRanking {
  std::vector<WebValueCount> page;  // the `limit` values after `offset`
  std::int64_t values = 0;          // values in the whole ranking
};

struct PageDurationRow {
  std::string path;
  std::int64_t pageviews = 0;
  std::int64_t measured = 0;     // pageviews followed by another pageview of the same visit
  std::int64_t duration_ms = 0;  // sum over the measured ones
};

// ---- Visits (visit_blocks, storage/visit_blocks.h): what a filtered web report reads
// (docs/reports.md, "Filters").

// One visit, or one event outside every visit (in_visit false: it counts as events, pageviews
// and a visitor, never as a visit), with the local day rollups of the day it started.
struct WebVisitRow {
  std::int64_t started_at = 0;
  bool in_visit = true;
  std::string session_id;  // the visit's session id, or the loose event's id
  std::string visitor;     // "" when the events had neither an anonymous nor a user id
  std::int64_t events = 0, pageviews = 0, duration_ms = 0;
  bool bounce = false;
  std::string entry_page, exit_page;  // "" without a pageview
  // The visit's first event's values.
  std::string referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content;
  std::string country, region, city, browser, os, device, source, channel;
  // The values that vary within a visit, as lists (storage/visit_lists.h): per page its views,
  // timed views and view ms; per event name and per event channel its events.
  std::string pages, event_names, channels;
};

// Keeps the visits that have `value` for `dimension` ("" is the rows without one).
struct WebFilter {
  WebDimension dimension = WebDimension::kPage;
  std::string value;
};

struct WebVisitQuery {
  std::string project_id;
  std::string zone;
  std::int64_t start_ms = 0;  // visits that started in [start_ms, end_ms)
  std::int64_t end_ms = 0;
  std::optional<WebFilter> filter;
  // The dimension whose values the rows should carry; the other value columns stay "".
  std::optional<WebDimension> values_of;
};

}  // namespace sightline::storage
