// The one query operation (`query`): any question about a project's data in Plausible's
// Stats API v2 request and response shape (docs/query.md), over the web, crawler and
// AI-visibility datasets.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kQuery;
// `query` at Plausible's own path, POST /api/v2/query, with `site_id` naming the key's project.
extern const OperationSpec kQueryV2;

}  // namespace sightline::tools
