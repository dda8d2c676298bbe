// The AI-visibility reports, each over the selected period and its comparison window in the
// project's reporting timezone: visibility per brand (with 95% Wilson intervals and changes
// flagged only beyond the samples' noise), cited sources, prompt gaps, and the loop from AI
// crawler to citation to visit per owned page.
#include <algorithm>
#include <map>

#include "reports/rollups.h"
#include "storage/ai_visibility_repository.h"
#include "features/ai_visibility/common.h"
#include "features/ai_visibility/operations.h"
#include "tools/operation_helpers.h"
#include "tools/report_common.h"
#include "visibility/visibility_reports.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;
using identity::Permission;
using visibility::BrandFigures;

using ai_visibility::kCallers;
using ai_visibility::ProjectId;

// What the reports need of the project's configuration, for names.
struct Catalog {
  std::vector<storage::AiBrandRecord> brands;
  std::map<std::string, std::string> engine_names, prompt_texts, prompt_topics;
};

Result<Catalog> ReadCatalog(storage::Transaction& tx, const std::string& project_id) {
  Catalog catalog;
  auto brands = tx.ai_visibility().ListAiBrands(project_id);
  if (!brands) return brands.error();
  catalog.brands = std::move(*brands);
  auto engines = tx.ai_visibility().ListAiEngines(project_id);
  if (!engines) return engines.error();
  for (const auto& engine : *engines) catalog.engine_names[engine.id] = engine.name;
  auto prompts = tx.ai_visibility().ListAiPrompts(project_id);
  if (!prompts) return prompts.error();
  for (const auto& prompt : *prompts) {
    catalog.prompt_texts[prompt.id] = prompt.text;
    catalog.prompt_topics[prompt.id] = prompt.topic;
  }
  return catalog;
}

// The report's query over the day rollups of the project's zone (built first when missing).
storage::AiReportQuery QueryOf(OperationContext& context, const json::object& args,
                               const reports::UtcWindow& window, const std::string& zone) {
  return {context.project->id,
          window.start_ms,
          window.end_ms,
          OptionalString(args, "engineId").value_or(""),
          OptionalString(args, "topic").value_or(""),
          OptionalString(args, "promptId").value_or(""),
          OptionalString(args, "groupBy").value_or(""),
          zone};
}

Result<ReportSetup> RollupSetup(OperationContext& context, const json::object& args) {
  auto setup = Setup(context, args);
  if (!setup) return setup.error();
  auto built = visibility::PrepareRollups(context.store, context.project->id, setup->zone,
                                          context.clock.NowMillis());
  if (!built) return built.error();
  return setup;
}

json::value Optional(const std::optional<double>& value) {
  return value ? json::value(*value) : json::value(nullptr);
}

json::object IntervalJson(const visibility::Interval& interval) {
  return {{"low", interval.low}, {"high", interval.high}};
}

// A rate's interval, null with the rate when the sample is empty.
json::value IntervalJson(const std::optional<visibility::Interval>& interval) {
  return interval ? json::value(IntervalJson(*interval)) : json::value(nullptr);
}

json::object FiguresJson(const BrandFigures& f) {
  return {{"answers", f.answers},
          {"mentioned", f.mentioned},
          {"visibility", Optional(f.visibility)},
          {"interval", IntervalJson(f.interval)},
          {"shareOfVoice", Optional(f.share_of_voice)},
          {"averagePosition", Optional(f.average_position)},
          {"sentiment", Optional(f.sentiment)},
          {"recommendedRate", Optional(f.recommended_rate)}};
}

// A rate's change between the windows: the difference, its interval and whether it is beyond
// the noise of the two samples.
json::value ChangeJson(std::int64_t x1, std::int64_t n1, std::int64_t x2, std::int64_t n2) {
  if (n1 == 0 || n2 == 0) return nullptr;
  const visibility::RateChange change = visibility::CompareRates(x1, n1, x2, n2);
  return json::object{{"difference", change.difference},
                      {"interval", IntervalJson(change.interval)},
                      {"significant", change.significant}};
}

json::array BrandRows(const visibility::VisibilityFigures& current,
                      const visibility::VisibilityFigures* previous,
                      const std::vector<storage::AiBrandRecord>& brands) {
  json::array rows;
  for (std::size_t i = 0; i < brands.size(); ++i) {
    const BrandFigures& now = current.brands[i];
    json::object row = FiguresJson(now);
    row["brandId"] = brands[i].id;
    row["name"] = brands[i].name;
    row["own"] = brands[i].is_own;
    if (previous) {
      const BrandFigures& before = previous->brands[i];
      row["previous"] = FiguresJson(before);
      row["change"] = ChangeJson(now.mentioned, now.answers, before.mentioned, before.answers);
    } else {
      row["previous"] = nullptr;
      row["change"] = nullptr;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

json::object AnswerTotalsJson(const storage::AiAnswerTotals& t) {
  return {{"answers", t.answers},
          {"citedAnswers", t.cited_answers},
          {"citationRate", Optional(visibility::Rate(t.cited_answers, t.answers))},
          {"citationInterval",
           IntervalJson(visibility::WilsonInterval(t.cited_answers, t.answers))},
          {"ownedCitedAnswers", t.owned_cited_answers},
          {"ownedCitationRate", Optional(visibility::Rate(t.owned_cited_answers, t.answers))},
          {"ownedCitationInterval",
           IntervalJson(visibility::WilsonInterval(t.owned_cited_answers, t.answers))},
          {"citations", t.citations},
          {"ownedCitations", t.owned_citations}};
}

std::string GroupLabel(const Catalog& catalog, const std::string& group_by, const std::string& key) {
  const auto& names = group_by == "engine" ? catalog.engine_names : catalog.prompt_texts;
  if (group_by == "topic") return key;
  const auto found = names.find(key);
  return found == names.end() ? key : found->second;
}

Result<json::value> RunGetAiVisibility(OperationContext& context, const json::object& args) {
  auto setup = RollupSetup(context, args);
  if (!setup) return setup.error();
  const std::string group_by = OptionalString(args, "groupBy").value_or("");
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto catalog = ReadCatalog(tx, context.project->id);
    if (!catalog) return catalog.error();
    auto current = visibility::ReadVisibility(tx, QueryOf(context, args, setup->windows.selection, setup->zone.name()),
                                              catalog->brands);
    if (!current) return current.error();
    std::optional<visibility::VisibilityReport> previous;
    if (setup->windows.comparison) {
      auto read = visibility::ReadVisibility(
          tx, QueryOf(context, args, *setup->windows.comparison, setup->zone.name()), catalog->brands);
      if (!read) return read.error();
      // A comparison window without answers has nothing to compare: null, not zero rates.
      if (read->total.answers.answers > 0) previous = std::move(*read);
    }
    json::object out = HeaderJson(*setup);
    out["answers"] = AnswerTotalsJson(current->total.answers);
    out["previousAnswers"] =
        previous ? json::value(AnswerTotalsJson(previous->total.answers)) : json::value(nullptr);
    out["citationChange"] = previous ? ChangeJson(current->total.answers.cited_answers,
                                                  current->total.answers.answers,
                                                  previous->total.answers.cited_answers,
                                                  previous->total.answers.answers)
                                     : json::value(nullptr);
    out["brands"] = BrandRows(current->total, previous ? &previous->total : nullptr,
                              catalog->brands);
    json::array groups;
    for (const auto& [key, figures] : current->groups) {
      const visibility::VisibilityFigures* before = nullptr;
      if (previous) {
        if (auto found = previous->groups.find(key); found != previous->groups.end()) {
          before = &found->second;
        }
      }
      groups.push_back(json::object{{"key", key},
                                    {"label", GroupLabel(*catalog, group_by, key)},
                                    {"answers", AnswerTotalsJson(figures.answers)},
                                    {"brands", BrandRows(figures, before, catalog->brands)}});
    }
    out["groupBy"] = group_by.empty() ? json::value(nullptr) : json::value(group_by);
    out["groups"] = std::move(groups);
    return json::value(std::move(out));
  });
}

Result<json::value> RunGetAiVisibilitySources(OperationContext& context, const json::object& args) {
  auto setup = RollupSetup(context, args);
  if (!setup) return setup.error();
  const bool by_page = OptionalString(args, "by").value_or("domain") == "page";
  const std::int64_t limit = IntegerOr(args, "limit", 20);
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto current = tx.ai_visibility().AiCitedSourcesOf(
        QueryOf(context, args, setup->windows.selection, setup->zone.name()), by_page, limit);
    if (!current) return current.error();
    std::map<std::string, storage::AiCitedSource> before;
    if (setup->windows.comparison) {
      // Only the values shown: their previous counts.
      std::vector<std::string> shown;
      for (const storage::AiCitedSource& source : *current) shown.push_back(source.value);
      auto previous = tx.ai_visibility().AiCitedSourcesOf(
          QueryOf(context, args, *setup->windows.comparison, setup->zone.name()), by_page,
          limit, &shown);
      if (!previous) return previous.error();
      for (auto& source : *previous) before[source.value] = source;
    }
    json::array rows;
    for (const storage::AiCitedSource& source : *current) {
      json::object row{{"value", source.value},
                       {"citations", source.citations},
                       {"answers", source.answers},
                       {"owned", source.owned}};
      row["brandId"] = source.brand_id ? json::value(*source.brand_id) : json::value(nullptr);
      if (setup->windows.comparison) {
        AddChange(row, "previousCitations", source.citations, before[source.value].citations);
      }
      rows.push_back(std::move(row));
    }
    json::object out = HeaderJson(*setup);
    out["by"] = by_page ? "page" : "domain";
    out["sources"] = std::move(rows);
    return json::value(std::move(out));
  });
}

Result<json::value> RunGetAiVisibilityGaps(OperationContext& context, const json::object& args) {
  auto setup = RollupSetup(context, args);
  if (!setup) return setup.error();
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    auto catalog = ReadCatalog(tx, context.project->id);
    if (!catalog) return catalog.error();
    storage::AiReportQuery query = QueryOf(context, args, setup->windows.selection, setup->zone.name());
    query.group_by = "prompt";
    auto report = visibility::ReadVisibility(tx, query, catalog->brands);
    if (!report) return report.error();
    json::array gaps;
    for (const visibility::PromptGap& gap : visibility::PromptGaps(*report, catalog->brands)) {
      json::array competitors;
      for (const BrandFigures& figures : gap.competitors) {
        json::object row = FiguresJson(figures);
        row["brandId"] = figures.brand_id;
        const auto brand = std::find_if(catalog->brands.begin(), catalog->brands.end(),
                                        [&](const auto& b) { return b.id == figures.brand_id; });
        row["name"] = brand == catalog->brands.end() ? "" : brand->name;
        competitors.push_back(std::move(row));
      }
      gaps.push_back(json::object{{"promptId", gap.prompt_id},
                                  {"text", catalog->prompt_texts[gap.prompt_id]},
                                  {"topic", catalog->prompt_topics[gap.prompt_id]},
                                  {"answers", gap.answers},
                                  {"competitors", std::move(competitors)}});
    }
    json::object out = HeaderJson(*setup);
    out["gaps"] = std::move(gaps);
    return json::value(std::move(out));
  });
}

json::object CountsJson(const std::map<std::string, std::int64_t>& counts) {
  json::object out;
  for (const auto& [name, count] : counts) out[name] = count;
  return out;
}

const visibility::LoopPage kNoPage{};

json::object LoopPageJson(const visibility::LoopPage& page, const visibility::LoopPage* before) {
  json::object row{{"path", page.path},
                   {"citations", page.citations},
                   {"citingAnswers", page.citing_answers},
                   {"fetches", page.fetches},
                   {"verifiedFetches", page.verified},
                   {"spoofedFetches", page.spoofed},
                   {"unverifiedFetches", page.unverified},
                   {"fetchesByPurpose", CountsJson(page.by_purpose)},
                   {"fetchesByVendor", CountsJson(page.by_vendor)},
                   {"visits", page.visits},
                   {"visitsBySource", CountsJson(page.visits_by_source)}};
  if (before) {
    row["previous"] = json::object{{"citations", before->citations},
                                   {"fetches", before->fetches},
                                   {"verifiedFetches", before->verified},
                                   {"visits", before->visits}};
  } else {
    row["previous"] = nullptr;
  }
  return row;
}

// Pages with the most of the loop's three signals first.
std::vector<const visibility::LoopPage*> Ranked(const std::map<std::string, visibility::LoopPage>& pages) {
  std::vector<const visibility::LoopPage*> ranked;
  for (const auto& [path, page] : pages) ranked.push_back(&page);
  std::sort(ranked.begin(), ranked.end(), [](const auto* a, const auto* b) {
    const auto weight = [](const visibility::LoopPage* p) {
      return std::tuple(p->citations, p->visits, p->fetches);
    };
    if (weight(a) != weight(b)) return weight(a) > weight(b);
    return a->path < b->path;
  });
  return ranked;
}

json::object SeriesJson(const visibility::LoopSeries& series) {
  auto array = [](const std::vector<std::int64_t>& values) {
    json::array out;
    for (std::int64_t v : values) out.push_back(v);
    return out;
  };
  return {{"citations", array(series.citations)},
          {"fetches", array(series.fetches)},
          {"visits", array(series.visits)}};
}

Result<json::value> RunGetAiVisibilityLoop(OperationContext& context, const json::object& args) {
  auto setup = RollupSetup(context, args);
  if (!setup) return setup.error();
  auto interval = reports::ParseInterval(OptionalString(args, "interval").value_or("day"));
  if (!interval) return interval.error();
  auto buckets = reports::BucketsFor(setup->zone, setup->windows, *interval);
  if (!buckets) return buckets.error();
  // The visits side reads the web visit rows: bring the windows' days up to date first.
  auto refreshed = reports::RefreshForReport(context.store, context.project->id, setup->windows);
  if (!refreshed) return refreshed.error();
  const std::string path = OptionalString(args, "path").value_or("");
  const std::size_t limit = static_cast<std::size_t>(IntegerOr(args, "limit", 20));
  const std::string& zone = setup->windows.zone;
  return context.store.Read([&](storage::Transaction& tx) -> Result<json::value> {
    const auto& selection = setup->windows.selection;
    auto current = visibility::ReadLoop(tx, context.project->id,
                                        {selection.start_ms, selection.end_ms, zone});
    if (!current) return current.error();
    std::map<std::string, visibility::LoopPage> previous;
    if (setup->windows.comparison) {
      auto read = visibility::ReadLoop(
          tx, context.project->id,
          {setup->windows.comparison->start_ms, setup->windows.comparison->end_ms, zone});
      if (!read) return read.error();
      previous = std::move(*read);
    }
    const bool daily = *interval != reports::Interval::kHour;
    auto series =
        visibility::ReadLoopSeries(tx, context.project->id, zone, (*buckets)[0], path, daily);
    if (!series) return series.error();
    json::object out = HeaderJson(*setup);
    out["interval"] = OptionalString(args, "interval").value_or("day");
    out["path"] = path.empty() ? json::value(nullptr) : json::value(path);
    out["buckets"] = BucketsJson(setup->zone, (*buckets)[0]);
    out["series"] = SeriesJson(*series);
    if (buckets->size() > 1) {
      auto before = visibility::ReadLoopSeries(tx, context.project->id, zone, (*buckets)[1],
                                               path, daily);
      if (!before) return before.error();
      out["comparisonBuckets"] = BucketsJson(setup->zone, (*buckets)[1]);
      out["comparisonSeries"] = SeriesJson(*before);
    }
    json::array pages;
    for (const visibility::LoopPage* page : Ranked(*current)) {
      if (pages.size() >= limit) break;
      const auto found = previous.find(page->path);
      pages.push_back(LoopPageJson(*page, setup->windows.comparison
                                              ? (found == previous.end() ? &kNoPage : &found->second)
                                              : nullptr));
    }
    out["pages"] = std::move(pages);
    return json::value(std::move(out));
  });
}

}  // namespace

const OperationSpec kGetAiVisibility{
    .name = "get_ai_visibility",
    .summary = "AI visibility by brand",
    .description =
        "Over the answers of the period: per tracked brand the visibility rate (share of "
        "answers naming it) with its 95% Wilson interval, share of voice, average position, "
        "sentiment and recommendation rate (judged answers only); the citation and "
        "owned-citation rates; each against the comparison window with `change.significant` "
        "only when the difference is beyond the samples' noise (the previous figures are null "
        "when the comparison window holds no answers). `groupBy` (engine, topic, "
        "prompt) adds the same per group. Definitions in docs/ai-visibility.md.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kGet,
    .path = "/ai-visibility",
    .permission = Permission::kAiVisibilityView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunGetAiVisibility,
};

const OperationSpec kGetAiVisibilitySources{
    .name = "get_ai_visibility_sources",
    .summary = "Most cited domains or pages",
    .description = "The domains (or pages, `by=page`) the answers of the period cite most, "
                   "from the providers' citation fields and the links in the answers, each "
                   "marked owned or with the tracked brand whose domain it is, with the "
                   "comparison window's count.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kGet,
    .path = "/ai-visibility/sources",
    .permission = Permission::kAiVisibilityView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunGetAiVisibilitySources,
};

const OperationSpec kGetAiVisibilityGaps{
    .name = "get_ai_visibility_gaps",
    .summary = "Prompts where competitors appear and the brand does not",
    .description = "The prompts whose answers in the period name at least one competitor and "
                   "never the project's own brand, with each competitor's visibility rate and "
                   "interval, most visible first.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kGet,
    .path = "/ai-visibility/gaps",
    .permission = Permission::kAiVisibilityView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunGetAiVisibilityGaps,
};

const OperationSpec kGetAiVisibilityLoop{
    .name = "get_ai_visibility_loop",
    .summary = "From AI crawler to citation to visit",
    .description =
        "For each owned page: citations in tracked answers, fetches by AI crawlers (verified, "
        "spoofed, unverified; by purpose — ai_training, ai_search, ai_user_fetch — and by "
        "vendor) and human visits entering from AI assistants (by source), with the comparison "
        "window's figures; and the three per bucket (of one page with `path`) for both windows. "
        "Needs `bots.view` data and web analytics in the same project.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kGet,
    .path = "/ai-visibility/loop",
    .permission = Permission::kAiVisibilityView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunGetAiVisibilityLoop,
};

}  // namespace sightline::tools
