// Web analytics (/web-analytics/*): the headline metrics, the timeline, breakdowns by
// dimension, page durations, one dimension's timeline, and who is on the site now. Each takes `from`/`to` in the
// project's reporting timezone and the period comparison parameters.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kWebAnalytics;
extern const OperationSpec kWebTimeline;
extern const OperationSpec kWebBreakdown;
extern const OperationSpec kPageDurations;
extern const OperationSpec kDimensionTimeline;
extern const OperationSpec kWebRealtime;

}  // namespace sightline::tools
