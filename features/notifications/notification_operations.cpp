#include "features/notifications/notification_operations.h"

#include "core/clock.h"
#include "features/notifications/notification_stream.h"
#include "features/notifications/notification_views.h"
#include "storage/event_repository.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

constexpr std::string_view kNotificationList = "list_notifications";

Result<json::value> RunListNotifications(OperationContext& context, const json::object& args) {
  auto request = ReadPageArgs(args, kNotificationList, kTimeIdShape, 50);
  if (!request) return request.error();
  std::optional<std::pair<std::int64_t, std::string>> before;
  if (request->after) before = TimeIdOf(*request->after);
  auto rows = context.store.Read([&](storage::Transaction& tx) {
    return tx.events().ListNotifications(context.project->id, before, request->limit + 1);
  });
  if (!rows) return rows.error();
  const auto last = TrimToPage(*rows, request->limit, [](const auto& notification) {
    return TimeIdKey(notification.created_at, notification.id);
  });
  json::array out;
  for (const auto& n : *rows) out.push_back(NotificationView(n));
  json::object page{{"notifications", std::move(out)}};
  WriteNextCursor(page, kNotificationList, last);
  return json::value(std::move(page));
}

Result<std::shared_ptr<core::ResponseStream>> OpenNotificationStream(OperationContext& context,
                                                                     const json::object&) {
  // A reconnecting EventSource resumes after the last event it saw; otherwise only what is
  // raised from now on is sent.
  std::pair<std::int64_t, std::string> after{context.clock.NowMillis(), ""};
  if (context.request.headers) {
    if (auto last = context.request.headers->Get("Last-Event-ID")) {
      const auto key = DecodeCursor(NotificationStream::kCursorList, kTimeIdShape, *last);
      if (key) after = TimeIdOf(*key);
    }
  }
  return std::shared_ptr<core::ResponseStream>(
      std::make_shared<NotificationStream>(context.store, context.project->id, after));
}

}  // namespace

const OperationSpec kListNotifications{
    .name = "list_notifications",
    .summary = "List notifications",
    .description = "Notifications raised by events sent with `notify: true`, newest first.",
    .tag = "Events",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/notifications",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunListNotifications,
};

const OperationSpec kStreamNotifications{
    .name = "stream_notifications",
    .summary = "Stream notifications (Server-Sent Events)",
    .description = "A text/event-stream of `notification` events (the NotificationView JSON as "
                   "data) raised from now on, across every node; keep-alive comments every 15 "
                   "seconds. Reconnect with Last-Event-ID to resume where the stream stopped.",
    .tag = "Events",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/notifications/stream",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = identity::CredentialKind::kUserSession | identity::CredentialKind::kPrivateApiKey,
    .mcp_exclusion_reason = "A stream, not a call with a result.",
    .open_stream = OpenNotificationStream,
};

}  // namespace sightline::tools
