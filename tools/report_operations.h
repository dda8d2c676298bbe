// Report operations: crawler analytics (/bots/analytics/*, report_operations.cpp) and web
// analytics (/web-analytics/*, web_report_operations.cpp). Each takes
// `from`/`to` in the project's reporting timezone and the period comparison parameters.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kBotTimeline;
extern const OperationSpec kTopBots;
extern const OperationSpec kBotCountries;
extern const OperationSpec kBotCategories;
extern const OperationSpec kBotTopPaths;

extern const OperationSpec kWebAnalytics;
extern const OperationSpec kWebTimeline;
extern const OperationSpec kWebBreakdown;
extern const OperationSpec kPageDurations;
extern const OperationSpec kDimensionTimeline;

}  // namespace sightline::tools
