#include "query/stored_rows.h"

#include "query/block_visits.h"
#include "query/visit_rows.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <future>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <system_error>
#include <stdexcept>

#include <boost/json/parse.hpp>

#include "core/json_util.h"
#include "storage/ai_visibility_repository.h"
#include "storage/report_repository.h"
#include "storage/transaction.h"

namespace sightline::query {
namespace {

using core::Error;
using core::Result;

// Calls `each` with the visit of `events` sorted by time: its visitor is the first one named,
// its acquisition, place and device its first event's (as the rollups read them). The visit's
// views are into the events, which outlive the call.
void EachVisitOf(std::vector<storage::RollupEvent*>& events, bool in_visit,
                 bool with_properties,
                 const std::optional<std::vector<std::string>>& property_keys,
                 const std::function<void(const Visit&)>& each) {
  std::sort(events.begin(), events.end(), [](const auto* a, const auto* b) {
    return a->occurred_at != b->occurred_at ? a->occurred_at < b->occurred_at : a->id < b->id;
  });
  const storage::RollupEvent& first = *events.front();
  Visit visit{in_visit,         {},
              first.source,     first.channel,      first.referrer,     first.utm_source,
              first.utm_medium, first.utm_campaign, first.utm_content,  first.utm_term,
              first.country,    first.region,       first.city,         first.device,
              first.browser,    first.os,           {}};
  for (const auto* e : events) {
    if (!e->visitor.empty()) {
      visit.visitor = e->visitor;
      break;
    }
  }
  // Entry i is event i's; views into the events' tags, which outlive the call.
  PropertyTable properties(property_keys);
  if (with_properties) {
    for (const auto* e : events) properties.Add(e->tags);
  }
  for (std::size_t i = 0; i < events.size(); ++i) {
    const storage::RollupEvent& e = *events[i];
    visit.events.push_back({e.occurred_at, e.event, e.event_channel, e.path,
                            with_properties ? properties[i] : std::span<const Property>()});
  }
  each(visit);
}

constexpr std::int64_t kRowsBetweenChecks = 4096;
constexpr std::size_t kAnswersPerRead = 400;

// Calls `read_day` with each local day's part of the window.
Result<void> ForEachDay(const reports::ReportingZone& zone, reports::DayRange days,
                        reports::UtcWindow window,
                        const std::function<Result<void>(std::int64_t, std::int64_t)>& read_day) {
  for (reports::LocalDay day = days.first; day <= days.last; ++day) {
    const std::int64_t start = std::max(zone.StartOfDay(day), window.start_ms);
    const std::int64_t end = std::min(zone.StartOfDay(day + 1), window.end_ms);
    if (start >= end) continue;
    if (auto read = read_day(start, end); !read) return read.error();
  }
  return {};
}

// Hands `items` to `each`, checking the budget every kRowsBetweenChecks.
template <typename Items, typename Each>
Result<void> Evaluate(ReadBudget& budget, Items& items, const Each& each) {
  std::int64_t since_check = 0;
  for (auto& item : items) {
    each(item);
    if (++since_check == kRowsBetweenChecks) {
      if (auto spent = budget.Spend(0); !spent) return spent;
      since_check = 0;
    }
  }
  return {};
}

using DecodedBlock = Result<std::shared_ptr<const BlockColumns>>;

// A day's blocks decoded on two threads: a helper that only decodes, and the caller, which takes
// whichever block is decoded next, and decodes one itself when none is; so both cores stay busy
// whether decoding or evaluating a block costs more. Blocks come out in any order.
class BlockDecoding {
 public:
  BlockDecoding(const std::vector<std::string>& blocks, const BlockWindow& window)
      : blocks_(blocks), window_(window), helper_(std::async(std::launch::async, [this] {
          const HelperEnd end{*this};
          while (const auto block = Claim()) {
            if (!Done(Decode(*block))) return;
          }
        })) {}
  ~BlockDecoding() {
    claimed_ = blocks_.size();  // the helper claims no more
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    room_.notify_one();
    if (helper_.valid()) helper_.wait();
  }

  // The next block; none once every block has been taken.
  std::optional<DecodedBlock> Next() {
    if (taken_ == blocks_.size()) return std::nullopt;
    ++taken_;
    std::unique_lock lock(mutex_);
    if (ready_.empty()) {
      lock.unlock();
      if (const auto block = Claim()) return Decode(*block);
      lock.lock();
      // Every block is claimed and fewer taken: the helper's are on their way, unless it threw
      // (out of memory), which is then thrown here, as it would be without the helper.
      decoded_.wait(lock, [&] { return !ready_.empty() || helper_ended_; });
      if (ready_.empty()) {
        lock.unlock();
        helper_.get();
        throw std::logic_error("block decoding: the helper ended with blocks undelivered");
      }
    }
    DecodedBlock block = std::move(ready_.front());
    ready_.pop_front();
    lock.unlock();
    room_.notify_one();
    return block;
  }

 private:
  // Tells the caller the helper has ended, however it ended.
  struct HelperEnd {
    BlockDecoding& decoding;
    ~HelperEnd() {
      {
        const std::lock_guard lock(decoding.mutex_);
        decoding.helper_ended_ = true;
      }
      decoding.decoded_.notify_one();
    }
  };

  std::optional<std::size_t> Claim() {
    const std::size_t block = claimed_++;
    if (block >= blocks_.size()) return std::nullopt;
    return block;
  }
  DecodedBlock Decode(std::size_t block) const { return DecodeBlock(blocks_[block], window_); }
  // Hands a decoded block over once fewer than kAhead wait (a day's decoded columns are many
  // times its stored blocks); false when the caller has stopped taking them.
  bool Done(DecodedBlock block) {
    {
      std::unique_lock lock(mutex_);
      room_.wait(lock, [&] { return ready_.size() < kAhead || stopping_; });
      if (stopping_) return false;
      ready_.push_back(std::move(block));
    }
    decoded_.notify_one();
    return true;
  }

  static constexpr std::size_t kAhead = 2;

  const std::vector<std::string>& blocks_;
  const BlockWindow& window_;
  std::atomic<std::size_t> claimed_ = 0;
  std::size_t taken_ = 0;  // by the caller
  std::mutex mutex_;
  std::condition_variable decoded_;  // a block is ready, or the helper ended
  std::condition_variable room_;     // fewer than kAhead are ready, or the caller stopped
  std::deque<DecodedBlock> ready_;  // decoded by the helper, not yet taken
  bool helper_ended_ = false;
  bool stopping_ = false;
  std::future<void> helper_;  // last: started once the rest is set up
};

// Calls `each` with the visits of the blocks, decoded on two threads and evaluated on this one.
// The rows of visits that also have inbox events are added to `merged`.
// Evaluates one decoded block.
Result<void> EvaluateBlock(const DecodedBlock& decoded, const BlockWindow& window,
                           ReadBudget& budget, std::vector<storage::RollupEvent>& merged,
                           const std::function<void(const Visit&)>& each) {
  if (!decoded) return decoded.error();
  std::int64_t read = 0;
  auto rows = EachVisitOfBlock(**decoded, window, [&](const Visit& visit) {
    read += static_cast<std::int64_t>(visit.events.size());
    each(visit);
  });
  std::move(rows.begin(), rows.end(), std::back_inserter(merged));
  return budget.Spend(read);
}

Result<void> EachVisitOfBlocks(const std::vector<std::string>& blocks, const BlockWindow& window,
                               ReadBudget& budget, std::vector<storage::RollupEvent>& merged,
                               const std::function<void(const Visit&)>& each) {
  std::optional<BlockDecoding> decoding;
  // A second thread only when there is something to share, and none when none can start.
  if (blocks.size() > 1) {
    try {
      decoding.emplace(blocks, window);
    } catch (const std::system_error&) {
      decoding.reset();
    }
  }
  if (!decoding) {
    for (const std::string& block : blocks) {
      auto evaluated = EvaluateBlock(DecodeBlock(block, window), window, budget, merged, each);
      if (!evaluated) return evaluated;
    }
    return {};
  }
  while (const std::optional<DecodedBlock> next = decoding->Next()) {
    if (auto evaluated = EvaluateBlock(*next, window, budget, merged, each); !evaluated) {
      return evaluated;
    }
  }
  return {};
}

}  // namespace

ReadBudget::ReadBudget(const core::Clock& clock) : clock_(clock), started_(clock.NowMillis()) {}

Result<void> ReadBudget::Spend(std::int64_t rows) {
  read_ += rows;
  if (read_ <= kMaxEventsRead && clock_.NowMillis() - started_ <= kMaxQueryMillis) return {};
  return Error::Invalid("date_range", "The query would read more than " +
                                          std::to_string(kMaxEventsRead) +
                                          " rows or run longer than " +
                                          std::to_string(kMaxQueryMillis / 1000) +
                                          " s: narrow the date range.");
}

VisitSource StoredVisits(storage::Store& store, ReadBudget& budget, std::string project_id,
                         const reports::ReportingZone& zone, reports::DayRange days,
                         reports::UtcWindow window, VisitReading reading) {
  return [&store, &budget, project_id = std::move(project_id), &zone, days, window,
          reading = std::move(reading)](
             const std::function<void(const Visit&)>& each) -> Result<void> {
    const bool with_properties = Reads(reading.values, VisitValue::kProperties);
    // The days whose visit rows stand for their events (query/visit_rows.h), read first.
    std::set<std::int64_t> current_days;
    if (reading.figures_suffice) {
      auto current = CurrentVisitDays(store, project_id, zone, days);
      if (!current) return current.error();
      current_days = std::move(*current);
    }
    const auto is_current = [&](std::int64_t start) {
      return current_days.contains(zone.StartOfDay(zone.DayOf(start)));
    };
    std::vector<VisitWindow> from_rows;
    auto listed = ForEachDay(zone, days, window, [&](std::int64_t start, std::int64_t end) {
      if (is_current(start)) from_rows.push_back({start, end});
      return Result<void>();
    });
    if (!listed) return listed;
    const auto spend = [&](std::int64_t rows) { return budget.Spend(rows); };
    const std::vector<storage::blocks::ColumnId> columns = BlockColumnsRead(reading);
    auto rows_read = EachVisitOfRows(store, project_id, zone.name(), from_rows, reading, spend, each);
    if (!rows_read) return rows_read;
    return ForEachDay(zone, days, window, [&](std::int64_t start, std::int64_t end) -> Result<void> {
      if (is_current(start)) return {};
      auto rows = store.Read([&](storage::Transaction& tx) {
        return tx.reports().ReadWebWindow(project_id, start, end, with_properties, &columns);
      });
      if (!rows) return rows.error();
      // The sealed visits straight from their blocks; those with events in the inbox too are
      // grouped with the inbox's rows below.
      std::set<std::string, std::less<>> inbox_sessions, inbox_ids;
      for (const storage::RollupEvent& e : rows->inbox) {
        inbox_ids.insert(e.id);
        if (e.session_id) inbox_sessions.insert(*e.session_id);
      }
      const BlockWindow block_window{start, end, reading, &inbox_sessions, &inbox_ids};
      std::vector<storage::RollupEvent> events = std::move(rows->inbox);
      auto blocks = EachVisitOfBlocks(rows->blocks, block_window, budget, events, each);
      if (!blocks) return blocks;
      if (auto spent = budget.Spend(static_cast<std::int64_t>(events.size())); !spent) {
        return spent;
      }
      std::map<std::string, std::vector<storage::RollupEvent*>> sessions;
      std::vector<storage::RollupEvent*> loose;
      for (storage::RollupEvent& e : events) {
        if (e.session_id) sessions[*e.session_id].push_back(&e);
        else loose.push_back(&e);
      }
      auto visits = Evaluate(budget, sessions, [&](auto& session) {
        EachVisitOf(session.second, true, with_properties, reading.property_keys, each);
      });
      if (!visits) return visits;
      return Evaluate(budget, loose, [&](storage::RollupEvent* e) {
        std::vector<storage::RollupEvent*> alone{e};
        EachVisitOf(alone, false, with_properties, reading.property_keys, each);
      });
    });
  };
}

RequestSource StoredRequests(storage::Store& store, ReadBudget& budget, std::string project_id,
                             const reports::ReportingZone& zone, reports::DayRange days,
                             reports::UtcWindow window) {
  return [&store, &budget, project_id = std::move(project_id), &zone, days,
          window](const std::function<void(const storage::BotRequestRecord&)>& each)
             -> Result<void> {
    return ForEachDay(zone, days, window, [&](std::int64_t start, std::int64_t end) -> Result<void> {
      auto rows = store.Read([&](storage::Transaction& tx) {
        return tx.reports().ListBotRequests(project_id, start, end);
      });
      if (!rows) return rows.error();
      if (auto spent = budget.Spend(static_cast<std::int64_t>(rows->size())); !spent) return spent;
      return Evaluate(budget, *rows, each);
    });
  };
}

AnswerSource StoredAnswers(storage::Store& store, ReadBudget& budget, std::string project_id,
                           const reports::ReportingZone& zone, reports::DayRange days,
                           reports::UtcWindow window) {
  return [&store, &budget, project_id = std::move(project_id), &zone, days,
          window](const std::function<void(const AnswerFacts&)>& each) -> Result<void> {
    std::map<std::string, std::string> engines, prompts;  // id → name, id → text
    auto named = store.Read([&](storage::Transaction& tx) -> Result<void> {
      auto engine_rows = tx.ai_visibility().ListAiEngines(project_id);
      if (!engine_rows) return engine_rows.error();
      for (const auto& engine : *engine_rows) engines[engine.id] = engine.name;
      auto prompt_rows = tx.ai_visibility().ListAiPrompts(project_id);
      if (!prompt_rows) return prompt_rows.error();
      for (const auto& prompt : *prompt_rows) prompts[prompt.id] = prompt.text;
      return {};
    });
    if (!named) return named.error();
    return ForEachDay(zone, days, window, [&](std::int64_t start, std::int64_t end) -> Result<void> {
      std::vector<AnswerFacts> facts;
      auto read = store.Read([&](storage::Transaction& tx) -> Result<void> {
        auto answers = tx.ai_visibility().ListAiAnswersAnsweredIn(project_id, start, end);
        if (!answers) return answers.error();
        std::map<std::string, std::size_t> index;
        for (const storage::AiAnswerRecord& answer : *answers) {
          index[answer.id] = facts.size();
          facts.push_back({*answer.answered_at, engines[answer.engine_id],
                           prompts[answer.prompt_id], answer.topic, {}, {}});
        }
        // The answers' mentions and citations, a few hundred ids per statement (SQLite's
        // parameter limit).
        for (std::size_t first = 0; first < answers->size(); first += kAnswersPerRead) {
          std::vector<std::string> ids;
          for (std::size_t i = first; i < std::min(answers->size(), first + kAnswersPerRead); ++i) {
            ids.push_back((*answers)[i].id);
          }
          auto mentions = tx.ai_visibility().ListAiMentions(ids);
          if (!mentions) return mentions.error();
          for (const auto& m : *mentions) {
            facts[index[m.answer_id]].mentions.emplace_back(m.brand_id, m.rank);
          }
          auto citations = tx.ai_visibility().ListAiCitations(ids);
          if (!citations) return citations.error();
          for (const auto& c : *citations) {
            facts[index[c.answer_id]].citations.push_back({c.domain, c.owned, c.brand_id});
          }
        }
        return {};
      });
      if (!read) return read.error();
      if (auto spent = budget.Spend(static_cast<std::int64_t>(facts.size())); !spent) return spent;
      return Evaluate(budget, facts, each);
    });
  };
}

Result<std::vector<TrackedBrand>> StoredBrands(storage::Store& store,
                                               const std::string& project_id) {
  auto rows = store.Read(
      [&](storage::Transaction& tx) { return tx.ai_visibility().ListAiBrands(project_id); });
  if (!rows) return rows.error();
  std::vector<TrackedBrand> brands;
  for (const storage::AiBrandRecord& brand : *rows) brands.push_back({brand.id, brand.name, brand.is_own});
  return brands;
}

}  // namespace sightline::query
