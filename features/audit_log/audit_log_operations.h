// The organization's audit log.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kListAuditLog;

}  // namespace sightline::tools
