// `sightline admin demo`: a project named so no one mistakes it for their own, filled with
// generated data that shows what the product does on the first look: two months of visits and
// crawler requests (demo/traffic.h), AI-visibility runs answered by a script (demo/answers.h)
// and a ServiceAuditBot crawl of the built-in sample site (demo/sample_site.h), run by the real
// crawler and checks. Made once: a demo project that holds events is left as it is.
#pragma once

#include <cstdint>
#include <string>

#include "core/clock.h"
#include "core/result.h"
#include "demo/answers.h"
#include "demo/traffic.h"
#include "identity/bootstrap.h"
#include "storage/store.h"

namespace sightline::demo {

inline constexpr std::string_view kDemoProjectName = "Demo: Northwind Outfitters (generated data)";

struct DemoRequest {
  std::string email;              // the owner, who must exist (admin bootstrap made them)
  std::string organization_name;  // found or made, as admin bootstrap does
  std::string project_name = std::string(kDemoProjectName);
  int days = 60;
};

struct DemoResult {
  identity::BootstrapResult keys;  // the demo project's own SDK and private keys
  bool generated = false;          // false: the project had its data already
  TrafficCounts traffic;
  AnswerCounts answers;
  std::int64_t crawled_pages = 0;
};

core::Result<DemoResult> CreateDemoProject(storage::Store& store, const core::Clock& clock,
                                           const DemoRequest& request);

}  // namespace sightline::demo
