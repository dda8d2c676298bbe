// Notifications raised by events sent with `notify: true`: the list, newest first, and the live
// feed as Server-Sent Events (notification_stream).
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kListNotifications;
extern const OperationSpec kStreamNotifications;

}  // namespace sightline::tools
