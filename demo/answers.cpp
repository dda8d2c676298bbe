#include "demo/answers.h"

#include <algorithm>
#include <random>
#include <vector>

#include "core/crypto.h"
#include "demo/sample_site.h"
#include "jobs/job_status.h"
#include "reports/calendar.h"
#include "storage/ai_visibility_repository.h"
#include "visibility/extraction.h"
#include "visibility/runs.h"
#include "visibility/visibility_reports.h"

namespace sightline::demo {
namespace {

using core::Result;
using Rng = std::mt19937_64;
constexpr std::int64_t kWeekMs = 7 * 86'400'000LL;
constexpr int kWeeks = 8;

struct Brand {
  std::string name, alias, domain;
  bool own = false;
  std::string strength;  // what the script says it is good at
};

const std::vector<Brand>& Brands() {
  static const std::vector<Brand> brands = {
      {"Northwind Outfitters", "Northwind", std::string(kSampleHost), true,
       "trail-tested gear with honest weights and 60-day returns"},
      {"Summit Supply Co.", "Summit Supply", "summitsupply.example", false,
       "a wide range and frequent sales"},
      {"Ridgeline Gear", "Ridgeline", "ridgeline.example", false,
       "durable, heavier expedition gear"},
      {"Trailhead Co-op", "Trailhead", "trailhead.example", false,
       "member discounts and in-store fitting"},
  };
  return brands;
}

struct Prompt {
  std::string text, topic, page;  // page: the own page an answer cites
};

const std::vector<Prompt>& Prompts() {
  static const std::vector<Prompt> prompts = {
      {"What is the best lightweight backpack for weekend hikes?", "backpacks",
       "/products/summit-40-backpack"},
      {"Which 40 litre backpack should I buy for my first overnight trip?", "backpacks",
       "/blog/how-to-choose-a-backpack"},
      {"Recommend a waterproof shell jacket for rainy mountain hikes.", "rain jackets",
       "/products/alpine-shell-jacket"},
      {"How should I layer for a winter hike?", "rain jackets", "/blog/layering-for-winter-hikes"},
      {"What are the best trail running shoes this year?", "trail shoes",
       "/blog/best-trail-running-shoes"},
      {"Where can I buy trail running shoes with free returns?", "trail shoes",
       "/products/trail-runner-2"},
      {"What is a good ultralight two-person tent?", "tents", "/products/ultralight-tent"},
      {"Which outdoor gear shops test their products themselves?", "tents", "/about"},
  };
  return prompts;
}

struct Engine {
  std::string name, provider, model;
  bool web_search = false;  // answers with the provider's citation fields
};

const std::vector<Engine>& Engines() {
  static const std::vector<Engine> engines = {
      {"Assistant (scripted)", "openai", "scripted-assistant", false},
      {"Answer engine (scripted)", "perplexity", "scripted-answer-engine", true},
  };
  return engines;
}

struct ScriptedAnswer {
  std::string text;
  std::vector<visibility::ProvidedCitation> citations;
};

// One answer of the script: brands in an order that favours the own brand more each week,
// with a link to the own page when it is named, and the answer engine's sources.
ScriptedAnswer Script(Rng& rng, const Prompt& prompt, const Engine& engine, int week) {
  std::vector<const Brand*> named;
  const double own_chance = 0.35 + 0.04 * week + (engine.web_search ? 0.08 : 0.0);
  for (const Brand& brand : Brands()) {
    const double chance = brand.own ? own_chance : 0.55;
    if (std::uniform_real_distribution<double>(0, 1)(rng) < chance) named.push_back(&brand);
  }
  std::shuffle(named.begin(), named.end(), rng);
  ScriptedAnswer out;
  out.text = "Here are good options for \"" + prompt.text + "\":\n\n";
  if (named.empty()) {
    out.text += "It depends on your trips: compare weight, fit and the return policy, and try "
                "gear on before a long outing.\n";
  }
  int rank = 0;
  for (const Brand* brand : named) {
    out.text += std::to_string(++rank) + ". **" + brand->name + "**: known for " +
                brand->strength + ".";
    if (brand->own && !engine.web_search) {
      out.text += " See " + std::string(kSampleOrigin) + prompt.page + ".";
    }
    out.text += "\n";
  }
  if (engine.web_search) {
    for (const Brand* brand : named) {
      const std::string path = brand->own ? prompt.page : "/";
      out.citations.push_back({"https://" + brand->domain + path, brand->name});
    }
    out.citations.push_back({"https://www.reddit.com/r/Ultralight/", "r/Ultralight"});
  }
  return out;
}

Result<std::vector<storage::AiBrandRecord>> AddBrands(storage::Transaction& tx,
                                                      const std::string& project_id,
                                                      std::int64_t now) {
  std::vector<storage::AiBrandRecord> out;
  for (const Brand& brand : Brands()) {
    storage::AiBrandRecord record;
    record.id = core::NewUuidV7(now);
    record.project_id = project_id;
    record.name = brand.name;
    record.aliases = {brand.alias};
    record.domains = {brand.domain};
    record.is_own = brand.own;
    record.created_at = record.updated_at = now;
    if (auto inserted = tx.ai_visibility().InsertAiBrand(record); !inserted) {
      return inserted.error();
    }
    out.push_back(std::move(record));
  }
  return out;
}

Result<void> AddPromptsAndEngines(storage::Transaction& tx, const std::string& project_id,
                                  std::int64_t now, std::vector<storage::AiEngineRecord>& engines) {
  std::vector<storage::AiPromptRecord> prompts;
  for (const Prompt& prompt : Prompts()) {
    storage::AiPromptRecord record;
    record.id = core::NewUuidV7(now);
    record.project_id = project_id;
    record.text = prompt.text;
    record.topic = prompt.topic;
    record.language = "en";
    record.created_at = record.updated_at = now;
    prompts.push_back(std::move(record));
  }
  if (auto inserted = tx.ai_visibility().InsertAiPrompts(prompts); !inserted) {
    return inserted.error();
  }
  for (const Engine& engine : Engines()) {
    storage::AiEngineRecord record;
    record.id = core::NewUuidV7(now);
    record.project_id = project_id;
    record.name = engine.name;
    record.provider = engine.provider;
    record.model = engine.model;
    record.web_search = engine.web_search;
    record.params = "{}";
    record.created_at = record.updated_at = now;
    if (auto inserted = tx.ai_visibility().InsertAiEngine(record); !inserted) {
      return inserted.error();
    }
    engines.push_back(std::move(record));
  }
  return {};
}

const Engine& ScriptOf(const std::vector<storage::AiEngineRecord>& engines,
                       const std::string& engine_id) {
  for (std::size_t i = 0; i < engines.size(); ++i) {
    if (engines[i].id == engine_id) return Engines()[i];
  }
  return Engines().front();
}

const Prompt& PromptOf(const std::string& text) {
  for (const Prompt& prompt : Prompts()) {
    if (prompt.text == text) return prompt;
  }
  return Prompts().front();
}

// Claims each queued answer of `run` and finishes it with the script's text, as the runner
// finishes a model's reply.
Result<std::int64_t> AnswerRun(storage::Transaction& tx, const storage::AiRunRecord& run,
                               const std::vector<storage::AiBrandRecord>& brands,
                               const std::vector<storage::AiEngineRecord>& engines,
                               const reports::ReportingZone& zone, int week, Rng& rng) {
  auto repository = tx.ai_visibility();
  storage::AiVisibilityRepository::AnswerFilter filter;
  filter.run_id = run.id;
  filter.limit = 1000;
  auto queued = repository.ListAiAnswers(run.project_id, filter);
  if (!queued) return queued.error();
  auto prompts = repository.ListAiPrompts(run.project_id);
  if (!prompts) return prompts.error();
  std::int64_t answered = 0, second = 0;
  for (storage::AiAnswerRecord answer : *queued) {
    const std::int64_t at = run.created_at + 1000 * (++second);
    const std::int64_t held = at + 60'000;
    auto claimed = repository.ClaimAiAnswer(answer.id, at, held);
    if (!claimed) return claimed.error();
    const auto prompt = std::find_if(prompts->begin(), prompts->end(),
                                     [&](const auto& p) { return p.id == answer.prompt_id; });
    if (!*claimed || prompt == prompts->end()) continue;
    const Engine& engine = ScriptOf(engines, answer.engine_id);
    const ScriptedAnswer script = Script(rng, PromptOf(prompt->text), engine, week);
    answer.answered_at = at;
    answer.answer = script.text;
    answer.model = engine.model;
    answer.input_tokens = static_cast<std::int64_t>(prompt->text.size() / 4);
    answer.output_tokens = static_cast<std::int64_t>(script.text.size() / 4);
    const auto mentions = visibility::ExtractMentions(answer.answer, brands);
    const auto citations = visibility::ExtractCitations(answer.answer, script.citations, brands);
    for (const auto& c : citations) {
      ++answer.citations;
      answer.owned_citations += c.owned ? 1 : 0;
    }
    auto finished = repository.FinishAiAnswer(answer, held, mentions, citations,
                                              visibility::RollupDayOf(zone, at));
    if (!finished) return finished.error();
    answered += *finished ? 1 : 0;
  }
  auto ended = repository.SetAiRunStatus(
      run.id, jobs::StatusName(jobs::JobKind::kAiRun, jobs::JobStatus::kCompleted),
      run.created_at + 1000 * (second + 1));
  if (!ended) return ended.error();
  return answered;
}

}  // namespace

Result<AnswerCounts> GenerateAnswers(storage::Store& store, const storage::ProjectRecord& project,
                                     const std::string& user_id, std::int64_t now) {
  auto zone = reports::ReportingZone::Find(project.reporting_timezone);
  if (!zone) return zone.error();
  const std::int64_t first = now - kWeeks * kWeekMs;
  return store.Write([&](storage::Transaction& tx) -> Result<AnswerCounts> {
    auto brands = AddBrands(tx, project.id, first);
    if (!brands) return brands.error();
    std::vector<storage::AiEngineRecord> engines;
    if (auto added = AddPromptsAndEngines(tx, project.id, first, engines); !added) return added.error();
    AnswerCounts counts;
    Rng rng(20261127);
    for (int week = 0; week < kWeeks; ++week) {
      visibility::RunRequest request;
      request.project_id = project.id;
      request.trigger = "manual";
      request.created_by = user_id;
      request.now = first + week * kWeekMs + 3'600'000;
      request.repetitions = 2;
      auto run = visibility::CreateRun(tx, request);
      if (!run) return run.error();
      auto answered = AnswerRun(tx, *run, *brands, engines, *zone, week, rng);
      if (!answered) return answered.error();
      ++counts.runs;
      counts.answers += *answered;
    }
    // Nothing may ever send these engines a question: their answers are the script's.
    for (storage::AiEngineRecord& engine : engines) {
      engine.active = false;
      if (auto updated = tx.ai_visibility().UpdateAiEngine(engine); !updated) return updated.error();
    }
    return counts;
  });
}

}  // namespace sightline::demo
