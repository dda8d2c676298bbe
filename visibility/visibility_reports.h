// The AI-visibility reports, one window at a time (the operations compare two windows):
// per tracked brand the share of answers naming it with its Wilson interval, share of voice,
// average position, sentiment and recommendation rate; the same per engine, topic or prompt;
// the prompts where competitors are named and the project's own brand is not; and the loop
// from AI crawler to citation to visit for each owned page.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "reports/calendar.h"
#include "storage/ai_visibility_records.h"
#include "storage/store.h"
#include "storage/transaction.h"
#include "visibility/statistics.h"

namespace sightline::visibility {

struct BrandFigures {
  std::string brand_id;
  std::int64_t answers = 0;     // answers in the sample
  std::int64_t mentioned = 0;   // answers naming the brand
  std::optional<double> visibility;      // mentioned / answers; none without answers
  std::optional<Interval> interval;      // 95% Wilson; none without answers
  std::optional<double> share_of_voice;  // mentioned / Σ mentioned over every tracked brand
  std::optional<double> average_position;
  std::optional<double> sentiment;         // 0–100, judged answers only
  std::optional<double> recommended_rate;  // of judged answers naming the brand
  std::int64_t occurrences = 0;
};

struct VisibilityFigures {
  storage::AiAnswerTotals answers;
  std::vector<BrandFigures> brands;  // every tracked brand, in the order given
};

struct VisibilityReport {
  VisibilityFigures total;
  std::map<std::string, VisibilityFigures> groups;  // by engine id, topic or prompt id
};

// Builds the project's day rollups in `zone` when that zone has none yet (a first report, or
// the reporting zone changed): every local day holding an answer, from the answers.
core::Result<void> PrepareRollups(storage::Store& store, const std::string& project_id,
                                  const reports::ReportingZone& zone, std::int64_t now);

// The day of `zone` an answer answered at `answered_at` is rolled up in.
storage::AiRollupDay RollupDayOf(const reports::ReportingZone& zone, std::int64_t answered_at);

// `brands`: the project's tracked brands (every one gets figures, zero when never named).
core::Result<VisibilityReport> ReadVisibility(storage::Transaction& tx,
                                              const storage::AiReportQuery& query,
                                              const std::vector<storage::AiBrandRecord>& brands);

// A prompt where at least one competitor is named and the project's own brand never is.
struct PromptGap {
  std::string prompt_id;
  std::int64_t answers = 0;
  std::vector<BrandFigures> competitors;  // named at least once, most visible first
};
// From a report grouped by prompt.
std::vector<PromptGap> PromptGaps(const VisibilityReport& by_prompt,
                                  const std::vector<storage::AiBrandRecord>& brands);

// One owned page in the loop report.
struct LoopPage {
  std::string path;
  std::int64_t citations = 0;      // in tracked answers
  std::int64_t citing_answers = 0;
  std::int64_t fetches = 0;        // by AI crawlers
  std::int64_t verified = 0, spoofed = 0, unverified = 0;
  std::map<std::string, std::int64_t> by_purpose;  // ai_training, ai_search, ai_user_fetch, …
  std::map<std::string, std::int64_t> by_vendor;
  std::int64_t visits = 0;  // human visits arriving from AI assistants
  std::map<std::string, std::int64_t> visits_by_source;
};

struct LoopWindow {
  std::int64_t start_ms = 0, end_ms = 0;
  std::string zone;  // the web visit rows' zone
};

// Every page cited, fetched by an AI crawler or entered from an AI assistant in the window
// (paths without query); the caller ranks them.
core::Result<std::map<std::string, LoopPage>> ReadLoop(storage::Transaction& tx,
                                                       const std::string& project_id,
                                                       const LoopWindow& window);

// Citations, AI-crawler fetches and AI-assistant visits per bucket (of one page, or all);
// `daily`: the buckets are whole local days or longer, so citations come from the rollups.
struct LoopSeries {
  std::vector<std::int64_t> citations, fetches, visits;
};
core::Result<LoopSeries> ReadLoopSeries(storage::Transaction& tx, const std::string& project_id,
                                        const std::string& zone,
                                        const std::vector<reports::UtcWindow>& buckets,
                                        const std::string& path, bool daily);

}  // namespace sightline::visibility
