// Event ingestion for SDKs (/sdk/v1/*), and reading back what was ingested: the events feed,
// usage counters and notifications.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kSdkTrackEvent;
extern const OperationSpec kSdkTrackEvents;
extern const OperationSpec kSdkIdentify;
extern const OperationSpec kListEvents;
extern const OperationSpec kGetUsage;
extern const OperationSpec kListNotifications;
extern const OperationSpec kStreamNotifications;

}  // namespace sightline::tools
