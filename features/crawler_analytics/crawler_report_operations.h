// Crawler analytics (/bots/analytics/*): the bots' timeline, top bots, their countries,
// categories and most requested paths. Each takes `from`/`to` in the project's reporting
// timezone and the period comparison parameters.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kBotTimeline;
extern const OperationSpec kTopBots;
extern const OperationSpec kBotCountries;
extern const OperationSpec kBotCategories;
extern const OperationSpec kBotTopPaths;

}  // namespace sightline::tools
