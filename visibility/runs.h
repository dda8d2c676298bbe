// Starting AI-visibility runs, on demand or on the project's schedule: one answer to fetch per
// active prompt × active engine × repetition, queued in the store for the runner
// (agent/visibility_runner.h) to claim. Budgets are per project over the past 24 hours.
#pragma once

#include <optional>
#include <string>

#include "core/result.h"
#include "storage/ai_visibility_records.h"
#include "storage/transaction.h"

namespace sightline::visibility {

inline constexpr std::int64_t kBudgetWindowMs = 24LL * 3600 * 1000;

struct RunRequest {
  std::string project_id;
  std::string trigger;             // manual, schedule
  std::optional<std::string> slot;  // scheduled runs: "day:2026-11-25" or "week:2026-11-23"
  std::optional<std::string> created_by;
  std::int64_t now = 0;
  // Narrow a manual run; empty: every active one.
  std::optional<std::string> prompt_id, engine_id;
  std::optional<std::int64_t> repetitions;  // default: the settings'
};

// Creates the run and its queued answers in `tx`. AIV_001 when nothing would run, AIV_002 when
// the runs budget is spent, kConflict when the slot's scheduled run exists.
core::Result<storage::AiRunRecord> CreateRun(storage::Transaction& tx, const RunRequest& request);

// The slot a schedule ("daily", "weekly") is in at `now` in `zone`; nullopt for "off".
core::Result<std::optional<std::string>> ScheduleSlot(const std::string& schedule,
                                                      const std::string& zone,
                                                      std::int64_t now);

}  // namespace sightline::visibility
