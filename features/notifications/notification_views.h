// The JSON shape of a notification: the list's rows and each streamed event's data.
#pragma once

#include "storage/event_records.h"

#include <boost/json/object.hpp>

namespace sightline::tools {

// {id, eventId, event, channel, createdAt, icon, description, userId}
boost::json::object NotificationView(const storage::NotificationRecord& notification);

}  // namespace sightline::tools
