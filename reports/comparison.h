// The selected period of a report and the window it is compared with (spec: "Period
// comparison parameters", "Comparison reach", VAL_001). Pure calendar arithmetic on local
// days; the zone turns the result into UTC instants.
#pragma once

#include <optional>
#include <string>

#include "core/result.h"
#include "reports/calendar.h"

namespace sightline::reports {

// The report's date arguments exactly as the caller sent them.
struct PeriodArguments {
  std::optional<std::string> from, to;  // YYYY-MM-DD, inclusive, in the reporting timezone
  std::optional<std::string> compare_preset;
  std::optional<std::string> compare_from, compare_to;
};

struct Period {
  DayRange selection;
  std::optional<DayRange> comparison;  // none: the default comparison would reach too far back
};

// The longest selection a report accepts (days).
inline constexpr std::int32_t kMaxSelectionDays = 3 * 366;
// Without `from`/`to`: the 30 days ending today.
inline constexpr std::int32_t kDefaultSelectionDays = 30;

// Resolves the selection (`today` is the current local day, for the defaults) and its
// comparison:
//  - `comparePreset` wins over `compareFrom`/`compareTo`; without either, previous_period;
//  - previous_period: as many days immediately before; previous_week: 7 days earlier;
//    previous_month/quarter/year: 1, 3 or 12 months earlier, whole calendar months mapping to
//    whole months and other days shifted with the month end clamped (AddMonths);
//  - a lone or reversed custom pair, or any requested window starting more than one year
//    before the selection, is VAL_001; the default comparison reaching that far is dropped.
// A malformed or reversed selection is VAL_003.
core::Result<Period> ResolvePeriod(const PeriodArguments& args, LocalDay today);

// The comparison window a preset gives, before the reach check.
DayRange PresetWindow(DayRange selection, std::string_view preset);

}  // namespace sightline::reports
