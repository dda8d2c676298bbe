// AI-visibility report latency at scale. Generates a year of daily runs (by default 200 prompts
// × 4 engines × 3 repetitions = 2,400 answers a day, 876,000 in all, with their mentions and
// citations) through the store's own write path, then times the reports the operations compute
// — each over a 30-day selection with its previous period, and the visibility report over the
// whole year — and prints the median and worst of each over several runs, beside the cost of
// merely counting the window's answers (the floor any report over them pays).
//
//   ai_visibility_bench (--data DIR | --database-url URL) [--generate PROMPTS ENGINES REPS DAYS]
//                       [--runs N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "storage/ai_visibility_repository.h"
#include "storage/sql.h"
#include "storage/store.h"
#include "reports/calendar.h"
#include "visibility/visibility_reports.h"

using namespace sightline;

namespace {

constexpr char kProject[] = "bench-ai-project";
constexpr std::int64_t kEnd = 1'793'491'200'000;  // 2026-11-01T00:00:00Z
constexpr std::int64_t kDayMs = 86'400'000;

struct Shape {
  int prompts = 200, engines = 4, reps = 3, days = 365;
};

std::vector<storage::AiBrandRecord> Brands() {
  std::vector<storage::AiBrandRecord> brands;
  const char* names[] = {"Acme", "Globex", "Initech", "Umbrella", "Hooli"};
  for (int i = 0; i < 5; ++i) {
    storage::AiBrandRecord b;
    b.id = "brand-" + std::to_string(i);
    b.project_id = kProject;
    b.name = names[i];
    b.domains = {std::string(names[i]) + ".example"};
    b.is_own = i == 0;
    brands.push_back(b);
  }
  return brands;
}

// One answer's mentions and citations, drawn like engines answer: each brand named with its
// own probability (per prompt), in a random order; up to four citations, some owned.
void Draw(std::mt19937_64& rng, int prompt, storage::AiAnswerRecord& answer,
          std::vector<storage::AiMentionRecord>& mentions,
          std::vector<storage::AiCitationRecord>& citations) {
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<int> named;
  for (int b = 0; b < 5; ++b) {
    const double p = 0.15 + 0.6 * (((prompt * 7 + b * 13) % 10) / 10.0);
    if (u(rng) < p) named.push_back(b);
  }
  std::shuffle(named.begin(), named.end(), rng);
  for (std::size_t i = 0; i < named.size(); ++i) {
    storage::AiMentionRecord m;
    m.brand_id = "brand-" + std::to_string(named[i]);
    m.rank = static_cast<std::int64_t>(i + 1);
    m.first_offset = static_cast<std::int64_t>(40 * i);
    m.occurrences = 1 + static_cast<std::int64_t>(rng() % 3);
    m.snippet = "A sentence naming the brand.";
    mentions.push_back(m);
  }
  const int count = static_cast<int>(rng() % 5);
  for (int c = 0; c < count; ++c) {
    storage::AiCitationRecord citation;
    citation.position = c + 1;
    const int brand = static_cast<int>(rng() % 8);  // 3 of 8: elsewhere
    const std::string domain = brand < 5 ? Brands()[brand].domains[0] : "site" + std::to_string(rng() % 300) + ".example";
    citation.path = "/page" + std::to_string(rng() % 50);
    citation.url = "https://" + domain + citation.path;
    citation.domain = domain;
    citation.origin = c % 2 ? "text" : "provider";
    citation.owned = brand == 0;
    if (brand < 5) citation.brand_id = "brand-" + std::to_string(brand);
    citations.push_back(citation);
    ++answer.citations;
    if (citation.owned) ++answer.owned_citations;
  }
}

bool Generate(storage::Store& store, const Shape& shape) {
  std::mt19937_64 rng(42);
  auto setup = store.Write([&](storage::Transaction& tx) -> core::Result<void> {
    for (const auto& brand : Brands()) {
      if (auto done = tx.ai_visibility().InsertAiBrand(brand); !done) return done;
    }
    std::vector<storage::AiPromptRecord> prompts;
    for (int p = 0; p < shape.prompts; ++p) {
      storage::AiPromptRecord prompt;
      prompt.id = "prompt-" + std::to_string(p);
      prompt.project_id = kProject;
      prompt.text = "question " + std::to_string(p);
      prompt.topic = "topic-" + std::to_string(p % 10);
      prompts.push_back(prompt);
    }
    if (auto done = tx.ai_visibility().InsertAiPrompts(prompts); !done) return done;
    for (int e = 0; e < shape.engines; ++e) {
      storage::AiEngineRecord engine;
      engine.id = "engine-" + std::to_string(e);
      engine.project_id = kProject;
      engine.name = "engine " + std::to_string(e);
      engine.provider = "openai";
      engine.model = "m";
      engine.params = "{}";
      if (auto done = tx.ai_visibility().InsertAiEngine(engine); !done) return done;
    }
    return {};
  });
  if (!setup) return false;
  const auto started = std::chrono::steady_clock::now();
  for (int day = 0; day < shape.days; ++day) {
    const std::int64_t day_start = kEnd - (shape.days - day) * kDayMs;
    auto written = store.Write([&](storage::Transaction& tx) -> core::Result<void> {
      auto repository = tx.ai_visibility();
      storage::AiRunRecord run{"run-" + std::to_string(day), kProject, "schedule",
                               "day:" + std::to_string(day), "completed", std::nullopt,
                               day_start, day_start + 3'600'000};
      if (auto done = repository.InsertAiRun(run); !done) return done;
      std::vector<storage::AiAnswerRecord> answers;
      for (int p = 0; p < shape.prompts; ++p) {
        for (int e = 0; e < shape.engines; ++e) {
          for (int r = 1; r <= shape.reps; ++r) {
            storage::AiAnswerRecord a;
            a.id = "a-" + std::to_string(day) + "-" + std::to_string(p) + "-" +
                   std::to_string(e) + "-" + std::to_string(r);
            a.run_id = run.id;
            a.project_id = kProject;
            a.prompt_id = "prompt-" + std::to_string(p);
            a.engine_id = "engine-" + std::to_string(e);
            a.repetition = r;
            a.topic = "topic-" + std::to_string(p % 10);
            a.created_at = day_start;
            a.status = "running";  // as if claimed, until 1: finished under that lease below
            a.lease_until = 1;
            answers.push_back(a);
          }
        }
      }
      if (auto done = repository.InsertAiAnswers(answers); !done) return done;
      for (storage::AiAnswerRecord& a : answers) {
        std::vector<storage::AiMentionRecord> mentions;
        std::vector<storage::AiCitationRecord> citations;
        Draw(rng, std::stoi(a.prompt_id.substr(7)), a, mentions, citations);
        a.status = "done";
        a.answered_at = day_start + static_cast<std::int64_t>(rng() % 3'600'000);
        a.answer = "An answer.";
        a.input_tokens = 120;
        a.output_tokens = 300;
        if (auto done = repository.FinishAiAnswer(a, 1, mentions, citations); !done) {
          return done.error();
        }
      }
      return {};
    });
    if (!written) {
      std::fprintf(stderr, "day %d: %s\n", day, written.error().message().c_str());
      return false;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("generated %d days × %d answers in %.1f s\n", shape.days,
              shape.prompts * shape.engines * shape.reps, seconds);
  return true;
}

struct Timed {
  std::string name;
  std::function<bool(storage::Transaction&)> body;
};

storage::AiReportQuery Query(std::int64_t days, const std::string& group_by = "",
                             std::int64_t back = 0) {
  const std::int64_t end = kEnd - back * kDayMs;
  return {kProject, end - days * kDayMs, end, "", "", "", group_by, "UTC"};
}

}  // namespace

int main(int argc, char** argv) {
  storage::StoreOptions options;
  Shape shape;
  bool generate = false;
  int runs = 11;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--data" && i + 1 < argc) {
      options.sqlite_path = std::string(argv[++i]) + "/sightline.db";
    } else if (arg == "--database-url" && i + 1 < argc) {
      options.database_url = argv[++i];
    } else if (arg == "--generate" && i + 4 < argc) {
      generate = true;
      shape = {std::atoi(argv[i + 1]), std::atoi(argv[i + 2]), std::atoi(argv[i + 3]),
               std::atoi(argv[i + 4])};
      i += 4;
    } else if (arg == "--runs" && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr,
                   "usage: ai_visibility_bench (--data DIR | --database-url URL) "
                   "[--generate PROMPTS ENGINES REPS DAYS] [--runs N]\n");
      return 2;
    }
  }
  auto opened = storage::OpenStore(options);
  if (!opened || !(*opened)->Migrate()) {
    std::fprintf(stderr, "cannot open the store\n");
    return 1;
  }
  storage::Store& store = **opened;
  if (generate && !Generate(store, shape)) return 1;
  // The day rollups every report reads, built from the answers (what the first report after a
  // zone change does; afterwards each answer adds itself as it is stored).
  const auto rebuilt = std::chrono::steady_clock::now();
  auto utc = reports::ReportingZone::Find("UTC");
  if (!utc || !visibility::PrepareRollups(store, kProject, *utc, kEnd)) {
    std::fprintf(stderr, "cannot build the rollups\n");
    return 1;
  }
  std::printf("rollups built from the answers in %.1f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - rebuilt).count());
  const auto brands = Brands();
  auto visibility = [&](std::int64_t days, std::string group) {
    return [=](storage::Transaction& tx) {
      return visibility::ReadVisibility(tx, Query(days, group), brands) &&
             visibility::ReadVisibility(tx, Query(days, group, days), brands);
    };
  };
  auto sources = [&](bool by_page) {
    return [=](storage::Transaction& tx) {
      auto shown = tx.ai_visibility().AiCitedSourcesOf(Query(30), by_page, 20);
      if (!shown) return false;
      std::vector<std::string> values;
      for (const auto& source : *shown) values.push_back(source.value);
      return static_cast<bool>(
          tx.ai_visibility().AiCitedSourcesOf(Query(30, "", 30), by_page, 20, &values));
    };
  };
  const std::vector<Timed> reports = {
      {"sum the window's answers, no rollup (reference)",
       [](storage::Transaction& tx) {
         auto q = Query(30);
         q.zone.clear();
         return static_cast<bool>(tx.ai_visibility().AiAnswerTotalsOf(q));
       }},
      {"visibility by brand, 30 days + previous", visibility(30, "")},
      {"visibility by engine, 30 days + previous", visibility(30, "engine")},
      {"visibility by topic, 30 days + previous", visibility(30, "topic")},
      {"visibility by prompt, 30 days + previous", visibility(30, "prompt")},
      {"prompt gaps, 30 days", [&](storage::Transaction& tx) {
         return static_cast<bool>(visibility::ReadVisibility(tx, Query(30, "prompt"), brands));
       }},
      {"cited domains, 30 days + previous", sources(false)},
      {"cited pages, 30 days + previous", sources(true)},
      {"loop pages, 30 days + previous",
       [](storage::Transaction& tx) {
         return visibility::ReadLoop(tx, kProject, {kEnd - 30 * kDayMs, kEnd, "UTC"}) &&
                visibility::ReadLoop(tx, kProject, {kEnd - 60 * kDayMs, kEnd - 30 * kDayMs, "UTC"});
       }},
      {"visibility by brand, 365 days", [&](storage::Transaction& tx) {
         return static_cast<bool>(visibility::ReadVisibility(tx, Query(365), brands));
       }},
      {"visibility by prompt, 365 days", [&](storage::Transaction& tx) {
         return static_cast<bool>(visibility::ReadVisibility(tx, Query(365, "prompt"), brands));
       }},
      {"visibility by brand from the answers, 30 days (no rollups)",
       [&](storage::Transaction& tx) {
         auto q = Query(30);
         q.zone.clear();
         return static_cast<bool>(visibility::ReadVisibility(tx, q, brands));
       }},
  };
  std::printf("%-45s %10s %10s %8s\n", "report", "median ms", "worst ms", "× ref");
  double reference = 0;
  for (const Timed& report : reports) {
    std::vector<double> ms;
    for (int run = 0; run < runs; ++run) {
      const auto started = std::chrono::steady_clock::now();
      auto ok = store.Read([&](storage::Transaction& tx) -> core::Result<bool> {
        return report.body(tx);
      });
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                             started).count());
      if (!ok || !*ok) {
        std::fprintf(stderr, "%s failed\n", report.name.c_str());
        return 1;
      }
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    if (reference == 0) reference = median;
    std::printf("%-45s %10.1f %10.1f %8.1f\n", report.name.c_str(), median, ms.back(),
                median / reference);
    std::fflush(stdout);
  }
  return 0;
}
