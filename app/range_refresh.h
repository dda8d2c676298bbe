// Vendors' published crawler IP ranges: fetched from the URLs the catalog names (or a mirror),
// the last good copy of each list kept in the store, and the lists in use built from the store
// plus an optional directory of files (air-gapped installs, tests), which wins per list.
#pragma once

#include "app/periodic_task.h"
#include "core/clock.h"
#include "core/result.h"
#include "detection/bot_catalog.h"
#include "detection/ip_ranges.h"
#include "core/url_fetcher.h"
#include "detection/signature_directory.h"
#include "storage/store.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace sightline::app {

struct RangeSource {
  std::string list_id;
  std::string url;
};

// One source per distinct list id in the catalog; with `mirror`, "<mirror>/<list id>.json".
std::vector<RangeSource> CatalogRangeSources(const detection::BotCatalog& catalog,
                                             const std::string& mirror);

struct RangeRefreshOutcome {
  std::string list_id;
  bool ok = false;
  std::string message;        // the failure, or how many intervals were stored
  std::size_t intervals = 0;  // in the stored list (0 when not ok)
};

// Fetches every source (all at once, waiting for all); each list that parses replaces its
// stored copy. A failed fetch or an unparseable list keeps the previous copy. When `stop`
// becomes true the wait ends early and the lists not yet back are left alone (shutdown never
// waits for a slow vendor).
std::vector<RangeRefreshOutcome> RefreshRanges(core::UrlFetcher& fetcher,
                                               storage::Store& store, const core::Clock& clock,
                                               const std::vector<RangeSource>& sources,
                                               const std::atomic<bool>* stop = nullptr);

// The lists in use: the store's copies, then `directory`'s files (when not empty) over them.
core::Result<std::shared_ptr<const detection::VendorRanges>> LoadRanges(
    storage::Store& store, const std::string& directory, const std::vector<std::string>& list_ids);

// Refreshes the lists in the background: at start, then every `interval` (never when zero);
// after each round the lists in use are rebuilt from the store, so nodes sharing a store also
// pick up each other's refreshes. Each round logs every list's outcome and a summary. Stops
// with the object.
class RangeRefresher {
 public:
  RangeRefresher(core::UrlFetcher& fetcher, storage::Store& store,
                 const core::Clock& clock, std::vector<RangeSource> sources,
                 std::string directory, std::vector<std::string> list_ids,
                 detection::LiveRanges& live, std::chrono::hours interval);

 private:
  void Round(const std::atomic<bool>& stopping);

  core::UrlFetcher& fetcher_;
  storage::Store& store_;
  const core::Clock& clock_;
  const std::vector<RangeSource> sources_;
  const std::string directory_;
  const std::vector<std::string> list_ids_;
  detection::LiveRanges& live_;
  PeriodicTask task_;  // last: its rounds use every member above
};

}  // namespace sightline::app
