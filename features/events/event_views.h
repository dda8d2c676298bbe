// The JSON shape of a stored event.
#pragma once

#include "storage/event_records.h"

#include <boost/json/object.hpp>

namespace sightline::tools {

// {id, event, channel, timestamp, receivedAt, userId, anonymousId, icon, description, notify,
//  tags}: `tags` holds the client's tags and the enrichment tags (`__browser`, `__session_id`…).
boost::json::object EventView(const storage::EventRecord& event);

}  // namespace sightline::tools
