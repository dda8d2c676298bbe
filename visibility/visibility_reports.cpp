#include "visibility/visibility_reports.h"

#include <algorithm>

#include "reports/report_windows.h"
#include "storage/ai_visibility_repository.h"

namespace sightline::visibility {
namespace {

using core::Result;
using storage::AiAnswerTotals;
using storage::AiBrandRecord;
using storage::AiMentionTotals;

constexpr std::int64_t kQuarterMs = 900'000;

BrandFigures FiguresOf(const std::string& brand_id, std::int64_t answers,
                       const AiMentionTotals* totals, std::int64_t all_mentioned) {
  BrandFigures figures;
  figures.brand_id = brand_id;
  figures.answers = answers;
  if (totals) {
    figures.mentioned = totals->answers;
    figures.occurrences = totals->occurrences;
    if (totals->answers > 0) {
      figures.average_position =
          static_cast<double>(totals->rank_sum) / static_cast<double>(totals->answers);
    }
    if (totals->sentiment_count > 0) {
      figures.sentiment = totals->sentiment_sum / static_cast<double>(totals->sentiment_count);
    }
    if (totals->judged > 0) figures.recommended_rate = Rate(totals->recommended, totals->judged);
  }
  figures.visibility = Rate(figures.mentioned, answers);
  figures.interval = WilsonInterval(figures.mentioned, answers);
  figures.share_of_voice = Rate(figures.mentioned, all_mentioned);
  return figures;
}

VisibilityFigures Assemble(const AiAnswerTotals& answers,
                           const std::vector<const AiMentionTotals*>& mentions,
                           const std::vector<AiBrandRecord>& brands) {
  VisibilityFigures figures{answers, {}};
  std::int64_t all_mentioned = 0;
  for (const AiMentionTotals* m : mentions) all_mentioned += m->answers;
  for (const AiBrandRecord& brand : brands) {
    const auto found = std::find_if(mentions.begin(), mentions.end(),
                                    [&](const AiMentionTotals* m) { return m->brand_id == brand.id; });
    figures.brands.push_back(FiguresOf(brand.id, answers.answers,
                                       found == mentions.end() ? nullptr : *found, all_mentioned));
  }
  return figures;
}

std::string PathWithoutQuery(const std::string& path) {
  const std::size_t cut = path.find_first_of("?#");
  std::string clean = cut == std::string::npos ? path : path.substr(0, cut);
  return clean.empty() ? "/" : clean;
}

void Fold(const std::vector<storage::AiQuarterCount>& quarters,
          const std::vector<reports::UtcWindow>& buckets, std::vector<std::int64_t>& values) {
  values.assign(buckets.size(), 0);
  for (const storage::AiQuarterCount& q : quarters) {
    if (auto bucket = reports::BucketOf(buckets, q.quarter * kQuarterMs)) values[*bucket] += q.count;
  }
}

}  // namespace

Result<void> PrepareRollups(storage::Store& store, const std::string& project_id,
                            const reports::ReportingZone& zone, std::int64_t now) {
  auto built = store.ReadOne([&](storage::Transaction& tx) {
    return tx.ai_visibility().HasAiRollupZone(project_id, zone.name());
  });
  if (!built) return built.error();
  if (*built) return {};
  return store.Write([&](storage::Transaction& tx) -> Result<void> {
    // Claimed first: of several reports (or nodes) asking at once, one builds them.
    auto claimed = tx.ai_visibility().ClaimAiRollupZone(project_id, zone.name(), now);
    if (!claimed) return claimed.error();
    if (!*claimed) return {};
    auto span = tx.ai_visibility().AiAnsweredSpan(project_id);
    if (!span) return span.error();
    std::vector<std::pair<std::int64_t, std::int64_t>> days;
    if (*span) {
      for (reports::LocalDay day = zone.DayOf((*span)->first); day <= zone.DayOf((*span)->second);
           ++day) {
        days.emplace_back(zone.StartOfDay(day), zone.StartOfDay(day + 1));
      }
    }
    return tx.ai_visibility().RebuildAiRollups(project_id, zone.name(), days);
  });
}

storage::AiRollupDay RollupDayOf(const reports::ReportingZone& zone, std::int64_t answered_at) {
  return {zone.name(), zone.StartOfDay(zone.DayOf(answered_at))};
}

Result<VisibilityReport> ReadVisibility(storage::Transaction& tx,
                                        const storage::AiReportQuery& query,
                                        const std::vector<AiBrandRecord>& brands) {
  auto answers = tx.ai_visibility().AiAnswerTotalsOf(query);
  if (!answers) return answers.error();
  auto mentions = tx.ai_visibility().AiMentionTotalsOf(query);
  if (!mentions) return mentions.error();
  std::map<std::string, AiAnswerTotals> answers_by_key;
  AiAnswerTotals total;
  for (const AiAnswerTotals& row : *answers) {
    answers_by_key[row.key] = row;
    total.answers += row.answers;
    total.cited_answers += row.cited_answers;
    total.owned_cited_answers += row.owned_cited_answers;
    total.citations += row.citations;
    total.owned_citations += row.owned_citations;
  }
  // Totals over every group: a brand's answers add up across groups (one answer is in one).
  std::map<std::string, AiMentionTotals> by_brand;
  std::map<std::string, std::vector<const AiMentionTotals*>> by_key;
  for (const AiMentionTotals& row : *mentions) {
    AiMentionTotals& sum = by_brand[row.brand_id];
    sum.brand_id = row.brand_id;
    sum.answers += row.answers;
    sum.occurrences += row.occurrences;
    sum.rank_sum += row.rank_sum;
    sum.recommended += row.recommended;
    sum.judged += row.judged;
    sum.sentiment_sum += row.sentiment_sum;
    sum.sentiment_count += row.sentiment_count;
    by_key[row.key].push_back(&row);
  }
  std::vector<const AiMentionTotals*> brand_totals;
  for (const auto& [id, sum] : by_brand) brand_totals.push_back(&sum);
  VisibilityReport report;
  report.total = Assemble(total, brand_totals, brands);
  if (!query.group_by.empty()) {
    for (const auto& [key, group_answers] : answers_by_key) {
      report.groups[key] = Assemble(group_answers, by_key[key], brands);
    }
  }
  return report;
}

std::vector<PromptGap> PromptGaps(const VisibilityReport& by_prompt,
                                  const std::vector<AiBrandRecord>& brands) {
  std::vector<PromptGap> gaps;
  for (const auto& [prompt_id, figures] : by_prompt.groups) {
    PromptGap gap{prompt_id, figures.answers.answers, {}};
    bool own_named = false;
    for (std::size_t i = 0; i < brands.size(); ++i) {
      const BrandFigures& brand = figures.brands[i];
      if (brands[i].is_own) own_named = own_named || brand.mentioned > 0;
      else if (brand.mentioned > 0) gap.competitors.push_back(brand);
    }
    if (own_named || gap.competitors.empty()) continue;
    std::sort(gap.competitors.begin(), gap.competitors.end(),
              [](const BrandFigures& a, const BrandFigures& b) { return a.visibility > b.visibility; });
    gaps.push_back(std::move(gap));
  }
  std::sort(gaps.begin(), gaps.end(), [](const PromptGap& a, const PromptGap& b) {
    if (a.competitors.front().visibility != b.competitors.front().visibility) {
      return a.competitors.front().visibility > b.competitors.front().visibility;
    }
    return a.prompt_id < b.prompt_id;
  });
  return gaps;
}

Result<std::map<std::string, LoopPage>> ReadLoop(storage::Transaction& tx,
                                                 const std::string& project_id,
                                                 const LoopWindow& window) {
  std::map<std::string, LoopPage> pages;
  auto page = [&](const std::string& raw_path) -> LoopPage& {
    const std::string path = PathWithoutQuery(raw_path);
    LoopPage& entry = pages[path];
    entry.path = path;
    return entry;
  };
  storage::AiReportQuery query{project_id, window.start_ms, window.end_ms, "", "", "", "",
                               window.zone};
  auto cited = tx.ai_visibility().AiOwnedPageCitations(query);
  if (!cited) return cited.error();
  for (const storage::AiPageCitations& row : *cited) {
    LoopPage& entry = page(row.path);
    entry.citations += row.citations;
    entry.citing_answers += row.answers;
  }
  auto fetched = tx.ai_visibility().AiCrawlerFetchesOf(project_id, window.start_ms, window.end_ms);
  if (!fetched) return fetched.error();
  for (const storage::AiCrawlerFetches& row : *fetched) {
    LoopPage& entry = page(row.path);
    entry.fetches += row.requests;
    if (row.actor_type == "verified_bot") entry.verified += row.requests;
    else if (row.actor_type == "spoofed_bot") entry.spoofed += row.requests;
    else entry.unverified += row.requests;
    if (!row.category.empty()) entry.by_purpose[row.category] += row.requests;
    entry.by_vendor[row.vendor.empty() ? "(unknown)" : row.vendor] += row.requests;
  }
  auto visits = tx.ai_visibility().AiAssistantVisitsOf(project_id, window.zone, window.start_ms,
                                                       window.end_ms);
  if (!visits) return visits.error();
  for (const storage::AiAssistantVisits& row : *visits) {
    LoopPage& entry = page(row.path);
    entry.visits += row.visits;
    entry.visits_by_source[row.source] += row.visits;
  }
  return pages;
}

Result<LoopSeries> ReadLoopSeries(storage::Transaction& tx, const std::string& project_id,
                                  const std::string& zone,
                                  const std::vector<reports::UtcWindow>& buckets,
                                  const std::string& path, bool daily) {
  LoopSeries series;
  if (buckets.empty()) return series;
  const std::int64_t start = buckets.front().start_ms, end = buckets.back().end_ms;
  storage::AiReportQuery query{project_id, start, end, "", "", "", "", daily ? zone : ""};
  auto citations = tx.ai_visibility().AiOwnedCitationQuarters(query, path);
  if (!citations) return citations.error();
  auto fetches = tx.ai_visibility().AiCrawlerQuarters(project_id, start, end, path);
  if (!fetches) return fetches.error();
  auto visits = tx.ai_visibility().AiAssistantVisitQuarters(project_id, zone, start, end, path);
  if (!visits) return visits.error();
  Fold(*citations, buckets, series.citations);
  Fold(*fetches, buckets, series.fetches);
  Fold(*visits, buckets, series.visits);
  return series;
}

}  // namespace sightline::visibility
