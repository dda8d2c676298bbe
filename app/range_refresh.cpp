#include "app/range_refresh.h"

#include "core/logging.h"
#include "storage/event_repository.h"

#include <future>
#include <set>

namespace sightline::app {

std::vector<RangeSource> CatalogRangeSources(const detection::BotCatalog& catalog,
                                             const std::string& mirror) {
  std::vector<RangeSource> out;
  std::set<std::string> seen;
  for (const auto& bot : catalog.entries()) {
    for (const auto& list : bot.ip_ranges) {
      if (!seen.insert(list.id).second) continue;
      std::string base = mirror;
      while (!base.empty() && base.back() == '/') base.pop_back();
      out.push_back({list.id, mirror.empty() ? list.url : base + "/" + list.id + ".json"});
    }
  }
  return out;
}

namespace {

// A fetched body becomes the list's stored copy only when it parses.
RangeRefreshOutcome StoreFetched(storage::Store& store, const core::Clock& clock,
                                 const std::string& list_id, core::Result<std::string> body) {
  RangeRefreshOutcome outcome{list_id};
  if (!body) {
    outcome.message = std::string(body.error().message());
    return outcome;
  }
  auto ranges = detection::ParseGoogleFormatRanges(*body);
  if (!ranges) {
    outcome.message = "not a range list: " + std::string(ranges.error().message());
    return outcome;
  }
  auto stored = store.WriteOne([&](storage::Transaction& tx) {
    return tx.events().PutBotRangeList({list_id, *body, clock.NowMillis()});
  });
  if (!stored) {
    outcome.message = std::string(stored.error().message());
    return outcome;
  }
  outcome.ok = true;
  outcome.intervals = ranges->size();
  outcome.message = std::to_string(outcome.intervals) + " ranges";
  return outcome;
}

}  // namespace

std::vector<RangeRefreshOutcome> RefreshRanges(core::UrlFetcher& fetcher,
                                               storage::Store& store, const core::Clock& clock,
                                               const std::vector<RangeSource>& sources,
                                               const std::atomic<bool>* stop) {
  // Asked for all at once: the fetcher queues what exceeds its connection limit.
  std::vector<std::future<core::Result<std::string>>> bodies;
  for (const RangeSource& source : sources) {
    auto promise = std::make_shared<std::promise<core::Result<std::string>>>();
    bodies.push_back(promise->get_future());
    fetcher.Fetch(source.url, [promise](core::Result<std::string> body) {
      promise->set_value(std::move(body));
    });
  }
  std::vector<RangeRefreshOutcome> outcomes;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    while (bodies[i].wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
      if (stop != nullptr && *stop) return outcomes;  // the fetches finish into their promises
    }
    outcomes.push_back(StoreFetched(store, clock, sources[i].list_id, bodies[i].get()));
  }
  return outcomes;
}

core::Result<std::shared_ptr<const detection::VendorRanges>> LoadRanges(
    storage::Store& store, const std::string& directory, const std::vector<std::string>& list_ids) {
  auto ranges = std::make_shared<detection::VendorRanges>();
  auto stored =
      store.Read([](storage::Transaction& tx) { return tx.events().ListBotRangeLists(); });
  if (!stored) return stored.error();
  for (const auto& list : *stored) {
    if (auto parsed = detection::ParseGoogleFormatRanges(list.body)) {
      ranges->Put(list.list_id, std::move(*parsed));
    }
  }
  if (!directory.empty()) {
    auto files = detection::VendorRanges::LoadDirectory(directory, list_ids);
    if (!files) return files.error();
    ranges->Merge(std::move(*files));
  }
  return std::shared_ptr<const detection::VendorRanges>(std::move(ranges));
}

RangeRefresher::RangeRefresher(core::UrlFetcher& fetcher, storage::Store& store,
                               const core::Clock& clock, std::vector<RangeSource> sources,
                               std::string directory, std::vector<std::string> list_ids,
                               detection::LiveRanges& live, std::chrono::hours interval)
    : fetcher_(fetcher),
      store_(store),
      clock_(clock),
      sources_(std::move(sources)),
      directory_(std::move(directory)),
      list_ids_(std::move(list_ids)),
      live_(live),
      task_(interval, /*first_at_start=*/true,
            [this](const std::atomic<bool>& stopping) { Round(stopping); }) {}

void RangeRefresher::Round(const std::atomic<bool>& stopping) {
  const auto outcomes = RefreshRanges(fetcher_, store_, clock_, sources_, &stopping);
  if (stopping) return;
  std::int64_t refreshed = 0;
  for (const auto& outcome : outcomes) {
    if (outcome.ok) {
      ++refreshed;
      core::Log(core::LogLevel::kInfo, "bot ip range list refreshed",
                {{"list", outcome.list_id},
                 {"intervals", static_cast<std::int64_t>(outcome.intervals)}});
    } else {
      core::Log(core::LogLevel::kWarn, "bot ip range list not refreshed",
                {{"list", outcome.list_id}, {"reason", outcome.message}});
    }
  }
  if (auto ranges = LoadRanges(store_, directory_, list_ids_)) {
    live_.Replace(std::move(*ranges));
  } else {
    core::Log(core::LogLevel::kWarn, "bot ip ranges not reloaded",
              {{"reason", ranges.error().message()}});
  }
  core::Log(core::LogLevel::kInfo, "bot ip ranges refreshed",
            {{"refreshed", refreshed},
             {"failed", static_cast<std::int64_t>(outcomes.size()) - refreshed},
             {"lists", static_cast<std::int64_t>(sources_.size())}});
}

}  // namespace sightline::app
