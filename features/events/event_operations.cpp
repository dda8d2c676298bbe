#include "features/events/event_operations.h"

#include "core/clock.h"
#include "features/events/event_views.h"
#include "storage/event_repository.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

constexpr std::string_view kEventList = "list_events";

Result<std::optional<std::int64_t>> TimeArg(const json::object& args, std::string_view name) {
  const auto text = OptionalString(args, name);
  if (!text) return std::optional<std::int64_t>();
  if (auto millis = core::ParseRfc3339(*text)) return std::optional(*millis);
  return core::Error::Invalid(std::string(name),
                              "'" + std::string(name) + "' must be an RFC 3339 date-time.");
}

Result<json::value> RunListEvents(OperationContext& context, const json::object& args) {
  storage::EventQuery query;
  query.project_id = context.project->id;
  query.channel = OptionalString(args, "channel");
  query.event = OptionalString(args, "event");
  query.user_id = OptionalString(args, "userId");
  auto from = TimeArg(args, "from");
  if (!from) return from.error();
  auto to = TimeArg(args, "to");
  if (!to) return to.error();
  auto request = ReadPageArgs(args, kEventList, kTimeIdShape, 50);
  if (!request) return request.error();
  query.from = *from;
  query.to = *to;
  if (request->after) query.before = TimeIdOf(*request->after);
  query.limit = request->limit + 1;  // one more tells whether there is a next page
  auto events =
      context.store.Read([&](storage::Transaction& tx) { return tx.events().ListEvents(query); });
  if (!events) return events.error();
  const auto last = TrimToPage(*events, request->limit, [](const storage::EventRecord& event) {
    return TimeIdKey(event.occurred_at, event.id);
  });
  json::array out;
  for (const auto& event : *events) out.push_back(EventView(event));
  json::object page{{"events", std::move(out)}};
  WriteNextCursor(page, kEventList, last);
  return json::value(std::move(page));
}

Result<json::value> RunGetUsage(OperationContext& context, const json::object&) {
  auto usage = context.store.Read([&](storage::Transaction& tx) {
    return tx.events().ListUsage(context.project->id);
  });
  if (!usage) return usage.error();
  json::array months;
  for (const auto& month : *usage) {
    months.push_back(json::object{{"month", month.month},
                                  {"humanEvents", month.human_events},
                                  {"botEvents", month.bot_events}});
  }
  return json::value(json::object{{"months", std::move(months)}});
}

}  // namespace

const OperationSpec kListEvents{
    .name = "list_events",
    .summary = "List stored events",
    .description = "The project's events feed, newest first, with every enrichment tag "
                   "(`__browser`, `__device`, `__session_id`, …). Filter by channel, event, user "
                   "and time; page with `cursor`.",
    .tag = "Events",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/events",
    .permission = identity::Permission::kAnalyticsView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunListEvents,
};

const OperationSpec kGetUsage{
    .name = "get_usage",
    .summary = "Get monthly usage",
    .description = "Events counted per calendar month (UTC): humanEvents (billed) and botEvents "
                   "(stored when bot detection is on, never billed).",
    .tag = "Events",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/usage",
    .permission = identity::Permission::kProjectView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey,
    .run = RunGetUsage,
};

}  // namespace sightline::tools
