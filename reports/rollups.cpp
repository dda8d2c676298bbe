#include "reports/rollups.h"

#include <algorithm>
#include <chrono>
#include <initializer_list>
#include <map>
#include <set>
#include <unordered_map>

#include "core/distinct_sketch.h"
#include "reports/visit_rules.h"
#include "storage/account_repository.h"
#include "storage/report_repository.h"
#include "storage/visit_lists.h"

namespace sightline::reports {
namespace {

using core::Result;
using storage::RollupEvent;
using storage::RollupSource;
using storage::RollupSpan;
using storage::WebDimension;
using storage::WebRollupRow;

constexpr std::int64_t kHourMs = 3'600'000;


// ---- Rolling one day of events up ------------------------------------------------------------

struct Cell {
  WebRollupRow row;
  core::DistinctSketch visitors;
};

// The value an event has for a dimension counted per event (not entry/exit pages): the event's
// own name and channel; for every other dimension the visit's, those of `origin`, its first
// event (GA4's session dimensions), and `referrer`, the visit's ReferrerDomain.
const std::string& ValueOf(const RollupEvent& e, const RollupEvent& origin,
                           const std::string& referrer, WebDimension dimension) {
  switch (dimension) {
    case WebDimension::kSource: return origin.source;
    case WebDimension::kChannel: return origin.channel;
    case WebDimension::kReferrer: return referrer;
    case WebDimension::kUtmSource: return origin.utm_source;
    case WebDimension::kUtmMedium: return origin.utm_medium;
    case WebDimension::kUtmCampaign: return origin.utm_campaign;
    case WebDimension::kUtmTerm: return origin.utm_term;
    case WebDimension::kUtmContent: return origin.utm_content;
    case WebDimension::kCountry: return origin.country;
    case WebDimension::kRegion: return origin.region;
    case WebDimension::kCity: return origin.city;
    case WebDimension::kBrowser: return origin.browser;
    case WebDimension::kOs: return origin.os;
    case WebDimension::kDevice: return origin.device;
    case WebDimension::kEventChannel: return e.event_channel;
    case WebDimension::kEvent: return e.event;
    default: return e.path;
  }
}

constexpr WebDimension kPerEventDimensions[] = {
    WebDimension::kReferrer,    WebDimension::kUtmSource, WebDimension::kUtmMedium,
    WebDimension::kUtmCampaign, WebDimension::kUtmTerm,   WebDimension::kUtmContent,
    WebDimension::kCountry,     WebDimension::kRegion,    WebDimension::kCity,
    WebDimension::kBrowser,     WebDimension::kOs,        WebDimension::kDevice,
    WebDimension::kEventChannel, WebDimension::kEvent,    WebDimension::kSource,
    WebDimension::kChannel};

class DayRollup {
 public:
  DayRollup(const std::vector<UtcWindow>& hours, bool hourly_values,
            std::span<const std::string> own_domains)
      : hours_(hours), hourly_values_(hourly_values), own_domains_(own_domains) {
    for (const UtcWindow& hour : hours_) {
      Cell cell;
      cell.row.span = RollupSpan::kHour;
      cell.row.period_start = hour.start_ms;
      hour_totals_.push_back(std::move(cell));
    }
  }

  // Counts a visit's events (sorted by time, then id) at the hour the visit started.
  void AddVisit(const std::vector<const RollupEvent*>& visit) {
    const std::size_t hour = HourIndex(visit.front()->occurred_at);
    if (hour == kOutside) return;  // started on another day: rolled up there
    referrer_ = ReferrerDomain(visit.front()->referrer, visit.front()->channel, own_domains_);
    for (const RollupEvent* e : visit) AddEvent(*e, *visit.front(), hour);
    const RollupEvent* entry = nullptr;
    const RollupEvent* previous_view = nullptr;
    std::int64_t pageviews = 0;
    bool engaged = false;
    for (const RollupEvent* e : visit) {
      engaged = engaged || !IsPassiveEvent(e->event);
      if (e->event != kPageviewEvent) continue;
      ++pageviews;
      if (entry == nullptr) entry = e;
      if (previous_view != nullptr) {
        ForEachSlot(hour, [&](std::size_t slot) {
          WebRollupRow& page = CellFor(slot, WebDimension::kPage, previous_view->path).row;
          page.timed_views += 1;
          page.view_ms += e->occurred_at - previous_view->occurred_at;
        });
      }
      previous_view = e;
    }
    for (Cell* totals : {&day_totals_, &hour_totals_[hour]}) {
      totals->row.visits += 1;
      totals->row.bounces += IsBounce(pageviews, engaged) ? 1 : 0;
      totals->row.duration_ms += visit.back()->occurred_at - visit.front()->occurred_at;
    }
    if (entry == nullptr) return;
    ForEachSlot(hour, [&](std::size_t slot) {
      CountView(CellFor(slot, WebDimension::kEntryPage, entry->path), *entry);
      CountView(CellFor(slot, WebDimension::kExitPage, previous_view->path), *previous_view);
    });
  }

  // Counts an event that belongs to no visit, where it happened.
  void AddLooseEvent(const RollupEvent& e) {
    const std::size_t hour = HourIndex(e.occurred_at);
    if (hour == kOutside) return;
    referrer_ = ReferrerDomain(e.referrer, e.channel, own_domains_);
    AddEvent(e, e, hour);
  }

  std::vector<WebRollupRow> Rows() {
    std::vector<WebRollupRow> rows;
    day_totals_.row.period_start = hours_.front().start_ms;
    rows.push_back(Finish(day_totals_));
    for (Cell& cell : hour_totals_) {
      if (cell.row.events > 0) rows.push_back(Finish(cell));
    }
    for (auto& [slot_and_dimension, cells] : by_dimension_) {
      for (auto& [value, cell] : cells) rows.push_back(Finish(cell));
    }
    return rows;
  }

 private:
  static constexpr std::size_t kOutside = static_cast<std::size_t>(-1);

  std::size_t HourIndex(std::int64_t at) const {
    const auto hour = std::ranges::upper_bound(hours_, at, {}, &UtcWindow::end_ms);
    if (hour == hours_.end() || hour->start_ms > at) return kOutside;
    return static_cast<std::size_t>(hour - hours_.begin());
  }

  // Slot 0 is the whole day; slot h + 1 is hour h (kept only with hourly values).
  template <class Body>
  void ForEachSlot(std::size_t hour, Body body) {
    body(0);
    if (hourly_values_) body(hour + 1);
  }

  Cell& CellFor(std::size_t slot, WebDimension dimension, const std::string& value) {
    auto& cells = by_dimension_[{slot, static_cast<std::int64_t>(dimension)}];
    auto [it, inserted] = cells.try_emplace(value);
    if (inserted) {
      WebRollupRow& row = it->second.row;
      row.span = slot == 0 ? RollupSpan::kDay : RollupSpan::kHour;
      row.dimension = static_cast<std::int64_t>(dimension);
      row.period_start = slot == 0 ? hours_.front().start_ms : hours_[slot - 1].start_ms;
      row.value = value;
    }
    return it->second;
  }

  static void Count(Cell& cell, const RollupEvent& e, bool is_view) {
    cell.row.events += 1;
    cell.row.pageviews += is_view ? 1 : 0;
    // Events stored without any id (before daily visitor ids) have no visitor to count.
    if (!e.visitor.empty()) cell.visitors.Add(core::StableHash64(e.visitor));
  }
  static void CountView(Cell& cell, const RollupEvent& e) { Count(cell, e, true); }

  void AddEvent(const RollupEvent& e, const RollupEvent& origin, std::size_t hour) {
    const bool is_view = e.event == kPageviewEvent;
    Count(day_totals_, e, is_view);
    Count(hour_totals_[hour], e, is_view);
    ForEachSlot(hour, [&](std::size_t slot) {
      if (is_view) CountView(CellFor(slot, WebDimension::kPage, e.path), e);
      for (WebDimension dimension : kPerEventDimensions) {
        Count(CellFor(slot, dimension, ValueOf(e, origin, referrer_, dimension)), e, is_view);
      }
    });
  }

  static WebRollupRow Finish(Cell& cell) {
    cell.row.visitors = cell.visitors.Serialize();
    return std::move(cell.row);
  }

  const std::vector<UtcWindow>& hours_;
  const bool hourly_values_;
  const std::span<const std::string> own_domains_;
  std::string referrer_;  // the ReferrerDomain of the visit (or loose event) being added
  Cell day_totals_;
  std::vector<Cell> hour_totals_;
  std::map<std::pair<std::size_t, std::int64_t>, std::unordered_map<std::string, Cell>>
      by_dimension_;
};

// ---- The visit rows filtered reports read ----------------------------------------------------

// Adds one to `counts` of the item of `value` (appended at its first occurrence).
void CountItem(std::vector<storage::VisitListItem>& items, const std::string& value,
               std::initializer_list<std::int64_t> counts) {
  auto item = std::ranges::find(items, value, &storage::VisitListItem::value);
  if (item == items.end()) {
    items.push_back({value, std::vector<std::int64_t>(counts.size(), 0)});
    item = items.end() - 1;
  }
  std::size_t i = 0;
  for (std::int64_t add : counts) item->counts[i++] += add;
}

// A visit's row, from its events sorted by time (the same figures AddVisit counts).
storage::WebVisitRow VisitRowOf(const std::vector<const RollupEvent*>& visit,
                                std::span<const std::string> own_domains) {
  const RollupEvent& first = *visit.front();
  storage::WebVisitRow row{first.occurred_at, true, first.session_id.value_or(first.id)};
  for (const RollupEvent* e : visit) {
    if (row.visitor.empty()) row.visitor = e->visitor;
  }
  row.referrer = ReferrerDomain(first.referrer, first.channel, own_domains);
  row.utm_source = first.utm_source;
  row.utm_medium = first.utm_medium;
  row.utm_campaign = first.utm_campaign;
  row.utm_term = first.utm_term;
  row.utm_content = first.utm_content;
  row.country = first.country;
  row.region = first.region;
  row.city = first.city;
  row.browser = first.browser;
  row.os = first.os;
  row.device = first.device;
  row.source = first.source;
  row.channel = first.channel;
  std::vector<storage::VisitListItem> pages, names, channels;
  const RollupEvent* previous_view = nullptr;
  bool engaged = false;
  for (const RollupEvent* e : visit) {
    row.events += 1;
    engaged = engaged || !IsPassiveEvent(e->event);
    CountItem(names, e->event, {1});
    CountItem(channels, e->event_channel, {1});
    if (e->event != kPageviewEvent) continue;
    row.pageviews += 1;
    if (previous_view == nullptr) row.entry_page = e->path;
    if (previous_view != nullptr) {
      CountItem(pages, previous_view->path, {0, 1, e->occurred_at - previous_view->occurred_at});
    }
    CountItem(pages, e->path, {1, 0, 0});
    previous_view = e;
  }
  if (previous_view != nullptr) row.exit_page = previous_view->path;
  row.bounce = IsBounce(row.pageviews, engaged);
  row.duration_ms = visit.back()->occurred_at - first.occurred_at;
  row.pages = storage::EncodeVisitList(pages);
  row.event_names = storage::EncodeVisitList(names);
  row.channels = storage::EncodeVisitList(channels);
  return row;
}

// An event outside every visit: events, pageviews and a visitor, never a visit.
storage::WebVisitRow LooseRowOf(const RollupEvent& e, std::span<const std::string> own_domains) {
  storage::WebVisitRow row = VisitRowOf({&e}, own_domains);
  row.in_visit = false;
  row.bounce = false;
  row.entry_page.clear();
  row.exit_page.clear();
  return row;
}

// ---- Deciding what to roll up ----------------------------------------------------------------

std::int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// ---- Blocks of days ---------------------------------------------------------------------------

// The first day of the block of 2^level days holding `day` (blocks align on day numbers).
LocalDay BlockFirstDay(LocalDay day, int level) {
  const LocalDay size = LocalDay{1} << level;
  const LocalDay offset = ((day % size) + size) % size;
  return day - offset;
}

storage::RollupBlock BlockOf(const ReportingZone& zone, LocalDay first_day, int level) {
  return {storage::BlockSpan(level), zone.StartOfDay(first_day)};
}

// The two halves of the block of 2^level days starting on `first_day`: two days, or two
// blocks of the level below.
storage::RollupPeriods HalvesOf(const ReportingZone& zone, LocalDay first_day, int level) {
  const LocalDay half = LocalDay{1} << (level - 1);
  return {level == 1 ? RollupSpan::kDay : storage::BlockSpan(level - 1),
          {zone.StartOfDay(first_day), zone.StartOfDay(first_day + half)}};
}

// Whether both halves of the block are rolled up and current (read in the block's
// transaction, after its row is locked).
Result<bool> HalvesAreCurrent(storage::Transaction& tx, const std::string& project_id,
                              const ReportingZone& zone, LocalDay first_day, int level) {
  const storage::RollupPeriods halves = HalvesOf(zone, first_day, level);
  const std::int64_t end = zone.StartOfDay(first_day + (LocalDay{1} << level));
  std::set<std::int64_t> current;
  if (level == 1) {
    auto days = tx.reports().ListRollupDays(project_id, zone.name(), halves.starts.front(), end);
    if (!days) return days.error();
    current.insert(days->begin(), days->end());
  } else {
    auto blocks =
        tx.reports().ListRollupBlocks(project_id, zone.name(), halves.starts.front(), end);
    if (!blocks) return blocks.error();
    for (const storage::RollupBlock& block : *blocks) {
      if (block.span == halves.span) current.insert(block.start_ms);
    }
  }
  return std::ranges::all_of(halves.starts,
                             [&](std::int64_t start) { return current.contains(start); });
}

// Web rows of a block: its halves' rows added up per dimension value, visitors merged.
Result<std::vector<WebRollupRow>> MergeWebHalves(storage::Transaction& tx,
                                                 const std::string& project_id,
                                                 const ReportingZone& zone,
                                                 const storage::RollupBlock& block,
                                                 const storage::RollupPeriods& halves) {
  auto rows = tx.reports().ListWebRollups(project_id, zone.name(), halves);
  if (!rows) return rows.error();
  std::map<std::pair<std::int64_t, std::string_view>, Cell> cells;
  for (const WebRollupRow& row : *rows) {
    auto [it, inserted] = cells.try_emplace({row.dimension, row.value});
    Cell& cell = it->second;
    if (inserted) {
      cell.row.span = block.span;
      cell.row.dimension = row.dimension;
      cell.row.period_start = block.start_ms;
      cell.row.value = row.value;
    }
    for (auto [sum, add] : {std::pair{&cell.row.events, row.events},
                            {&cell.row.pageviews, row.pageviews},
                            {&cell.row.visits, row.visits},
                            {&cell.row.bounces, row.bounces},
                            {&cell.row.duration_ms, row.duration_ms},
                            {&cell.row.timed_views, row.timed_views},
                            {&cell.row.view_ms, row.view_ms}}) {
      *sum += add;
    }
    const auto sketch = core::DistinctSketch::Parse(row.visitors);
    if (!sketch) return core::Error::Internal("a stored web rollup has an unreadable sketch");
    cell.visitors.Merge(*sketch);
  }
  std::vector<WebRollupRow> merged;
  merged.reserve(cells.size());
  for (auto& [key, cell] : cells) {
    cell.row.visitors = cell.visitors.Serialize();
    merged.push_back(std::move(cell.row));
  }
  return merged;
}

// Rolls the block up from its halves if both are current; otherwise leaves it out of date.
Result<void> RollUpBlock(storage::Store& store, const std::string& project_id,
                         const ReportingZone& zone, LocalDay first_day, int level) {
  const storage::RollupBlock block = BlockOf(zone, first_day, level);
  return store.Write([&](storage::Transaction& tx) -> Result<void> {
    auto reset = tx.reports().ResetRollupBlock(project_id, zone.name(), block);
    if (!reset) return reset;
    auto ready = HalvesAreCurrent(tx, project_id, zone, first_day, level);
    if (!ready) return ready.error();
    if (!*ready) return {};
    const storage::RollupPeriods halves = HalvesOf(zone, first_day, level);
    auto web = MergeWebHalves(tx, project_id, zone, block, halves);
    if (!web) return web.error();
    auto inserted = tx.reports().InsertWebRollups(project_id, zone.name(), *web);
    if (!inserted) return inserted;
    auto bots = tx.reports().RollUpBotBlock(project_id, zone.name(), block, halves);
    if (!bots) return bots;
    return tx.reports().FinishRollupBlock(project_id, zone.name(), block, NowMillis());
  });
}

// Rolls up, level by level, the blocks holding `days` (just rolled up) whose halves are all
// rolled up and current.
Result<void> RollUpBlocks(storage::Store& store, const std::string& project_id,
                          const ReportingZone& zone, const std::set<LocalDay>& days) {
  if (days.empty()) return {};
  const LocalDay first = BlockFirstDay(*days.begin(), storage::kRollupBlockLevels);
  const LocalDay end = BlockFirstDay(*days.rbegin(), storage::kRollupBlockLevels) +
                       (LocalDay{1} << storage::kRollupBlockLevels);
  // What is current now, as (level, first day); level 0 is a day.
  std::set<std::pair<int, LocalDay>> current;
  auto known = store.Read([&](storage::Transaction& tx) -> Result<void> {
    const std::int64_t from = zone.StartOfDay(first), to = zone.StartOfDay(end);
    auto built_days = tx.reports().ListRollupDays(project_id, zone.name(), from, to);
    if (!built_days) return built_days.error();
    auto blocks = tx.reports().ListRollupBlocks(project_id, zone.name(), from, to);
    if (!blocks) return blocks.error();
    std::map<std::int64_t, LocalDay> day_of_start;
    for (LocalDay day = first; day < end; ++day) day_of_start.emplace(zone.StartOfDay(day), day);
    const auto note = [&](int level, std::int64_t start) {
      const auto day = day_of_start.find(start);
      if (day != day_of_start.end()) current.insert({level, day->second});
    };
    for (std::int64_t start : *built_days) note(0, start);
    for (const storage::RollupBlock& block : *blocks) {
      note(storage::BlockLevel(block.span), block.start_ms);
    }
    return {};
  });
  if (!known) return known;
  // Today changes all day: a block holding it would be merged again on every refresh, so
  // reports read today as a day until it is over.
  const LocalDay today = zone.DayOf(NowMillis());
  for (int level = 1; level <= storage::kRollupBlockLevels; ++level) {
    std::set<LocalDay> firsts;
    for (LocalDay day : days) firsts.insert(BlockFirstDay(day, level));
    const LocalDay half = LocalDay{1} << (level - 1);
    for (LocalDay block_first : firsts) {
      if (block_first + 2 * half - 1 >= today) continue;
      if (!current.contains({level - 1, block_first}) ||
          !current.contains({level - 1, block_first + half})) {
        continue;
      }
      auto rolled = RollUpBlock(store, project_id, zone, block_first, level);
      if (!rolled) return rolled;
      current.insert({level, block_first});
    }
  }
  return {};
}

// Rolls one local day up again, web and crawler rows alike (a mark of either source may be the
// first time the day is rolled up at all).
Result<void> RollUpDay(storage::Store& store, const std::string& project_id,
                       const ReportingZone& zone, LocalDay day) {
  const std::vector<UtcWindow> hours = zone.Buckets({day, day}, Interval::kHour);
  const UtcWindow window{hours.front().start_ms, hours.back().end_ms};
  return store.Write([&](storage::Transaction& tx) -> Result<void> {
    auto claimed =
        tx.reports().ClaimRollupDay(project_id, zone.name(), window.start_ms, NowMillis());
    if (!claimed) return claimed;
    // The blocks holding the day go out of date with it (smallest first: every rebuilder
    // locks them in the same order).
    for (int level = 1; level <= storage::kRollupBlockLevels; ++level) {
      const storage::RollupBlock block = BlockOf(zone, BlockFirstDay(day, level), level);
      auto reset = tx.reports().ResetRollupBlock(project_id, zone.name(), block);
      if (!reset) return reset;
    }
    for (RollupSource source : {RollupSource::kWeb, RollupSource::kBots}) {
      auto deleted = tx.reports().DeleteRollups(project_id, zone.name(), source, window.start_ms,
                                                window.end_ms);
      if (!deleted) return deleted;
    }
    auto events = tx.reports().ListRollupEvents(project_id, window.start_ms, window.end_ms);
    if (!events) return events.error();
    auto domains = OwnDomains(tx, project_id);
    if (!domains) return domains.error();
    std::vector<storage::WebVisitRow> visits;
    const std::vector<WebRollupRow> rows = RollUpWebDay(*events, hours, *domains, false, &visits);
    auto inserted = tx.reports().InsertWebRollups(project_id, zone.name(), rows);
    if (!inserted) return inserted;
    inserted = tx.reports().InsertWebVisits(project_id, zone.name(), window.start_ms, visits);
    if (!inserted) return inserted;
    std::vector<std::int64_t> starts;
    for (const UtcWindow& hour : hours) starts.push_back(hour.start_ms);
    return tx.reports().RollUpBotRequests(project_id, zone.name(), starts, window.end_ms);
  });
}

}  // namespace

std::vector<WebRollupRow> RollUpWebDay(const std::vector<RollupEvent>& events,
                                       const std::vector<UtcWindow>& hours,
                                       std::span<const std::string> own_domains,
                                       bool hourly_values,
                                       std::vector<storage::WebVisitRow>* visit_rows) {
  DayRollup day(hours, hourly_values, own_domains);
  const auto on_the_day = [&](std::int64_t at) {
    return at >= hours.front().start_ms && at < hours.back().end_ms;
  };
  std::unordered_map<std::string, std::vector<const RollupEvent*>> visits;
  for (const RollupEvent& e : events) {
    if (e.session_id) {
      visits[*e.session_id].push_back(&e);
    } else {
      day.AddLooseEvent(e);
      if (visit_rows != nullptr && on_the_day(e.occurred_at)) {
        visit_rows->push_back(LooseRowOf(e, own_domains));
      }
    }
  }
  // In session order, so the rows come out the same on every run.
  std::map<std::string_view, std::vector<const RollupEvent*>*> ordered;
  for (auto& [session_id, visit] : visits) ordered.emplace(session_id, &visit);
  for (auto& [session_id, visit] : ordered) {
    std::ranges::sort(*visit, [](const RollupEvent* a, const RollupEvent* b) {
      return a->occurred_at != b->occurred_at ? a->occurred_at < b->occurred_at : a->id < b->id;
    });
    day.AddVisit(*visit);
    if (visit_rows != nullptr && on_the_day(visit->front()->occurred_at)) {
      visit_rows->push_back(VisitRowOf(*visit, own_domains));
    }
  }
  return day.Rows();
}

Result<std::vector<std::string>> OwnDomains(storage::Transaction& tx,
                                           const std::string& project_id) {
  auto project = tx.accounts().FindProject(project_id);
  if (!project) return project.error();
  return *project ? (*project)->domains : std::vector<std::string>{};
}

std::pair<LocalDay, LocalDay> DaysOfMarkedHour(const ReportingZone& zone, std::int64_t hour) {
  return {zone.DayOf(hour * kHourMs), zone.DayOf(hour * kHourMs + kHourMs - 1)};
}

Result<void> RefreshForReport(storage::Store& store, const std::string& project_id,
                              const ReportWindows& windows) {
  auto zone = ReportingZone::Find(windows.zone);
  if (!zone) return zone.error();
  std::vector<DayRange> ranges{windows.selection_days};
  if (windows.comparison_days) ranges.push_back(*windows.comparison_days);
  return RefreshRollups(store, project_id, *zone, ranges,
                        windows.changed_days == ChangedDays::kRollUpFirst);
}

Result<storage::RollupRange> RangeOf(storage::Transaction& tx, const std::string& project_id,
                                     const ReportingZone& zone, DayRange days) {
  const UtcWindow window = zone.Window(days);
  storage::RollupRange range{project_id, zone.name(), RollupSpan::kDay, window.start_ms,
                             window.end_ms, {}};
  auto blocks =
      tx.reports().ListRollupBlocks(project_id, zone.name(), window.start_ms, window.end_ms);
  if (!blocks) return blocks.error();
  const std::set<std::pair<RollupSpan, std::int64_t>> current = [&] {
    std::set<std::pair<RollupSpan, std::int64_t>> out;
    for (const storage::RollupBlock& block : *blocks) out.insert({block.span, block.start_ms});
    return out;
  }();
  std::map<RollupSpan, std::vector<std::int64_t>> starts;
  for (LocalDay day = days.first; day <= days.last;) {
    const std::int64_t start = zone.StartOfDay(day);
    int level = current.empty() ? 0 : storage::kRollupBlockLevels;
    for (; level > 0; --level) {
      const LocalDay size = LocalDay{1} << level;
      if (BlockFirstDay(day, level) == day && day + size - 1 <= days.last &&
          current.contains({storage::BlockSpan(level), start})) {
        break;
      }
    }
    starts[level == 0 ? RollupSpan::kDay : storage::BlockSpan(level)].push_back(start);
    day += LocalDay{1} << level;
  }
  if (starts.size() == 1 && starts.contains(RollupSpan::kDay)) return range;  // days only
  for (auto& [span, list] : starts) range.blocks.push_back({span, std::move(list)});
  return range;
}

Result<void> RefreshRollups(storage::Store& store, const std::string& project_id,
                            const ReportingZone& zone, const std::vector<DayRange>& ranges,
                            bool marked_days) {
  struct Known {
    std::vector<storage::RollupMark> marks;
    std::set<LocalDay> unbuilt;
    bool other_zones = false;
  };
  auto known = store.Read([&](storage::Transaction& tx) -> Result<Known> {
    Known out;
    if (marked_days) {
      auto marks = tx.reports().ListRollupMarks(project_id);
      if (!marks) return marks.error();
      out.marks = std::move(*marks);
    }
    for (const DayRange& range : ranges) {
      const UtcWindow window = zone.Window(range);
      auto built =
          tx.reports().ListRollupDays(project_id, zone.name(), window.start_ms, window.end_ms);
      if (!built) return built.error();
      const std::set<std::int64_t> starts(built->begin(), built->end());
      for (LocalDay day = range.first; day <= range.last; ++day) {
        if (!starts.contains(zone.StartOfDay(day))) out.unbuilt.insert(day);
      }
    }
    if (!out.unbuilt.empty()) {
      auto other_zones = tx.reports().HasRollupsOfOtherZones(project_id, zone.name());
      if (!other_zones) return other_zones.error();
      out.other_zones = *other_zones;
    }
    return out;
  });
  if (!known) return known.error();

  std::set<LocalDay> work = known->unbuilt;
  for (const storage::RollupMark& mark : known->marks) {
    const auto [first, last] = DaysOfMarkedHour(zone, mark.hour);
    work.insert(first);
    work.insert(last);
  }
  if (work.empty()) return {};
  if (known->other_zones) {
    // Rollups of a former reporting zone are not read again.
    auto dropped = store.Write([&](storage::Transaction& tx) {
      return tx.reports().DeleteRollupsOfOtherZones(project_id, zone.name());
    });
    if (!dropped) return dropped;
  }
  for (LocalDay day : work) {
    auto rolled = RollUpDay(store, project_id, zone, day);
    if (!rolled) return rolled;
  }
  auto blocks = RollUpBlocks(store, project_id, zone, work);
  if (!blocks) return blocks;
  if (known->marks.empty()) return {};
  return store.Write([&](storage::Transaction& tx) {
    return tx.reports().ClearRollupMarks(project_id, known->marks);
  });
}

}  // namespace sightline::reports
