// A site's robots.txt as its newest crawl that read one recorded it (an internal header of
// features/site_audit/): the robots-vs-traffic report and the crawler-access report both set it
// against the project's crawler requests.
#pragma once

#include <boost/json/value.hpp>
#include <cstdint>
#include <string>

#include <optional>
#include <span>
#include <vector>

#include "core/result.h"
#include "reports/report_windows.h"
#include "site_audit/robots_txt.h"
#include "storage/site_audit_records.h"
#include "storage/transaction.h"

namespace sightline::tools::site_audit {

struct SiteRobots {
  sightline::site_audit::RobotsTxt rules = sightline::site_audit::RobotsTxt::AllowAll();
  boost::json::value source = nullptr;  // which crawl read them, null when none has yet
  std::int64_t crawled_at = 0;          // when that crawl started; 0 when none has
};

// The rules the site's newest crawl recorded (a crawl still running has read them already).
core::Result<SiteRobots> RobotsOfSite(storage::Transaction& tx, const std::string& project_id,
                                      const std::string& site_id);

// The crawler requests to a site's host (a project's other sites have robots.txt files of their
// own) in the selection and, when there is one, the comparison window.
struct SiteTraffic {
  std::vector<storage::SiteBotTrafficRow> current;
  std::optional<std::vector<storage::SiteBotTrafficRow>> previous;
  // What CompareRobotsWithTraffic takes for the comparison.
  std::optional<std::span<const storage::SiteBotTrafficRow>> Previous() const {
    if (!previous) return std::nullopt;
    return std::span<const storage::SiteBotTrafficRow>(*previous);
  }
};
core::Result<SiteTraffic> TrafficOfSite(storage::Transaction& tx, const std::string& project_id,
                                        const storage::SiteRecord& site,
                                        const reports::ReportWindows& windows);

}  // namespace sightline::tools::site_audit
