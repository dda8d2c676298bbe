// The JSON shapes of stored events and notifications.
#pragma once

#include "storage/event_records.h"


#include <boost/json/object.hpp>

namespace sightline::tools {

// {id, event, channel, timestamp, receivedAt, userId, anonymousId, icon, description, notify,
//  tags}: `tags` holds the client's tags and the enrichment tags (`__browser`, `__session_id`…).
boost::json::object EventView(const storage::EventRecord& event);
boost::json::object NotificationView(const storage::NotificationRecord& notification);

}  // namespace sightline::tools
