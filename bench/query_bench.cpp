// Ad-hoc query latency (`query`, docs/query.md) at scale, against the same rows in ClickHouse.
// Generates one project's visits straight into the store (the rows ingestion writes, without
// HTTP) and, optionally, the same rows as TSV for bench/query_bench.sh to load into ClickHouse;
// then times four questions through the query layer in process — the functions the `query`
// operation calls (ParseQueryRequest, ResolvePeriod, BucketsOf, AnswerWeb over StoredVisits),
// with the system clock — and writes each answer as sorted TSV so the script can compare it
// with ClickHouse's.
//
//   query_bench (--data DIR | --database-url URL) [--generate EVENTS] [--tsv FILE]
//               [--runs N] [--answers DIR] [--only QUESTION] [--seal] [--build-rollups]
//               [--measure-blocks]
//
// With --generate the store gets EVENTS tracked events of one 30-day window (2026-10-01 to
// 2026-10-30 UTC), about 3 per visit, EVENTS/10 visitors (deterministic); without it, the rows
// already there are used. Prints "time <question> <median ms>" per question (only QUESTION's,
// `a` to `d`, with --only: for profiling one). --measure-blocks
// instead writes the project's events as column blocks in memory (docs/storage.md) and prints
// their size and decoding time (MeasureBlocks). --seal first seals every inbox event into the
// store's blocks, as the server does after --seal-after (docs/storage.md); --build-rollups
// rolls the window's days up as the first report would.
#include <algorithm>
#include <boost/json/parse.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <tuple>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "app/event_sealing.h"
#include "core/clock.h"
#include "query/query_period.h"
#include "query/stored_rows.h"
#include "reports/rollups.h"
#include "storage/event_blocks.h"
#include "storage/event_repository.h"
#include "storage/store.h"
#include "storage/transaction.h"

using namespace sightline;

namespace {

constexpr const char* kProject = "bench-project";
constexpr std::int64_t kStartMs = 1'790'812'800'000;  // 2026-10-01T00:00:00Z
constexpr std::int64_t kDayMs = 86'400'000;
constexpr int kDays = 30;

// Picks ranks 0…n-1 with probability ∝ 1/(rank+1)^s: a few values take most of the rows.
class Zipf {
 public:
  Zipf(int n, double s) {
    double sum = 0;
    for (int i = 0; i < n; ++i) cdf_.push_back(sum += 1 / std::pow(i + 1, s));
    for (double& c : cdf_) c /= sum;
  }
  int operator()(std::mt19937_64& rng) const {
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    return static_cast<int>(std::lower_bound(cdf_.begin(), cdf_.end(), u) - cdf_.begin()) %
           static_cast<int>(cdf_.size());
  }

 private:
  std::vector<double> cdf_;
};

std::string PagePath(int rank) {
  if (rank == 0) return "/";
  if (rank == 1) return "/pricing";
  static const char* kSections[] = {"/blog/post-", "/docs/page-", "/product/item-",
                                    "/help/article-"};
  return kSections[rank % 4] + std::to_string(rank);
}

// A source: its name, channel and referrer, as ingest/traffic_sources names them.
struct Source {
  std::string name, channel, referrer;
};
Source SourceOf(int rank) {
  static const Source kNamed[] = {{"Google", "Organic Search", "https://www.google.com/"},
                                  {"Direct / None", "Direct", ""},
                                  {"Bing", "Organic Search", "https://www.bing.com/"},
                                  {"Facebook", "Organic Social", "https://www.facebook.com/"},
                                  {"DuckDuckGo", "Organic Search", "https://duckduckgo.com/"},
                                  {"Twitter", "Organic Social", "https://t.co/"},
                                  {"LinkedIn", "Organic Social", "https://www.linkedin.com/"},
                                  {"Reddit", "Organic Social", "https://www.reddit.com/"},
                                  {"Hacker News", "Referral", "https://news.ycombinator.com/"},
                                  {"GitHub", "Referral", "https://github.com/"}};
  if (rank < 10) return kNamed[rank];
  const std::string host = "site" + std::to_string(rank) + ".example";
  return {host, "Referral", "https://" + host + "/"};
}

// A visit's place and device, the same on each of its events (its first event's count).
struct Visitor {
  std::string country, device, browser, os, user_agent;
};
Visitor VisitorOf(std::mt19937_64& rng) {
  static const char* kCountries[] = {"US", "DE", "GB", "FR", "IN", "CA", "NL", "BR", "ES", "IT",
                                     "PL", "SE", "AU", "JP", "CH", "AT", "BE", "DK", "NO", "FI",
                                     "IE", "PT", "CZ", "MX", "AR", "TR", "RU", "UA", "KR", "SG"};
  static const Zipf countries(30, 1.1);
  Visitor v;
  v.country = kCountries[countries(rng)];
  const int device = static_cast<int>(rng() % 100);
  v.device = device < 55 ? "Desktop" : device < 95 ? "Mobile" : "Tablet";
  const int browser = static_cast<int>(rng() % 100);
  v.browser = browser < 62   ? "Chrome"
              : browser < 82 ? "Safari"
              : browser < 90 ? "Firefox"
              : browser < 97 ? "Edge"
                             : "Opera";
  if (v.device == "Desktop") {
    static const char* kOs[] = {"Windows", "Windows", "Windows", "Mac OS", "Mac OS", "GNU/Linux"};
    v.os = kOs[rng() % 6];
  } else {
    v.os = (v.browser == "Safari" || rng() % 3 == 0) ? "iOS" : "Android";
  }
  const std::string platform = v.os == "Windows"     ? "Windows NT 10.0; Win64; x64"
                               : v.os == "Mac OS"    ? "Macintosh; Intel Mac OS X 10_15_7"
                               : v.os == "GNU/Linux" ? "X11; Linux x86_64"
                               : v.os == "iOS"       ? "iPhone; CPU iPhone OS 17_5 like Mac OS X"
                                                     : "Linux; Android 14; Pixel 8";
  v.user_agent = "Mozilla/5.0 (" + platform +
                 ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 " +
                 (v.device == "Desktop" ? "" : "Mobile ") + "Safari/537.36";
  return v;
}

// Custom properties: 20 keys, each with a small vocabulary; an event carries 0 to 3 of them.
constexpr int kPropertyKeys = 20;
constexpr const char* kKeys[kPropertyKeys] = {
    "plan", "theme",   "lang",   "ab_test",       "logged_in",  "category", "author",
    "cta",  "variant", "tier",   "layout",        "experiment", "currency", "cart_size",
    "step", "feature", "widget", "referral_code", "newsletter", "consent"};
std::vector<std::pair<std::string, std::string>> PropertiesOf(std::mt19937_64& rng) {
  static const Zipf keys(kPropertyKeys, 0.8);
  std::vector<std::pair<std::string, std::string>> properties;
  const int count = static_cast<int>(rng() % 4);
  for (int i = 0; i < count; ++i) {
    const int key = keys(rng);
    const std::string name = kKeys[key];
    if (std::any_of(properties.begin(), properties.end(),
                    [&](const auto& p) { return p.first == name; }))
      continue;
    const int vocabulary = 2 + key % 9;
    properties.emplace_back(name, name + "-" + std::to_string(rng() % vocabulary));
  }
  return properties;
}

std::string TagsJson(const std::vector<std::pair<std::string, std::string>>& properties) {
  std::string json = "{";
  for (const auto& [key, value] : properties) {
    if (json.size() > 1) json += ',';
    json += '"' + key + "\":\"" + value + '"';
  }
  return json + "}";
}

// The same event as one ClickHouse TSV line (bench/query_bench.sh's table); no value holds a
// tab, quote or backslash.
std::string TsvLine(const storage::EventRecord& e, const Source& source,
                    const std::vector<std::pair<std::string, std::string>>& properties) {
  const std::time_t seconds = e.occurred_at / 1000;
  char ts[32];
  std::strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S", std::gmtime(&seconds));
  std::string keys = "[", values = "[";
  for (const auto& [key, value] : properties) {
    if (keys.size() > 1) keys += ',', values += ',';
    keys += "'" + key + "'";
    values += "'" + value + "'";
  }
  std::string line;
  for (const std::string& field : {e.project_id, std::string(ts), *e.session_id, *e.anonymous_id,
                                   e.event, *e.path, source.name, source.referrer, *e.country,
                                   *e.device, *e.browser, *e.os, keys + "]", values + "]"}) {
    (line += field) += '\t';
  }
  line.back() = '\n';
  return line;
}

// One visit of 1 to 5 events, a pageview first, each 1 to 300 s after the one before (whole
// seconds, so that ClickHouse's DateTime orders them the same way).
// A UUID as ingestion writes them: v7 (the time in its first 48 bits) for event ids, v4 for
// session and anonymous ids; random bits from `rng`, so a run is deterministic.
std::string UuidOf(std::mt19937_64& rng, std::optional<std::int64_t> unix_ms) {
  static constexpr char kHex[] = "0123456789abcdef";
  const std::uint64_t high = unix_ms ? (static_cast<std::uint64_t>(*unix_ms) << 16) |
                                           0x7000u | (rng() & 0xfffu)
                                     : (rng() & ~0xf000ull) | 0x4000u;
  const std::uint64_t low = (rng() & 0x3fffffffffffffffull) | 0x8000000000000000ull;
  std::string text;
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) text.push_back('-');
    const std::uint64_t word = i < 16 ? high : low;
    text.push_back(kHex[(word >> (60 - 4 * (i % 16))) & 0xf]);
  }
  return text;
}

// The same visitor number always has the same anonymous id.
std::string VisitorId(std::int64_t number) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(number) * 2654435761u + 1);
  return UuidOf(rng, std::nullopt);
}

void AddVisit(std::mt19937_64& rng, std::int64_t visitors, std::int64_t room,
              std::vector<storage::EventRecord>& events, std::string& tsv) {
  static const Zipf pages(5000, 1.0), sources(300, 1.1);
  const Source source = SourceOf(sources(rng));
  const Visitor visitor = VisitorOf(rng);
  const std::string visitor_id = VisitorId(static_cast<std::int64_t>(rng() % visitors));
  const std::string session_id = UuidOf(rng, std::nullopt);
  std::int64_t at =
      kStartMs + static_cast<std::int64_t>(rng() % ((kDays * kDayMs - 3'600'000) / 1000)) * 1000;
  // The last visit is cut to the room left, so the store gets exactly the events asked for.
  const int count = static_cast<int>(std::min<std::int64_t>(room, 1 + rng() % 5));
  for (int i = 0; i < count; ++i) {
    storage::EventRecord e;
    e.project_id = kProject;
    e.occurred_at = e.received_at = at;
    e.id = UuidOf(rng, e.received_at);
    const int kind = static_cast<int>(rng() % 10);
    e.event = i == 0 || kind < 8 ? "screen_view" : kind == 8 ? "click" : "signup";
    e.channel = "web";
    e.anonymous_id = visitor_id;
    e.session_id = session_id;
    e.path = PagePath(pages(rng));
    e.referrer = source.referrer;
    e.traffic_source = source.name;
    e.traffic_channel = source.channel;
    e.country = visitor.country;
    e.device = visitor.device;
    e.browser = visitor.browser;
    e.os = visitor.os;
    e.user_agent = visitor.user_agent;
    // What enrichment adds to a browser's event (ingest/enrichment.cpp).
    e.browser_version = "130.0";
    e.os_version = visitor.os == "iOS" ? "17.5" : visitor.os == "Android" ? "14" : "";
    e.device_confidence = 0.9;
    e.signal_source = "user_agent";
    e.actor_type = "human";
    e.verification_method = "none";
    e.actor_confidence = 0.95;
    const auto properties = PropertiesOf(rng);
    e.tags_json = TagsJson(properties);
    tsv += TsvLine(e, source, properties);
    events.push_back(std::move(e));
    at += (1 + static_cast<std::int64_t>(rng() % 300)) * 1000;
  }
}

bool Generate(storage::Store& store, std::int64_t rows, const std::string& tsv_path) {
  std::mt19937_64 rng(rows * 31 + 7);
  std::ofstream tsv_file;
  if (!tsv_path.empty()) tsv_file.open(tsv_path);
  const auto started = std::chrono::steady_clock::now();
  std::int64_t written = 0, visit = 0;
  while (written < rows) {
    std::vector<storage::EventRecord> batch;
    std::string tsv;
    for (std::int64_t room = rows - written; batch.size() < 5000 && room > 0;
         room = rows - written - static_cast<std::int64_t>(batch.size())) {
      ++visit;
      AddVisit(rng, std::max<std::int64_t>(1, rows / 10), room, batch, tsv);
    }
    auto inserted =
        store.Write([&](storage::Transaction& tx) { return tx.events().InsertEvents(batch); });
    if (!inserted) {
      std::fprintf(stderr, "insert failed: %s\n", inserted.error().internal().c_str());
      return false;
    }
    if (tsv_file.is_open()) tsv_file << tsv;
    written += static_cast<std::int64_t>(batch.size());
  }
  std::printf("generated %lld events in %lld visits in %.0f s\n", static_cast<long long>(written),
              static_cast<long long>(visit),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return true;
}

struct Question {
  const char* name;
  const char* body;  // the `query` request, as a client sends it
};

// The four questions bench/query_bench.sh asks ClickHouse too, in the same order.
const Question kQuestions[] = {
    {"a", R"({"metrics":["visitors"],"date_range":["2026-10-01","2026-10-30"],
              "dimensions":["visit:source"],"filters":[["is","visit:country",["DE"]]]})"},
    {"b", R"({"metrics":["visitors","pageviews"],"date_range":["2026-10-01","2026-10-30"],
              "dimensions":["event:page"],
              "filters":[["is","visit:country",["US"]],["is","visit:device",["Mobile"]],
                         ["contains","event:page",["/blog"]]]})"},
    {"c", R"({"metrics":["visitors","events"],"date_range":["2026-10-01","2026-10-30"],
              "dimensions":["event:props:category"]})"},
    {"d", R"({"metrics":["visitors"],"date_range":["2026-10-01","2026-10-30"],
              "dimensions":["time:day"],
              "filters":[["is","visit:device",["Desktop"]],["is","visit:source",["Google"]]]})"},
};

// What the `query` operation does for a project in UTC created on the window's first day.
core::Result<query::QueryAnswer> Ask(storage::Store& store, const core::Clock& clock,
                                     const reports::ReportingZone& zone, const char* body) {
  auto request = query::ParseQueryRequest(boost::json::parse(body));
  if (!request) return request.error();
  auto period = query::ResolvePeriod(*request, zone, clock.NowMillis(), zone.DayOf(kStartMs));
  if (!period) return period.error();
  auto buckets = query::BucketsOf(*request, zone, period->days, period->window);
  if (!buckets) return buckets.error();
  query::ReadBudget budget(clock);
  return query::AnswerWeb(*request,
                          query::StoredVisits(store, budget, kProject, zone, period->days,
                                              period->window, query::ReadingOf(*request)),
                          *buckets);
}

// The answer's rows as TSV (dimensions, then integer metrics), sorted, for comparison.
void WriteAnswer(const query::QueryAnswer& answer, const std::string& path) {
  std::vector<std::string> lines;
  for (const query::ResultRow& row : answer.rows) {
    std::string line;
    for (const std::string& value : row.dimensions) (line += value) += '\t';
    for (const query::MetricValue& value : row.metrics)
      (line += std::to_string(value.integer)) += '\t';
    line.back() = '\n';
    lines.push_back(std::move(line));
  }
  std::sort(lines.begin(), lines.end());
  std::ofstream out(path);
  for (const std::string& line : lines) out << line;
}

// Asks `question` `runs` times and prints the median; the first answer goes to `answers`.
bool TimeQuestion(storage::Store& store, const core::Clock& clock,
                  const reports::ReportingZone& zone, const Question& question, int runs,
                  const std::string& answers) {
  std::vector<double> ms;
  for (int run = 0; run < runs; ++run) {
    const auto started = std::chrono::steady_clock::now();
    auto answer = Ask(store, clock, zone, question.body);
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count());
    if (!answer) {
      std::fprintf(stderr, "question %s failed: %s %s\n", question.name,
                   answer.error().message().c_str(), answer.error().internal().c_str());
      return false;
    }
    if (run == 0 && !answers.empty())
      WriteAnswer(*answer, answers + "/" + question.name + ".sightline.tsv");
  }
  std::sort(ms.begin(), ms.end());
  std::printf("time %s %.1f\n", question.name, ms[ms.size() / 2]);
  std::fflush(stdout);
  return true;
}

// The compact store's format on these rows (docs/storage.md, "Event blocks"): every event of
// the project read back, one block per UTC hour of its visit's start, a visit's events together
// in time order; prints the blocks' bytes per event and the median time to decode the columns
// a question like (a) reads (session, visitor, time, name, source, country) from every block.
bool MeasureBlocks(storage::Store& store, int runs) {
  std::vector<storage::EventRecord> events;
  storage::EventQuery page;
  page.project_id = kProject;
  page.limit = 50'000;
  for (;;) {
    auto rows = store.Read([&](storage::Transaction& tx) { return tx.events().ListEvents(page); });
    if (!rows) return false;
    if (rows->empty()) break;
    page.before = std::make_pair(rows->back().occurred_at, rows->back().id);
    std::move(rows->begin(), rows->end(), std::back_inserter(events));
  }
  std::map<std::string, std::int64_t> starts;
  for (const auto& e : events) {
    auto [it, added] = starts.try_emplace(e.session_id.value_or(""), e.occurred_at);
    if (!added) it->second = std::min(it->second, e.occurred_at);
  }
  const auto start_of = [&](const storage::EventRecord& e) {
    return e.session_id ? starts[*e.session_id] : e.occurred_at;
  };
  std::sort(events.begin(), events.end(), [&](const auto& a, const auto& b) {
    return std::tuple(start_of(a), a.session_id, a.occurred_at, a.id) <
           std::tuple(start_of(b), b.session_id, b.occurred_at, b.id);
  });
  std::vector<std::string> blocks;
  for (std::size_t from = 0; from < events.size();) {
    const std::int64_t hour = start_of(events[from]) / 3'600'000;
    std::size_t to = from;
    while (to < events.size() && start_of(events[to]) / 3'600'000 == hour) ++to;
    blocks.push_back(storage::EncodeEvents(
        std::span<const storage::EventRecord>(events.data() + from, to - from)));
    from = to;
  }
  std::size_t bytes = 0;
  for (const std::string& block : blocks) bytes += block.size();
  std::printf("blocks %zu events %zu bytes %zu bytes_per_event %.1f\n", blocks.size(),
              events.size(), bytes, static_cast<double>(bytes) / std::max<std::size_t>(1, events.size()));
  using C = storage::EventColumn;
  std::vector<double> ms;
  for (int run = 0; run < runs; ++run) {
    const auto started = std::chrono::steady_clock::now();
    std::size_t rows = 0;
    for (const std::string& block : blocks) {
      auto reader = storage::blocks::BlockReader::Open(block);
      if (!reader) return false;
      for (const C text : {C::kSessionId, C::kAnonymousId, C::kEvent, C::kTrafficSource, C::kCountry})
        rows += reader->Text(static_cast<storage::blocks::ColumnId>(text))->codes.size();
      rows += reader->Integers(static_cast<storage::blocks::ColumnId>(C::kOccurredAt))->size();
    }
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                           started).count());
    if (rows != events.size() * 6) return false;
  }
  std::sort(ms.begin(), ms.end());
  std::printf("decode_six_columns_ms %.1f\n", ms[ms.size() / 2]);
  return true;
}

// Seals every inbox event into the compact store's blocks, as the server's sealing job does
// (kSealBatch events a transaction), then compacts an SQLite file with VACUUM: sealed as they
// arrive, a store's freed pages go back a few at a time, but a whole backlog sealed at once
// leaves gigabytes free all through the file, which PRAGMA incremental_vacuum gives back far
// more slowly (18+ minutes at 10M events, where VACUUM takes 14 s); prints the time.
bool SealAll(storage::Store& store) {
  const auto started = std::chrono::steady_clock::now();
  const std::int64_t now = core::SystemClock().NowMillis();
  std::size_t sealed = 0;
  for (;;) {
    auto batch = store.Write([&](storage::Transaction& tx) {
      return tx.events().SealEvents(kProject, std::numeric_limits<std::int64_t>::max(),
                                    app::kSealBatch, now);
    });
    if (!batch) {
      std::fprintf(stderr, "sealing failed: %s\n", batch.error().internal().c_str());
      return false;
    }
    sealed += *batch;
    if (*batch < app::kSealBatch) break;
  }
  if (store.database().dialect() == storage::Dialect::kSqlite) {
    auto vacuumed = store.database().Transact(
        storage::TxMode::kAutocommit,
        [](storage::SqlSession& session) { return session.ExecuteScript("VACUUM"); });
    if (!vacuumed) return false;
  }
  std::printf("sealed %zu events in %.1f s\n", sealed,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return true;
}

// Rolls the window's days up as the reports would (reports/rollups.h), timed, so the store's
// size counts the rollups too.
bool BuildRollups(storage::Store& store) {
  const auto started = std::chrono::steady_clock::now();
  const reports::ReportingZone zone = *reports::ReportingZone::Find("UTC");
  const reports::DayRange days{zone.DayOf(kStartMs), zone.DayOf(kStartMs) + kDays - 1};
  if (auto built = reports::RefreshRollups(store, kProject, zone, {days}); !built) {
    std::fprintf(stderr, "rollups failed: %s\n", built.error().internal().c_str());
    return false;
  }
  std::printf("rolled up %d days in %.1f s\n", kDays,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  storage::StoreOptions options;
  std::int64_t events = 0;
  int runs = 5;
  std::string tsv, answers, only;
  bool measure_blocks = false, seal = false, rollups = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--data" && i + 1 < argc)
      options.sqlite_path = std::string(argv[++i]) + "/sightline.db";
    else if (arg == "--database-url" && i + 1 < argc)
      options.database_url = argv[++i];
    else if (arg == "--generate" && i + 1 < argc)
      events = std::atoll(argv[++i]);
    else if (arg == "--tsv" && i + 1 < argc)
      tsv = argv[++i];
    else if (arg == "--runs" && i + 1 < argc)
      runs = std::atoi(argv[++i]);
    else if (arg == "--answers" && i + 1 < argc)
      answers = argv[++i];
    else if (arg == "--only" && i + 1 < argc)
      only = argv[++i];
    else if (arg == "--measure-blocks")
      measure_blocks = true;
    else if (arg == "--seal")
      seal = true;
    else if (arg == "--build-rollups")
      rollups = true;
    else {
      std::fprintf(stderr,
                   "usage: query_bench (--data DIR | --database-url URL) [--generate EVENTS] "
                   "[--tsv FILE] [--runs N] [--answers DIR] [--only QUESTION] [--seal] [--build-rollups] "
                   "[--measure-blocks]\n");
      return 2;
    }
  }
  auto opened = storage::OpenStore(options);
  if (!opened || !(*opened)->Migrate()) {
    std::fprintf(stderr, "cannot open the store\n");
    return 1;
  }
  storage::Store& store = **opened;
  if (events > 0 && !Generate(store, events, tsv)) return 1;
  if (seal && !SealAll(store)) return 1;
  if (rollups && !BuildRollups(store)) return 1;
  if (measure_blocks) return MeasureBlocks(store, std::max(runs, 1)) ? 0 : 1;
  if (runs <= 0) return 0;  // generation only

  const core::SystemClock clock;
  const reports::ReportingZone zone = *reports::ReportingZone::Find("UTC");
  for (const Question& question : kQuestions) {
    if (!only.empty() && only != question.name) continue;
    if (!TimeQuestion(store, clock, zone, question, runs, answers)) return 1;
  }
  return 0;
}
