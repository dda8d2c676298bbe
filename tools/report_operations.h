// Report operations: crawler analytics (/bots/analytics/*) now; web analytics next. Each takes
// `from`/`to` in the project's reporting timezone and the period comparison parameters.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kBotTimeline;
extern const OperationSpec kTopBots;
extern const OperationSpec kBotCountries;
extern const OperationSpec kBotCategories;
extern const OperationSpec kBotTopPaths;

}  // namespace sightline::tools
