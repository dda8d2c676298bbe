// The compact event store on each backend (docs/storage.md, "Event blocks"): sealing inbox
// events into column blocks changes nothing any reader returns — the events feed with every
// filter and cursor, the rows the rollups and `query` read — whether all, some or none of a
// visit's events are sealed; a visit whose start moves is moved whole; sealers of one project
// never seal an event twice or lose one; a deleted project leaves no block behind.
#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <random>
#include <thread>

#include "core/clock.h"
#include "query/stored_rows.h"
#include "storage/event_blocks.h"
#include "storage/migrations.h"
#include "store_fixture.h"

namespace sightline::storage {
namespace {

using namespace conformance;  // NOLINT: the fixture and its helpers

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t kT0 = 1'790'812'800'000;  // 2026-10-01T00:00:00Z
constexpr std::int64_t kNever = 4'000'000'000'000;

class EventBlocks : public StoreConformance {
 protected:
  // Visits of 1–4 events over two days, some crossing an hour; events outside every visit;
  // a bot's event and an `__analytics` one; the second project's events beside them.
  std::vector<EventRecord> Traffic(std::uint64_t seed, const std::string& prefix) {
    std::mt19937_64 random(seed);
    std::vector<EventRecord> events;
    for (int visit = 0; visit < 40; ++visit) {
      std::int64_t at = kT0 + static_cast<std::int64_t>(random() % (48 * kHour));
      const int count = 1 + static_cast<int>(random() % 4);
      for (int i = 0; i < count; ++i) {
        EventRecord e = i % 2 ? SparseEvent("", "p-1", at) : FullEvent("", "p-1", at);
        e.id = prefix + "-" + std::to_string(visit) + "-" + std::to_string(i);
        e.session_id = prefix + "-s" + std::to_string(visit);
        e.anonymous_id = "anon-" + std::to_string(visit % 7);
        e.event = i == 0 || random() % 3 ? "screen_view" : "signup";
        e.channel = visit % 5 ? "web" : "checkout";
        e.user_id = visit % 3 ? std::nullopt : std::optional<std::string>("user-1");
        e.path = "/p/" + std::to_string(random() % 6);
        e.tags_json = R"({"plan":"p)" + std::to_string(visit % 3) + R"("})";
        if (e.country) e.country = visit % 2 ? "DE" : "FR";
        e.is_bot = visit == 7;
        if (visit == 9) e.channel = "__analytics";
        e.received_at = at + static_cast<std::int64_t>(random() % 1000);
        events.push_back(std::move(e));
        at += static_cast<std::int64_t>(1 + random() % 1500) * 1000;
      }
    }
    for (int loose = 0; loose < 6; ++loose) {
      EventRecord e = FullEvent(prefix + "-loose-" + std::to_string(loose), "p-1",
                                kT0 + static_cast<std::int64_t>(random() % (48 * kHour)));
      e.session_id.reset();
      e.is_bot = loose == 0;
      events.push_back(std::move(e));
    }
    EventRecord other = FullEvent(prefix + "-other", "p-2", kT0 + kHour);
    events.push_back(std::move(other));
    return events;
  }

  void Insert(const std::vector<EventRecord>& events) {
    ASSERT_TRUE(Ok(Write([&](Transaction& tx) { return tx.events().InsertEvents(events); })));
  }

  // A human pageview of p-1 in `session`, received at `received` (at `at` when not given).
  static EventRecord View(std::string id, std::string session, std::int64_t at,
                          std::optional<std::int64_t> received = std::nullopt) {
    EventRecord e = FullEvent(std::move(id), "p-1", at);
    e.session_id = std::move(session);
    e.is_bot = false;
    e.event = "screen_view";
    e.received_at = received.value_or(at);
    return e;
  }

  // The ids ListRollupEvents returns for p-1's hours [from_hour, to_hour) after kT0, sorted.
  std::vector<std::string> RollupIds(std::int64_t from_hour, std::int64_t to_hour) {
    std::vector<std::string> ids;
    for (const RollupEvent& r : ReadOk([&](Transaction& tx) {
           return tx.reports().ListRollupEvents("p-1", kT0 + from_hour * kHour,
                                                kT0 + to_hour * kHour);
         })) {
      ids.push_back(r.id);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  }

  std::size_t Seal(const std::string& project, std::int64_t received_before,
                   std::size_t limit = 100'000) {
    return WriteOk([&](Transaction& tx) {
      return tx.events().SealEvents(project, received_before, limit, kT0);
    });
  }

  // What every reader returns, to compare before and after sealing.
  struct Answers {
    std::vector<std::vector<EventRecord>> feeds;
    std::vector<std::vector<RollupEvent>> rollups;
    bool operator==(const Answers&) const = default;
  };

  static std::vector<EventQuery> FeedQueries() {
    std::vector<EventQuery> queries;
    for (std::size_t limit : {1u, 7u, 50u, 1000u}) {
      queries.push_back({.project_id = "p-1", .limit = limit});
    }
    queries.push_back({.project_id = "p-1", .channel = "checkout", .limit = 1000});
    queries.push_back({.project_id = "p-1", .event = "signup", .limit = 1000});
    queries.push_back({.project_id = "p-1", .user_id = "user-1", .limit = 5});
    queries.push_back(
        {.project_id = "p-1", .from = kT0 + 5 * kHour, .to = kT0 + 30 * kHour, .limit = 1000});
    queries.push_back({.project_id = "p-2", .limit = 1000});
    return queries;
  }

  using Feed = std::function<std::vector<EventRecord>(const EventQuery&)>;
  using Rollup = std::function<std::vector<RollupEvent>(std::int64_t, std::int64_t, bool)>;

  // Every reader's answers, from the store or from the model.
  static Answers AnswerWith(const Feed& feed, const Rollup& rollup) {
    Answers answers;
    for (const EventQuery& q : FeedQueries()) answers.feeds.push_back(feed(q));
    // Every page of the feed, 4 at a time, through its cursor.
    std::vector<EventRecord> paged;
    EventQuery page{.project_id = "p-1", .limit = 4};
    for (;;) {
      auto rows = feed(page);
      if (rows.empty()) break;
      page.before = std::pair(rows.back().occurred_at, rows.back().id);
      paged.insert(paged.end(), rows.begin(), rows.end());
    }
    answers.feeds.push_back(std::move(paged));
    for (const auto& [start, end] : {std::pair{kT0, kT0 + 48 * kHour},
                                    {kT0 + 3 * kHour, kT0 + 4 * kHour},
                                    {kT0 + 90 * 60'000, kT0 + 26 * kHour + 17 * 60'000}}) {
      for (const bool tags : {false, true}) {
        auto rows = rollup(start, end, tags);
        std::sort(rows.begin(), rows.end(),
                  [](const RollupEvent& a, const RollupEvent& b) { return a.id < b.id; });
        answers.rollups.push_back(std::move(rows));
      }
    }
    return answers;
  }

  Answers Answer() { return AnswerOf(store()); }
  static Answers AnswerOf(Store& store) {
    return AnswerWith(
        [&](const EventQuery& q) {
          return conformance::ReadOk(store, [&](Transaction& tx) { return tx.events().ListEvents(q); });
        },
        [&](std::int64_t start, std::int64_t end, bool tags) {
          return conformance::ReadOk(store, [&](Transaction& tx) {
            return tx.reports().ListRollupEvents("p-1", start, end, tags);
          });
        });
  }

  // The reference model: what the readers mean, computed from every event ever inserted.
  static Answers Expected(const std::vector<EventRecord>& all) {
    const auto feed = [&](const EventQuery& q) {
      std::vector<EventRecord> rows;
      for (const EventRecord& e : all) {
        if (e.project_id != q.project_id || (q.channel && e.channel != *q.channel) ||
            (q.event && e.event != *q.event) || (q.user_id && e.user_id != q.user_id) ||
            (q.from && e.occurred_at < *q.from) || (q.to && e.occurred_at >= *q.to) ||
            (q.before && std::pair(e.occurred_at, e.id) >= *q.before)) {
          continue;
        }
        rows.push_back(e);
      }
      std::sort(rows.begin(), rows.end(), [](const EventRecord& a, const EventRecord& b) {
        return std::pair(a.occurred_at, a.id) > std::pair(b.occurred_at, b.id);
      });
      if (rows.size() > q.limit) rows.resize(q.limit);
      return rows;
    };
    const auto human = [](const EventRecord& e) { return !e.is_bot && e.channel != "__analytics"; };
    std::map<std::string, std::int64_t> starts;
    for (const EventRecord& e : all) {
      if (e.project_id != "p-1" || !human(e) || !e.session_id) continue;
      auto [it, added] = starts.emplace(*e.session_id, e.occurred_at);
      if (!added) it->second = std::min(it->second, e.occurred_at);
    }
    const auto rollup = [&](std::int64_t start, std::int64_t end, bool tags) {
      std::vector<RollupEvent> rows;
      for (const EventRecord& e : all) {
        if (e.project_id != "p-1" || !human(e)) continue;
        const std::int64_t at = e.session_id ? starts.at(*e.session_id) : e.occurred_at;
        if (at < start || at >= end) continue;
        RollupEvent r;
        r.id = e.id;
        r.session_id = e.session_id;
        r.visitor = e.anonymous_id ? *e.anonymous_id
                    : e.user_id    ? *e.user_id
                                   : e.daily_visitor.value_or("");
        r.occurred_at = e.occurred_at;
        r.event = e.event;
        r.event_channel = e.channel;
        r.source = e.traffic_source.value_or("");
        r.channel = e.traffic_channel.value_or("");
        r.path = e.path.value_or("");
        r.referrer = e.referrer.value_or("");
        r.utm_source = e.utm_source.value_or("");
        r.utm_medium = e.utm_medium.value_or("");
        r.utm_campaign = e.utm_campaign.value_or("");
        r.utm_term = e.utm_term.value_or("");
        r.utm_content = e.utm_content.value_or("");
        r.country = e.country.value_or("");
        r.region = e.region.value_or("");
        r.city = e.city.value_or("");
        r.browser = e.browser.value_or("");
        r.os = e.os.value_or("");
        r.device = e.device.value_or("");
        if (tags) r.tags = e.tags_json;
        rows.push_back(std::move(r));
      }
      return rows;
    };
    return AnswerWith(feed, rollup);
  }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, EventBlocks, testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, EventBlocks, testing::Values(Backend::kPostgres));

TEST_P(EventBlocks, SealingChangesNothingAnyReaderReturns) {
  SeedTwoProjects();
  std::vector<EventRecord> all = Traffic(1, "a");
  Insert(all);
  const Answers inbox = Answer();
  ASSERT_EQ(inbox, Expected(all)) << "the model and the inbox agree before any sealing";
  ASSERT_GT(inbox.feeds[3].size(), 100u);
  ASSERT_FALSE(inbox.rollups[0].empty());

  // Some of the events sealed (the earliest received), then the rest in small batches.
  const std::size_t early = Seal("p-1", kT0 + 20 * kHour);
  EXPECT_GT(early, 0u);
  EXPECT_EQ(Answer(), inbox) << "with " << early << " events sealed";
  std::size_t sealed = early;
  while (const std::size_t batch = Seal("p-1", kNever, 17)) sealed += batch;
  EXPECT_EQ(sealed, all.size() - 1) << "every event of p-1, none of p-2";
  EXPECT_EQ(Answer(), inbox) << "with every event sealed";
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.events().ListProjectsToSeal(kNever); }),
            std::vector<std::string>{"p-2"});

  // More events arrive, some of them in visits already sealed: the inbox and the blocks answer
  // together, and again once part and then all of them are sealed.
  std::vector<EventRecord> more = Traffic(2, "b");
  more.pop_back();  // not p-2's again
  for (std::size_t i = 0; i < 10; ++i) {
    const EventRecord& sealed_one = all[i * 7];
    EventRecord late = FullEvent("late-" + std::to_string(i), "p-1", sealed_one.occurred_at + 60'000);
    late.session_id = sealed_one.session_id;
    late.received_at = kT0 + 60 * kHour + static_cast<std::int64_t>(i);
    more.push_back(std::move(late));
  }
  Insert(more);
  all.insert(all.end(), more.begin(), more.end());
  const Answers expected = Expected(all);
  EXPECT_EQ(Answer(), expected) << "sealed visits with new events in the inbox";
  Seal("p-1", kT0 + 60 * kHour + 5);
  EXPECT_EQ(Answer(), expected) << "some of the new events sealed";
  Seal("p-1", kNever);
  EXPECT_EQ(Answer(), expected) << "all sealed again";
}

// A store the previous release made (schema 0021: every event in the inbox table) is upgraded
// by the next start's migration and sealed by the same job, answering as before.
TEST_P(EventBlocks, AStoreOfThePreviousReleaseIsSealedAfterItsUpgrade) {
  PreviousReleaseStore previous_release(GetParam(), store(), 21);
  ASSERT_TRUE(previous_release.ok());
  Store* previous = &previous_release.store();
  std::vector<EventRecord> all = Traffic(5, "old");
  all.pop_back();  // p-1's only: the previous release's projects are not seeded here
  ASSERT_TRUE(Ok(previous->Write([&](Transaction& tx) { return tx.events().InsertEvents(all); })));
  auto upgraded = previous->Migrate();
  ASSERT_TRUE(Ok(upgraded));
  EXPECT_EQ(*upgraded, static_cast<int>(AllMigrations().size()) - 21);
  const Answers before = AnswerOf(*previous);
  EXPECT_EQ(before, Expected(all));
  auto sealed = previous->Write(
      [](Transaction& tx) { return tx.events().SealEvents("p-1", kNever, 100'000, kT0); });
  ASSERT_TRUE(Ok(sealed));
  EXPECT_EQ(*sealed, all.size());
  EXPECT_EQ(AnswerOf(*previous), before);
}

// `query` reads sealed visits straight from the blocks' columns (query/block_visits.h): the
// visits it sees are the ones grouped from ListRollupEvents' rows, with none, some and all of
// the events sealed and visits split between the inbox and a block.
TEST_P(EventBlocks, QueryReadsTheVisitsTheRollupRowsHold) {
  SeedTwoProjects();
  std::vector<EventRecord> all = Traffic(6, "q");
  for (EventRecord& e : all) {
    if (e.session_id && e.id.ends_with("-0")) e.received_at = kT0;  // first events sealed first
  }
  Insert(all);
  const reports::ReportingZone zone = *reports::ReportingZone::Find("Asia/Kathmandu");
  const reports::DayRange days{zone.DayOf(kT0) - 1, zone.DayOf(kT0) + 2};
  const reports::UtcWindow window{kT0 - 3 * kHour, kT0 + 49 * kHour};
  // Each visit as text: its visitor, acquisition, place and device, then its events.
  const auto visits_of = [&](const query::VisitSource& source) {
    std::vector<std::string> visits;
    auto read = source([&](const query::Visit& v) {
      std::string text = std::to_string(v.in_visit);
      for (const std::string_view value : {v.visitor, v.source, v.channel, v.referrer,
                                           v.utm_source, v.country, v.city, v.device, v.browser,
                                           v.os}) {
        (text += "|") += value;
      }
      for (const query::VisitEvent& e : v.events) {
        text += "|" + std::to_string(e.at_ms);
        for (const std::string_view value : {e.name, e.channel, e.page}) (text += ",") += value;
        for (const auto& [key, value] : e.properties) {
          text.append(",").append(key).append("=").append(value);
        }
      }
      visits.push_back(std::move(text));
    });
    EXPECT_TRUE(Ok(read));
    std::sort(visits.begin(), visits.end());
    return visits;
  };
  const core::SystemClock clock;
  const auto from_blocks = [&](std::vector<query::VisitCondition> conditions) {
    query::ReadBudget budget(clock);
    return visits_of(query::StoredVisits(store(), budget, "p-1", zone, days, window,
                                         {query::AllVisitValues(), std::nullopt,
                                          std::move(conditions)}));
  };
  // A source may skip the visits that fail a condition (not from France, here): the visits of
  // the inbox it hands over whole, those of the blocks it skips unread.
  const auto from_france = [&] {
    return from_blocks({{query::VisitValue::kCountry,
                         [](std::string_view country) { return country == "FR"; }}});
  };
  const std::vector<std::string> expected = from_blocks({});
  ASSERT_GT(expected.size(), 30u);
  std::vector<std::string> french;
  std::copy_if(expected.begin(), expected.end(), std::back_inserter(french),
               [](const std::string& visit) { return visit.find("|FR|") != std::string::npos; });
  ASSERT_GT(french.size(), 10u);
  ASSERT_LT(french.size(), expected.size() - 10);
  const auto between = [&](const std::vector<std::string>& visits) {
    return std::includes(visits.begin(), visits.end(), french.begin(), french.end()) &&
           std::includes(expected.begin(), expected.end(), visits.begin(), visits.end());
  };
  EXPECT_TRUE(between(from_france()));
  Seal("p-1", kT0 + 1);  // each visit's first event only: visits split across inbox and block
  EXPECT_EQ(from_blocks({}), expected);
  EXPECT_TRUE(between(from_france()));
  Seal("p-1", kNever);
  EXPECT_EQ(from_blocks({}), expected);
  EXPECT_EQ(from_france(), french);
}

TEST_P(EventBlocks, AVisitThatNowStartsInAnotherHourMovesWhole) {
  SeedProject();
  std::vector<EventRecord> visit;
  for (int i = 0; i < 3; ++i) {
    EventRecord e = FullEvent("v-" + std::to_string(i), "p-1", kT0 + 10 * kHour + i * 60'000);
    e.session_id = "moving";
    e.event = "screen_view";
    e.is_bot = false;
    visit.push_back(std::move(e));
  }
  Insert(visit);
  EXPECT_EQ(Seal("p-1", kNever), 3u);
  const auto in_hour = [&](std::int64_t hour) {
    return ReadOk([&](Transaction& tx) {
             return tx.reports().ListRollupEvents("p-1", kT0 + hour * kHour,
                                                  kT0 + (hour + 1) * kHour);
           }).size();
  };
  EXPECT_EQ(in_hour(10), 3u);
  // An earlier event of the visit arrives late: the visit now starts an hour earlier.
  EventRecord early = FullEvent("v-early", "p-1", kT0 + 9 * kHour + 59 * 60'000);
  early.session_id = "moving";
  early.event = "screen_view";
  early.is_bot = false;
  Insert({early});
  // Clear the marks ingestion made, to see the sealing's own.
  auto marks = ReadOk([](Transaction& tx) { return tx.reports().ListRollupMarks("p-1"); });
  ASSERT_TRUE(Ok(Write([&](Transaction& tx) {
    return tx.reports().ClearRollupMarks("p-1", marks);
  })));
  EXPECT_EQ(Seal("p-1", kNever), 1u);
  EXPECT_EQ(in_hour(9), 4u) << "every event of the visit belongs to the hour it starts in";
  EXPECT_EQ(in_hour(10), 0u);
  std::set<std::int64_t> marked;
  for (const RollupMark& mark :
       ReadOk([](Transaction& tx) { return tx.reports().ListRollupMarks("p-1"); })) {
    marked.insert(mark.hour);
  }
  const std::int64_t hour0 = kT0 / kHour;
  EXPECT_EQ(marked, (std::set<std::int64_t>{hour0 + 9, hour0 + 10}))
      << "both hours' rollups are built again";
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.events().ListRecentEvents("p-1", 10); }).size(),
            4u);
}

// visit_starts forgets a visit sealed whole a week after it started (docs/storage.md): a later
// event of it counts as a visit of its own; a visit with an event still in the inbox is kept.
TEST_P(EventBlocks, ASealedVisitIsForgottenAWeekAfterItStarted) {
  SeedProject();
  const std::int64_t week = 7 * 24 * kHour;
  Insert({View("a-1", "old", kT0), View("b-1", "kept", kT0),
          View("b-2", "kept", kT0 + 60'000, kT0 + week + 2 * kHour)});
  // A week and a day later, everything received until then is sealed: "kept" has an event
  // received later, still in the inbox.
  ASSERT_EQ(WriteOk([&](Transaction& tx) {
              return tx.events().SealEvents("p-1", kT0 + week, 100, kT0 + week + kHour);
            }),
            2u);
  const auto window = [&](std::int64_t hour) { return RollupIds(hour, hour + 1); };
  EXPECT_EQ(window(0), (std::vector<std::string>{"a-1", "b-1", "b-2"}));
  // Late events of both visits, two hours after they started.
  Insert({View("a-2", "old", kT0 + 2 * kHour, kT0 + week + 3 * kHour),
          View("b-3", "kept", kT0 + 2 * kHour, kT0 + week + 3 * kHour)});
  EXPECT_EQ(window(0), (std::vector<std::string>{"a-1", "b-1", "b-2", "b-3"}))
      << "the kept visit has all its events; the forgotten one not its late event";
  EXPECT_EQ(window(2), (std::vector<std::string>{"a-2"})) << "a visit of its own";
  Seal("p-1", kNever);
  EXPECT_EQ(window(0), (std::vector<std::string>{"a-1", "b-1", "b-2", "b-3"}));
  EXPECT_EQ(window(2), (std::vector<std::string>{"a-2"}));
}

// Forgetting reads every old visit start not yet sealed, so it runs once the inbox is drained,
// not after each batch of a backlog (which made sealing a large backlog quadratic): until then
// a visit sealed in an early batch is still known to its late events.
TEST_P(EventBlocks, VisitsAreForgottenOnlyOnceTheInboxIsDrained) {
  SeedProject();
  const std::int64_t later = kT0 + 7 * 24 * kHour + kHour;  // both visits a week old
  Insert({View("a-1", "old", kT0), View("c-1", "other", kT0 + kHour)});
  const auto seal = [&](std::size_t limit) {
    return WriteOk([&](Transaction& tx) {
      return tx.events().SealEvents("p-1", kNever, limit, later);
    });
  };
  ASSERT_EQ(seal(1), 1u);  // a-1 only: c-1 is still in the inbox
  Insert({View("a-2", "old", kT0 + 2 * kHour)});
  const auto hour_ids = [&](std::int64_t hour) { return RollupIds(hour, hour + 1); };
  EXPECT_EQ(hour_ids(0), (std::vector<std::string>{"a-1", "a-2"})) << "still one visit";
  ASSERT_EQ(seal(100), 2u);  // drained: the visits sealed whole are forgotten now
  Insert({View("a-3", "old", kT0 + 3 * kHour)});
  EXPECT_EQ(hour_ids(0), (std::vector<std::string>{"a-1", "a-2"}));
  EXPECT_EQ(hour_ids(3), (std::vector<std::string>{"a-3"})) << "a visit of its own";
}

// The inbox's part of a window is read by scanning its events when few follow the window's
// start, and by the window's visit starts when many do (a backlog, as after an upgrade): both
// ways read the same events.
TEST_P(EventBlocks, ALargeInboxIsReadByTheWindowsVisitStarts) {
  SeedProject();
  std::vector<EventRecord> events;
  for (int i = 0; i < 20'100; ++i) {  // more than the 20,000 scanned, from hour 10 on
    EventRecord e = SparseEvent("backlog-" + std::to_string(i), "p-1",
                                kT0 + 10 * kHour + i * (38 * kHour / 20'100));
    e.session_id = "s-" + std::to_string(i / 2);  // visits of two events
    e.is_bot = false;
    e.event = "screen_view";
    events.push_back(std::move(e));
  }
  Insert(events);
  // The events of the visits whose first event is in the hours.
  const auto expected = [&](std::int64_t from_hour, std::int64_t to_hour) {
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < events.size(); i += 2) {
      if (events[i].occurred_at < kT0 + from_hour * kHour ||
          events[i].occurred_at >= kT0 + to_hour * kHour) {
        continue;
      }
      ids.push_back(events[i].id);
      if (i + 1 < events.size()) ids.push_back(events[i + 1].id);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  };
  const auto large = RollupIds(10, 12);  // 20,100 events from its start on: by the visit starts
  EXPECT_GT(large.size(), 500u);
  EXPECT_EQ(large, expected(10, 12));
  EXPECT_EQ(RollupIds(46, 48), expected(46, 48));  // a few hundred from its start: by scanning
}

TEST_P(EventBlocks, SealersOfOneProjectNeverSealAnEventTwiceOrLoseOne) {
  SeedProject();
  const auto events = Traffic(3, "c");
  Insert(events);
  std::atomic<std::size_t> sealed = 0;
  std::vector<std::thread> sealers;
  for (int t = 0; t < 3; ++t) {
    sealers.emplace_back([&] {
      for (int round = 0; round < 20; ++round) {
        auto done = Write([&](Transaction& tx) {
          return tx.events().SealEvents("p-1", kNever, 11, kT0);
        });
        if (done) sealed += *done;
      }
    });
  }
  for (std::thread& sealer : sealers) sealer.join();
  EXPECT_EQ(sealed.load(), events.size() - 1);
  const auto all = ReadOk([](Transaction& tx) { return tx.events().ListRecentEvents("p-1", 1000); });
  std::set<std::string> ids;
  for (const EventRecord& e : all) ids.insert(e.id);
  EXPECT_EQ(all.size(), events.size() - 1);
  EXPECT_EQ(ids.size(), all.size()) << "an event sealed twice";
}

// A reader that names its columns gets blocks that read them as the whole blocks do; on
// PostgreSQL those blocks hold nothing else (storage/block_reads.h), and the events' ids come
// along only when the inbox holds rows of the window.
TEST_P(EventBlocks, ABlocksColumnsReadAloneAreThoseOfTheWholeBlock) {
  SeedTwoProjects();
  std::vector<EventRecord> events;
  for (int i = 0; i < 400; ++i) {
    EventRecord e = View("c-" + std::to_string(i), "c-s" + std::to_string(i % 40),
                         kT0 + i * 5'000);
    e.path = "/page/" + std::to_string(i % 37);
    e.tags_json = R"({"n":)" + std::to_string(i) + "}";
    events.push_back(std::move(e));
  }
  Insert(events);
  Seal("p-1", kNever);
  using blocks::ColumnId;
  const std::vector<ColumnId> wanted = {static_cast<ColumnId>(EventColumn::kOccurredAt),
                                        static_cast<ColumnId>(EventColumn::kPath),
                                        static_cast<ColumnId>(EventColumn::kTags)};
  const auto read = [&](const std::vector<ColumnId>* columns) {
    return ReadOk([&](Transaction& tx) {
      return tx.reports().ReadWebWindow("p-1", kT0, kT0 + kHour, true, columns);
    });
  };
  const auto compare = [&](const WebWindowRows& whole, const WebWindowRows& part,
                           bool ids_expected) {
    ASSERT_EQ(whole.blocks.size(), 1u);
    ASSERT_EQ(part.blocks.size(), 1u);
    auto all = blocks::BlockReader::Open(whole.blocks[0]);
    auto some = blocks::BlockReader::Open(part.blocks[0]);
    ASSERT_TRUE(all && some);
    EXPECT_EQ(*some->Integers(wanted[0]), *all->Integers(wanted[0]));
    for (ColumnId id : {wanted[1], wanted[2]}) {
      for (std::size_t r = 0; r < all->rows(); ++r) {
        EXPECT_EQ(some->Text(id)->At(r), all->Text(id)->At(r));
      }
    }
    const auto id_column = static_cast<ColumnId>(EventColumn::kId);
    if (GetParam() == Backend::kPostgres) {
      EXPECT_LT(part.blocks[0].size(), whole.blocks[0].size());
      EXPECT_FALSE(some->Has(static_cast<ColumnId>(EventColumn::kUserAgent)));
      EXPECT_EQ(some->Has(id_column), ids_expected);
    } else {
      EXPECT_EQ(part.blocks[0], whole.blocks[0]);
    }
    if (ids_expected) {
      EXPECT_EQ(some->Text(id_column)->At(7), all->Text(id_column)->At(7));
    }
  };
  compare(read(nullptr), read(&wanted), false);
  // An event of the window still in the inbox: the ids are needed to tell its rows apart.
  Insert({View("c-late", "c-s1", kT0 + 10)});
  compare(read(nullptr), read(&wanted), true);
}

TEST_P(EventBlocks, DeletingAProjectDeletesItsBlocks) {
  SeedTwoProjects();
  Insert(Traffic(4, "d"));
  Seal("p-1", kNever);
  Seal("p-2", kNever);
  EXPECT_TRUE(WriteOk([](Transaction& tx) { return tx.accounts().DeleteProject("p-1"); }));
  EXPECT_TRUE(ReadOk([](Transaction& tx) { return tx.events().ListRecentEvents("p-1", 10); })
                  .empty());
  EXPECT_EQ(ReadOk([](Transaction& tx) { return tx.events().ListRecentEvents("p-2", 10); }).size(),
            1u);
}

}  // namespace
}  // namespace sightline::storage
