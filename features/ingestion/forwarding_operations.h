// Crawler detection operations: classifying a request, and server-side ingestion of forwarded
// request signals (/ingest/v1/server).
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kClassifyRequest;
extern const OperationSpec kIngestServerEvents;
extern const OperationSpec kIngestLogDrain;

}  // namespace sightline::tools
