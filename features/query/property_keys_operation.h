// `get_property_keys`: the custom property keys of a period's web events, most used first, for
// choosing an `event:props:<key>` dimension or filter (docs/query.md).
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kGetPropertyKeys;

}  // namespace sightline::tools
