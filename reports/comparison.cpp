#include "reports/comparison.h"

#include <array>

namespace sightline::reports {
namespace {

using core::Error;
using core::ErrorCode;
using core::Result;

constexpr std::array<std::string_view, 5> kPresets = {
    "previous_period", "previous_week", "previous_month", "previous_quarter", "previous_year"};

Error ComparisonError(std::string field, std::string message) {
  Error error(ErrorCode::kValComparison, std::move(message));
  error.mutable_details()["field"] = std::move(field);
  return error;
}

DayRange ShiftMonths(DayRange selection, int months) {
  // Whole calendar months map to whole months (March → all of February, leap day included);
  // anything else keeps its day numbers, clamped at the month's end (Mar 31 → Feb 28/29).
  if (IsFirstOfMonth(selection.first) && IsLastOfMonth(selection.last)) {
    const LocalDay first = AddMonths(selection.first, -months);
    return {first, LastOfMonth(AddMonths(selection.last, -months))};
  }
  return {AddMonths(selection.first, -months), AddMonths(selection.last, -months)};
}

Result<DayRange> Selection(const PeriodArguments& args, LocalDay today) {
  if (args.from.has_value() != args.to.has_value()) {
    const std::string missing = args.from ? "to" : "from";
    return Error::Invalid(missing, "Send 'from' and 'to' together (or neither, for the last "
                                   "30 days).");
  }
  if (!args.from) return DayRange{today - (kDefaultSelectionDays - 1), today};
  auto from = ParseDate(*args.from, "from");
  if (!from) return from.error();
  auto to = ParseDate(*args.to, "to");
  if (!to) return to.error();
  if (*to < *from) return Error::Invalid("to", "'to' is before 'from'.");
  if (*to - *from + 1 > kMaxSelectionDays) {
    return Error::Invalid("to", "A report covers at most " + std::to_string(kMaxSelectionDays) +
                                    " days.");
  }
  return DayRange{*from, *to};
}

// The earliest day a comparison window may start on: one year before the selection starts.
LocalDay Reach(DayRange selection) { return AddMonths(selection.first, -12); }

}  // namespace

DayRange PresetWindow(DayRange selection, std::string_view preset) {
  if (preset == "previous_week") return {selection.first - 7, selection.last - 7};
  if (preset == "previous_month") return ShiftMonths(selection, 1);
  if (preset == "previous_quarter") return ShiftMonths(selection, 3);
  if (preset == "previous_year") return ShiftMonths(selection, 12);
  return {selection.first - selection.days(), selection.first - 1};  // previous_period
}

Result<Period> ResolvePeriod(const PeriodArguments& args, LocalDay today) {
  auto selection = Selection(args, today);
  if (!selection) return selection.error();
  Period period{*selection, std::nullopt};

  if (args.compare_preset) {
    if (std::ranges::find(kPresets, *args.compare_preset) == kPresets.end()) {
      return ComparisonError("comparePreset",
                             "'comparePreset' must be one of previous_period, previous_week, "
                             "previous_month, previous_quarter, previous_year.");
    }
    period.comparison = PresetWindow(*selection, *args.compare_preset);
  } else if (args.compare_from || args.compare_to) {
    if (!args.compare_from || !args.compare_to) {
      return ComparisonError(args.compare_from ? "compareTo" : "compareFrom",
                             "'compareFrom' and 'compareTo' must be sent together.");
    }
    auto from = ParseDate(*args.compare_from, "compareFrom");
    auto to = ParseDate(*args.compare_to, "compareTo");
    if (!from || !to) {
      return ComparisonError(from ? "compareTo" : "compareFrom",
                             "'compareFrom' and 'compareTo' must be dates written YYYY-MM-DD.");
    }
    if (*to < *from) return ComparisonError("compareTo", "'compareTo' is before 'compareFrom'.");
    period.comparison = DayRange{*from, *to};
  } else {
    const DayRange fallback = PresetWindow(*selection, "previous_period");
    if (fallback.first >= Reach(*selection)) period.comparison = fallback;
    return period;  // the default never fails: too far back means no comparison
  }
  if (period.comparison->first < Reach(*selection)) {
    return ComparisonError(args.compare_preset ? "comparePreset" : "compareFrom",
                           "The comparison window may not start more than one year before the "
                           "selection (" + FormatDate(Reach(*selection)) + ").");
  }
  return period;
}

}  // namespace sightline::reports
