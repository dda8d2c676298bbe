// Event ingestion for the browser and mobile SDKs (/sdk/v1/*): one event, a batch, and
// identifying a visitor. Each takes the project's SDK key and answers once the events commit.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kSdkTrackEvent;
extern const OperationSpec kSdkTrackEvents;
extern const OperationSpec kSdkIdentify;

}  // namespace sightline::tools
