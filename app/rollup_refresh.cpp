#include "app/rollup_refresh.h"

#include "core/logging.h"
#include "reports/rollups.h"
#include "storage/account_repository.h"
#include "storage/report_repository.h"

namespace sightline::app {

std::size_t RefreshMarkedRollups(storage::Store& store) {
  auto projects = store.Read([](storage::Transaction& tx) {
    return tx.reports().ListProjectsWithRollupMarks();
  });
  if (!projects) return 0;
  std::size_t refreshed = 0;
  for (const std::string& project_id : *projects) {
    auto project = store.Read([&](storage::Transaction& tx) {
      return tx.accounts().FindProject(project_id);
    });
    if (!project || !*project) continue;  // rows of a deleted project: nothing reads them
    auto zone = reports::ReportingZone::Find((*project)->reporting_timezone);
    if (!zone) continue;
    auto done = reports::RefreshRollups(store, project_id, *zone, {});
    if (done) {
      ++refreshed;
    } else {
      core::Log(core::LogLevel::kWarn, "report rollups not refreshed",
                {{"project", project_id}, {"reason", done.error().internal()}});
    }
  }
  return refreshed;
}

}  // namespace sightline::app
