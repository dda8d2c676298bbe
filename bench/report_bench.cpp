// Report latency at scale. Generates one project's events and crawler requests straight into
// the store (the rows the ingestion path writes, without HTTP), rolls the days up, then times
// the reports a dashboard loads for a 30-day selection with its previous-period comparison, and
// prints the median and worst of each over several runs.
//
//   report_bench (--data DIR | --database-url URL) [--generate EVENTS BOTS] [--runs N]
//                [--only "REPORT NAME"]   (times one report, e.g. under perf)
//                [--project ID]   (the rows' project; default "bench-project". A project made
//                                  by `sightline admin bootstrap` lets the dashboard show them:
//                                  bench/dashboard_bench.sh)
//
// With --generate the store gets EVENTS tracked events and BOTS crawler requests spread over
// the 90 days before 2026-11-01 (deterministic); without it, the rows already there are used.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "reports/bot_reports.h"
#include "reports/rollups.h"
#include "reports/web_reports.h"
#include "storage/event_repository.h"
#include "storage/report_records.h"

using namespace sightline;

namespace {

std::string bench_project = "bench-project";  // --project
constexpr std::int64_t kEnd = 1'793'491'200'000;  // 2026-11-01T00:00:00Z
constexpr std::int64_t kDayMs = 86'400'000;
constexpr int kDays = 90;

std::string Pick(std::mt19937_64& rng, const char* prefix, int count) {
  // Skewed like real traffic: a few values take most of the rows.
  std::uniform_real_distribution<double> u(0, 1);
  const int i = static_cast<int>(static_cast<double>(count) * u(rng) * u(rng));
  return prefix + std::to_string(i);
}

storage::EventRecord Event(std::mt19937_64& rng, std::int64_t i) {
  static const char* kEvents[] = {"screen_view", "screen_view",   "screen_view",  "screen_view",
                                  "screen_view", "session_start", "scroll_depth", "click"};
  storage::EventRecord e;
  e.id = "e" + std::to_string(i);
  e.project_id = bench_project;
  e.occurred_at = kEnd - static_cast<std::int64_t>(rng() % (kDays * kDayMs));
  e.received_at = e.occurred_at;
  e.event = kEvents[rng() % 8];
  e.channel = "web";
  const std::string visitor = Pick(rng, "v", 400'000);
  e.anonymous_id = visitor;
  // A visitor's visits: one per visitor and 6-hour slot.
  e.session_id = visitor + "-" + std::to_string(e.occurred_at / (6 * 3'600'000));
  e.path = "/" + Pick(rng, "page", 2000);
  e.referrer = Pick(rng, "https://ref", 300) + ".test/";
  e.country = Pick(rng, "C", 60);
  e.browser = Pick(rng, "browser", 12);
  e.os = Pick(rng, "os", 8);
  e.device = Pick(rng, "device", 4);
  e.actor_type = "human";
  return e;
}

storage::BotRequestRecord Bot(std::mt19937_64& rng, std::int64_t i) {
  static const char* kTypes[] = {"verified_bot", "verified_bot", "suspected_bot", "spoofed_bot"};
  storage::BotRequestRecord b;
  b.id = "b" + std::to_string(i);
  b.project_id = bench_project;
  b.occurred_at = kEnd - static_cast<std::int64_t>(rng() % (kDays * kDayMs));
  b.received_at = b.occurred_at;
  b.user_agent = "bench";
  const std::string name = Pick(rng, "Bot", 80);
  b.bot_name = name;
  b.bot_vendor = "Vendor" + std::to_string(std::hash<std::string>{}(name) % 25);
  b.actor_category = "category" + std::to_string(std::hash<std::string>{}(name) % 11);
  b.is_ai = std::hash<std::string>{}(name) % 3 == 0;
  b.actor_type = kTypes[rng() % 4];
  b.path = "/" + Pick(rng, "page", 5000);
  b.country = Pick(rng, "C", 40);
  return b;
}

template <class Make>
bool Generate(storage::Store& store, std::int64_t rows, Make make, const char* what) {
  std::mt19937_64 rng(rows * 31 + 7);
  const auto started = std::chrono::steady_clock::now();
  constexpr std::int64_t kBatch = 5000;
  for (std::int64_t done = 0; done < rows; done += kBatch) {
    auto written = store.Write([&](storage::Transaction& tx) -> core::Result<void> {
      using Row = decltype(make(rng, 0));
      std::vector<Row> batch;
      for (std::int64_t i = done; i < std::min(rows, done + kBatch); ++i)
        batch.push_back(make(rng, i));
      if constexpr (std::is_same_v<Row, storage::EventRecord>)
        return tx.events().InsertEvents(batch);
      else
        return tx.events().InsertBotRequests(batch);
    });
    if (!written) {
      std::fprintf(stderr, "insert failed: %s\n", written.error().internal().c_str());
      return false;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("generated %lld %s in %.0f s\n", static_cast<long long>(rows), what, seconds);
  return true;
}

// Distinct visitors of `window` counted exactly from the raw rows (the visits that started in
// it), to set the rollups' sketch estimate against.
std::int64_t ExactVisitors(storage::Store& store, reports::UtcWindow window) {
  std::int64_t visitors = -1;
  auto done = store.database().Transact(
      storage::TxMode::kRead, [&](storage::SqlSession& session) -> core::Result<void> {
        auto rows = session.Query(
            "SELECT COUNT(DISTINCT COALESCE(anonymous_id, user_id)) FROM events WHERE "
            "project_id = $1 AND is_bot = 0 AND channel <> '__analytics' AND session_id IN "
            "(SELECT session_id FROM visit_starts WHERE project_id = $1 AND started_at >= $2 "
            "AND started_at < $3)",
            {std::string(bench_project), window.start_ms, window.end_ms});
        if (!rows) return rows.error();
        visitors = rows->front().Int(0);
        return {};
      });
  return done ? visitors : -1;
}

struct Timing {
  const char* name;
  std::function<bool()> run;
  std::vector<double> ms;
};

}  // namespace

int main(int argc, char** argv) {
  storage::StoreOptions options;
  std::int64_t events = 0, bots = 0;
  int runs = 11;
  std::string only;  // one report by name; empty: all
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--data" && i + 1 < argc)
      options.sqlite_path = std::string(argv[++i]) + "/sightline.db";
    else if (arg == "--database-url" && i + 1 < argc)
      options.database_url = argv[++i];
    else if (arg == "--generate" && i + 2 < argc) {
      events = std::atoll(argv[++i]);
      bots = std::atoll(argv[++i]);
    } else if (arg == "--runs" && i + 1 < argc)
      runs = std::atoi(argv[++i]);
    else if (arg == "--only" && i + 1 < argc)
      only = argv[++i];
    else if (arg == "--project" && i + 1 < argc)
      bench_project = argv[++i];
    else {
      std::fprintf(stderr,
                   "usage: report_bench (--data DIR | --database-url URL) "
                   "[--generate EVENTS BOTS] [--runs N] [--only \"REPORT NAME\"] [--project ID]\n");
      return 2;
    }
  }
  auto opened = storage::OpenStore(options);
  if (!opened || !(*opened)->Migrate()) {
    std::fprintf(stderr, "cannot open the store\n");
    return 1;
  }
  storage::Store& store = **opened;
  if (events > 0 && !Generate(store, events, Event, "events")) return 1;
  if (bots > 0 && !Generate(store, bots, Bot, "bot requests")) return 1;

  // The last 30 days before kEnd in Europe/Berlin, compared with the 30 before.
  const reports::ReportingZone zone = *reports::ReportingZone::Find("Europe/Berlin");
  const reports::LocalDay today = zone.DayOf(kEnd - 1);
  const reports::Period period = *reports::ResolvePeriod({}, today);
  const reports::ReportWindows windows = reports::ToWindows(zone, period);
  const std::string project = bench_project;

  // Rolling the generated days up (what the first report after a bulk load pays, or the
  // server's background refresh).
  const auto roll_started = std::chrono::steady_clock::now();
  const reports::DayRange all_days{zone.DayOf(kEnd - kDays * kDayMs), today};
  if (!reports::RefreshRollups(store, project, zone, {all_days})) {
    std::fprintf(stderr, "rolling up failed\n");
    return 1;
  }
  std::printf("rolled up %d days in %.1f s\n", all_days.days(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - roll_started)
                  .count());

  if (auto summary = reports::SummarizeVisits(store, project, windows)) {
    const std::int64_t exact = ExactVisitors(store, windows.selection);
    const std::int64_t estimate = summary->current.visitors;
    std::printf("visitors over the 30 days: %lld from the rollups, %lld exact (%+.3f%%)\n",
                static_cast<long long>(estimate), static_cast<long long>(exact),
                exact > 0 ? 100.0 * static_cast<double>(estimate - exact) /
                                static_cast<double>(exact)
                          : 0.0);
  }

  // Filtered reports read the visit rows: a value of ~8% of the visits, one of ~0.4% (a page)
  // and one of ~60% (a device).
  const auto filtered = [&](storage::WebDimension dimension, std::string value) {
    reports::ReportWindows out = windows;
    out.filter = storage::WebFilter{dimension, std::move(value)};
    return out;
  };
  const reports::ReportWindows by_country = filtered(storage::WebDimension::kCountry, "C0");
  const reports::ReportWindows by_page = filtered(storage::WebDimension::kPage, "/page0");
  const reports::ReportWindows by_device = filtered(storage::WebDimension::kDevice, "device0");

  std::vector<Timing> timings = {
      {"web summary", [&] { return bool(reports::SummarizeVisits(store, project, windows)); }, {}},
      {"web timeline (day)",
       [&] {
         return bool(
             reports::VisitTimeline(store, project, zone, windows, reports::Interval::kDay));
       },
       {}},
      {"top pages",
       [&] {
         return bool(
             reports::BreakDown(store, project, storage::WebDimension::kPage, windows, 10, 0));
       },
       {}},
      {"top countries",
       [&] {
         return bool(
             reports::BreakDown(store, project, storage::WebDimension::kCountry, windows, 10, 0));
       },
       {}},
      {"page durations",
       [&] { return bool(reports::PageDurations(store, project, windows, 10, 0)); },
       {}},
      {"filtered summary (country 8%)",
       [&] { return bool(reports::SummarizeVisits(store, project, by_country)); },
       {}},
      {"filtered top pages (country 8%)",
       [&] {
         return bool(
             reports::BreakDown(store, project, storage::WebDimension::kPage, by_country, 10, 0));
       },
       {}},
      {"filtered summary (page 0.4%)",
       [&] { return bool(reports::SummarizeVisits(store, project, by_page)); },
       {}},
      {"filtered summary (device 60%)",
       [&] { return bool(reports::SummarizeVisits(store, project, by_device)); },
       {}},
      {"bot countries",
       [&] {
         return bool(reports::RankBotRequests(store, project, storage::BotGrouping::kCountry, {},
                                              windows, 10, 0));
       },
       {}},
      {"bot top paths",
       [&] {
         return bool(reports::RankBotRequests(store, project, storage::BotGrouping::kPath, {},
                                              windows, 10, 0));
       },
       {}},
      {"top bots",
       [&] {
         return bool(reports::RankBotRequests(store, project, storage::BotGrouping::kBot, {},
                                              windows, 10, 0));
       },
       {}},
      {"bot timeline (day)",
       [&] {
         return bool(
             reports::BotTimeline(store, project, zone, windows, reports::Interval::kDay, {}, 10));
       },
       {}},
  };
  for (int run = 0; run < runs; ++run) {
    for (Timing& timing : timings) {
      if (!only.empty() && only != timing.name) continue;
      const auto started = std::chrono::steady_clock::now();
      if (!timing.run()) {
        std::fprintf(stderr, "%s failed\n", timing.name);
        return 1;
      }
      timing.ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
              .count());
    }
  }
  std::printf("%-32s %10s %10s   (%d runs, 30 days + previous 30)\n", "report", "median ms",
              "max ms", runs);
  for (Timing& timing : timings) {
    if (timing.ms.empty()) continue;
    std::sort(timing.ms.begin(), timing.ms.end());
    std::printf("%-32s %10.1f %10.1f\n", timing.name, timing.ms[timing.ms.size() / 2],
                timing.ms.back());
  }
  return 0;
}
