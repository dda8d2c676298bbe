// What was ingested, read back: the project's events feed (newest first, every enrichment tag)
// and the events counted per month (usage).
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kListEvents;
extern const OperationSpec kGetUsage;

}  // namespace sightline::tools
