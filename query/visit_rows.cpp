#include "query/visit_rows.h"

#include <array>
#include <future>
#include <optional>
#include <string_view>
#include <system_error>

#include "reports/rollups.h"
#include "storage/blocks/column_block.h"
#include "storage/report_repository.h"
#include "storage/visit_blocks.h"
#include "storage/visit_lists.h"

namespace sightline::query {
namespace {

using core::Result;
using storage::VisitColumn;
using storage::blocks::BlockReader;
using storage::blocks::TextValues;
using storage::blocks::UuidForm;

constexpr storage::blocks::ColumnId Col(VisitColumn column) {
  return static_cast<storage::blocks::ColumnId>(column);
}

// A visit value, the column it is read from, and where a Visit holds it.
struct ValueColumn {
  VisitValue value;
  VisitColumn column;
  std::string_view Visit::*member;
};

constexpr ValueColumn kValueColumns[] = {
    {VisitValue::kSource, VisitColumn::kSource, &Visit::source},
    {VisitValue::kChannel, VisitColumn::kChannel, &Visit::channel},
    {VisitValue::kReferrer, VisitColumn::kReferrer, &Visit::referrer},
    {VisitValue::kUtmSource, VisitColumn::kUtmSource, &Visit::utm_source},
    {VisitValue::kUtmMedium, VisitColumn::kUtmMedium, &Visit::utm_medium},
    {VisitValue::kUtmCampaign, VisitColumn::kUtmCampaign, &Visit::utm_campaign},
    {VisitValue::kUtmContent, VisitColumn::kUtmContent, &Visit::utm_content},
    {VisitValue::kUtmTerm, VisitColumn::kUtmTerm, &Visit::utm_term},
    {VisitValue::kCountry, VisitColumn::kCountry, &Visit::country},
    {VisitValue::kRegion, VisitColumn::kRegion, &Visit::region},
    {VisitValue::kCity, VisitColumn::kCity, &Visit::city},
    {VisitValue::kDevice, VisitColumn::kDevice, &Visit::device},
    {VisitValue::kBrowser, VisitColumn::kBrowser, &Visit::browser},
    {VisitValue::kOs, VisitColumn::kOs, &Visit::os},
};
constexpr std::size_t kValueCount = std::size(kValueColumns);

// One block's columns as a reading needs them; a value not read has no codes, counts not
// read (VisitReading::counts_read) no rows.
struct RowColumns {
  std::vector<std::int64_t> started_at, in_visit, events, pageviews, bounce, duration_ms;
  TextValues visitor;
  std::array<TextValues, kValueCount> values;  // by kValueColumns
  TextValues entry_page, exit_page, pages;
};

// A day's blocks, decoded.
using DayColumns = std::vector<RowColumns>;

// The columns a reading decodes, and where each goes.
struct Wanted {
  std::vector<std::pair<VisitColumn, std::vector<std::int64_t>*>> integers;
  std::vector<std::pair<VisitColumn, TextValues*>> texts;
};

Wanted WantedColumns(const VisitReading& reading, RowColumns& c) {
  Wanted wanted;
  wanted.integers = {{VisitColumn::kStartedAt, &c.started_at}, {VisitColumn::kInVisit, &c.in_visit}};
  if (reading.counts_read) {
    wanted.integers.insert(wanted.integers.end(), {{VisitColumn::kEvents, &c.events},
                                                   {VisitColumn::kPageviews, &c.pageviews},
                                                   {VisitColumn::kBounce, &c.bounce},
                                                   {VisitColumn::kDurationMs, &c.duration_ms}});
  }
  wanted.texts = {{VisitColumn::kVisitor, &c.visitor}};
  for (std::size_t v = 0; v < kValueCount; ++v) {
    if (Reads(reading.values, kValueColumns[v].value)) {
      wanted.texts.emplace_back(kValueColumns[v].column, &c.values[v]);
    }
  }
  if (Reads(reading.values, VisitValue::kPages)) {
    if (reading.entry_page_read) wanted.texts.emplace_back(VisitColumn::kEntryPage, &c.entry_page);
    if (reading.exit_page_read) wanted.texts.emplace_back(VisitColumn::kExitPage, &c.exit_page);
    if (reading.page_list_read) wanted.texts.emplace_back(VisitColumn::kPages, &c.pages);
  }
  return wanted;
}

// The ids of the columns WantedColumns decodes, for the store to fetch only those.
std::vector<storage::blocks::ColumnId> WantedIds(const VisitReading& reading) {
  RowColumns scratch;
  const Wanted wanted = WantedColumns(reading, scratch);
  std::vector<storage::blocks::ColumnId> ids;
  for (const auto& [column, into] : wanted.integers) ids.push_back(Col(column));
  for (const auto& [column, into] : wanted.texts) ids.push_back(Col(column));
  return ids;
}

Result<RowColumns> Decode(std::string_view block, const VisitReading& reading) {
  auto reader = BlockReader::Open(block);
  if (!reader) return reader.error();
  RowColumns c;
  const Wanted wanted = WantedColumns(reading, c);
  for (const auto& [column, into] : wanted.integers) {
    auto values = reader->Integers(Col(column));
    if (!values) return values.error();
    *into = std::move(*values);
  }
  for (const auto& [column, into] : wanted.texts) {
    auto values = reader->Text(Col(column), UuidForm::kPacked);
    if (!values) return values.error();
    *into = std::move(*values);
  }
  return c;
}

Result<DayColumns> ReadDay(storage::Store& store, const std::string& project_id,
                           const std::string& zone, VisitWindow window,
                           const VisitReading& reading) {
  const std::vector<storage::blocks::ColumnId> columns = WantedIds(reading);
  auto blocks = store.Read([&](storage::Transaction& tx) {
    return tx.reports().ReadVisitBlocks(project_id, zone, window.start_ms, window.end_ms,
                                        &columns);
  });
  if (!blocks) return blocks.error();
  DayColumns day;
  for (const std::string& block : *blocks) {
    auto decoded = Decode(block, reading);
    if (!decoded) return decoded.error();
    day.push_back(std::move(*decoded));
  }
  return day;
}

// A visit's pages from its page list (storage/visit_lists.h: views, timed views, view ms),
// into `pages`; `items` and `pages` are reused from row to row, the paths views into `list`.
void ReadPages(std::string_view list, std::vector<storage::VisitListView>& items,
               std::vector<VisitPage>& pages) {
  storage::ReadVisitList(list, items);
  pages.clear();
  for (const storage::VisitListView& item : items) {
    pages.push_back({item.value, item.counts[0], item.counts[1], item.counts[2]});
  }
}

inline std::string_view ValueAt(const TextValues& column, std::size_t row) {
  if (column.codes.empty()) return {};
  const std::uint32_t code = column.codes[row];
  return code == 0 ? std::string_view() : column.values[code];
}

// Hands one block's visits to `each`, testing the reading's conditions once per distinct value.
class RowReader {
 public:
  RowReader(const RowColumns& c, const VisitReading& reading, VisitWindow window)
      : c_(c),
        window_(window),
        with_pages_(Reads(reading.values, VisitValue::kPages)),
        with_counts_(reading.counts_read) {
    for (std::size_t v = 0; v < kValueCount; ++v) {
      if (!c_.values[v].codes.empty()) read_values_.push_back(v);
    }
    for (const VisitCondition& condition : reading.conditions) {
      for (std::size_t v = 0; v < kValueCount; ++v) {
        if (kValueColumns[v].value != condition.value || c_.values[v].codes.empty()) continue;
        tests_.push_back({&condition, &c_.values[v],
                          std::vector<Verdict>(c_.values[v].values.size(), kUntested)});
      }
    }
  }

  std::int64_t Run(const std::function<void(const Visit&)>& each) {
    std::int64_t handed = 0;
    for (std::size_t r = 0; r < c_.started_at.size(); ++r) {
      const std::int64_t started = c_.started_at[r];
      if (started < window_.start_ms || started >= window_.end_ms || !Meets(r)) continue;
      Fill(r);
      each(visit_);
      ++handed;
    }
    return handed;
  }

 private:
  bool Meets(std::size_t r) {
    for (Test& test : tests_) {
      const std::uint32_t code = test.column->codes[r];
      Verdict& verdict = test.verdicts[code];
      if (verdict == kUntested) {
        verdict = test.condition->holds(ValueAt(*test.column, r)) ? kHolds : kFails;
      }
      if (verdict == kFails) return false;
    }
    return true;
  }

  void Fill(std::size_t r) {
    visit_.in_visit = c_.in_visit[r] != 0;
    visit_.visitor = ValueAt(c_.visitor, r);
    visit_.visitor_packed = c_.visitor.packed_uuids && !visit_.visitor.empty();
    for (const std::size_t v : read_values_) {
      visit_.*kValueColumns[v].member = ValueAt(c_.values[v], r);
    }
    figures_.started_at = c_.started_at[r];
    if (with_counts_) {
      figures_.events = c_.events[r];
      figures_.pageviews = c_.pageviews[r];
      figures_.duration_ms = c_.duration_ms[r];
      figures_.bounce = c_.bounce[r] != 0;
    }
    if (with_pages_) {
      ReadPages(ValueAt(c_.pages, r), items_, pages_);
      figures_.entry_page = ValueAt(c_.entry_page, r);
      figures_.exit_page = ValueAt(c_.exit_page, r);
      figures_.pages = pages_;
    }
    visit_.figures = &figures_;
  }

  enum Verdict : std::uint8_t { kUntested, kHolds, kFails };
  struct Test {
    const VisitCondition* condition;
    const TextValues* column;
    std::vector<Verdict> verdicts;  // by the column's code
  };

  const RowColumns& c_;
  const VisitWindow window_;
  const bool with_pages_;
  const bool with_counts_;
  std::vector<std::size_t> read_values_;  // by kValueColumns; the others stay empty
  std::vector<Test> tests_;
  Visit visit_;
  VisitFigures figures_;
  std::vector<storage::VisitListView> items_;
  std::vector<VisitPage> pages_;
};

// Starts reading a day on another thread; on this one when no thread can start.
std::future<Result<DayColumns>> StartDay(storage::Store& store, const std::string& project_id,
                                         const std::string& zone, VisitWindow window,
                                         const VisitReading& reading) {
  const auto read = [&store, &project_id, &zone, window, &reading] {
    return ReadDay(store, project_id, zone, window, reading);
  };
  try {
    return std::async(std::launch::async, read);
  } catch (const std::system_error&) {
    return std::async(std::launch::deferred, read);
  }
}

}  // namespace

Result<std::set<std::int64_t>> CurrentVisitDays(storage::Store& store,
                                                const std::string& project_id,
                                                const reports::ReportingZone& zone,
                                                reports::DayRange days) {
  const reports::UtcWindow window = zone.Window(days);
  return store.Read([&](storage::Transaction& tx) -> Result<std::set<std::int64_t>> {
    auto built = tx.reports().ListRollupDays(project_id, zone.name(), window.start_ms,
                                             window.end_ms);
    if (!built) return built.error();
    std::set<std::int64_t> current(built->begin(), built->end());
    if (current.empty()) return current;
    auto marks = tx.reports().ListRollupMarks(project_id);
    if (!marks) return marks.error();
    for (const storage::RollupMark& mark : *marks) {
      if (mark.source != storage::RollupSource::kWeb) continue;
      const auto [first, last] = reports::DaysOfMarkedHour(zone, mark.hour);
      current.erase(zone.StartOfDay(first));
      current.erase(zone.StartOfDay(last));
    }
    return current;
  });
}

Result<void> EachVisitOfRows(storage::Store& store, const std::string& project_id,
                             const std::string& zone, const std::vector<VisitWindow>& windows,
                             const VisitReading& reading,
                             const std::function<Result<void>(std::int64_t)>& spend,
                             const std::function<void(const Visit&)>& each) {
  if (windows.empty()) return {};
  std::future<Result<DayColumns>> next = StartDay(store, project_id, zone, windows[0], reading);
  for (std::size_t w = 0; w < windows.size(); ++w) {
    Result<DayColumns> day = next.get();
    if (w + 1 < windows.size()) {
      next = StartDay(store, project_id, zone, windows[w + 1], reading);
    }
    if (!day) return day.error();
    std::int64_t handed = 0;
    for (const RowColumns& block : *day) handed += RowReader(block, reading, windows[w]).Run(each);
    if (auto spent = spend(handed); !spent) return spent;
  }
  return {};
}

}  // namespace sightline::query
