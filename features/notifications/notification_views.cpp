#include "features/notifications/notification_views.h"

#include "core/clock.h"

namespace sightline::tools {

namespace json = boost::json;

json::object NotificationView(const storage::NotificationRecord& n) {
  json::object out{{"id", n.id},
                   {"eventId", n.event_id},
                   {"event", n.event},
                   {"channel", n.channel},
                   {"createdAt", core::FormatRfc3339(n.created_at)}};
  if (n.icon) out["icon"] = *n.icon;
  if (n.description) out["description"] = *n.description;
  if (n.user_id) out["userId"] = *n.user_id;
  return out;
}

}  // namespace sightline::tools
