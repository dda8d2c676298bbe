#include "tools/project_operations.h"

#include "core/timezone.h"
#include "tools/schema_fragments.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

constexpr std::string_view kProjectSchema = R"({
  "type": "object",
  "required": ["id", "organizationId", "name", "reportingTimezone", "botDetection",
               "eventStorage", "ipLogging", "createdAt", "updatedAt"],
  "properties": {
    "id": {"type": "string", "format": "uuid", "description": "Project id."},
    "organizationId": {"type": "string", "format": "uuid"},
    "organizationSlug": {"type": "string"},
    "name": {"type": "string"},
    "reportingTimezone": {"type": "string",
      "description": "IANA time zone that governs every date boundary in reports."},
    "botDetection": {"type": "boolean",
      "description": "On: bot events are stored flagged is_bot. Off: bot traffic is dropped."},
    "eventStorage": {"type": "boolean", "description": "Off: events are accepted and discarded."},
    "ipLogging": {"type": "boolean",
      "description": "On: client IPs are stored; off: used for enrichment, then dropped."},
    "createdAt": {"type": "string", "format": "date-time"},
    "updatedAt": {"type": "string", "format": "date-time"}
  }
})";

Result<json::value> RunGetProject(OperationContext& context, const json::object&) {
  return json::value(ProjectToJson(*context.project, context.organization));
}

// Applies the settings present in `args` to `project`; VAL_003 for an unknown time zone.
Result<void> ApplySettings(const json::object& args, storage::ProjectRecord& project) {
  if (auto name = args.if_contains("name")) project.name = std::string(name->as_string());
  if (auto zone = args.if_contains("reportingTimezone")) {
    const std::string_view text = zone->as_string();
    if (!core::IsKnownTimeZone(text)) {
      core::Error error = core::Error::Invalid(
          "reportingTimezone", "'reportingTimezone' must be an IANA time zone such as "
                               "'Europe/Berlin' or 'UTC'.");
      error.mutable_details()["value"] = text;
      return error;
    }
    project.reporting_timezone = std::string(text);
  }
  if (auto on = args.if_contains("botDetection")) project.bot_detection = on->as_bool();
  if (auto on = args.if_contains("eventStorage")) project.event_storage = on->as_bool();
  if (auto on = args.if_contains("ipLogging")) project.ip_logging = on->as_bool();
  return {};
}

Result<json::value> RunUpdateProject(OperationContext& context, const json::object& args) {
  storage::ProjectRecord project = *context.project;
  auto applied = ApplySettings(args, project);
  if (!applied) return applied.error();
  project.updated_at = context.clock.NowMillis();
  auto written = context.store.Write([&](storage::Repository& repo) -> Result<bool> {
    return repo.UpdateProject(project);
  });
  if (!written) return written.error();
  if (!*written) return core::Error(core::ErrorCode::kProjectNotFound, "Project not found.");
  return json::value(ProjectToJson(project, context.organization));
}

}  // namespace

json::object ProjectToJson(const storage::ProjectRecord& project,
                           const storage::OrganizationRecord* organization) {
  json::object out;
  out["id"] = project.id;
  out["organizationId"] = project.organization_id;
  if (organization) out["organizationSlug"] = organization->slug;
  out["name"] = project.name;
  out["reportingTimezone"] = project.reporting_timezone;
  out["botDetection"] = project.bot_detection;
  out["eventStorage"] = project.event_storage;
  out["ipLogging"] = project.ip_logging;
  out["createdAt"] = core::FormatRfc3339(project.created_at);
  out["updatedAt"] = core::FormatRfc3339(project.updated_at);
  return out;
}

const OperationSpec kGetProject{
    .name = "get_project",
    .summary = "Get a project",
    .description = "Returns one project of the organization with its settings.",
    .tag = "Projects",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}",
    .input_schema = R"({"type": "object", "required": ["orgSlug", "projectId"],
                        "properties": {)" SIGHTLINE_PROJECT_SCOPE_PROPERTIES R"(}})",
    .output_schema = kProjectSchema,
    .permission = identity::Permission::kProjectView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kPrivateApiKey,
    .run = RunGetProject,
};

const OperationSpec kUpdateProject{
    .name = "update_project",
    .summary = "Update a project's name or settings",
    .description =
        "Changes the project's name, reporting time zone and its bot-detection, event-storage "
        "and IP-logging switches. Only the fields sent change. Changing the reporting time zone "
        "restates past daily figures; no data is lost.",
    .tag = "Projects",
    .method = core::HttpMethod::kPatch,
    .path = "/{orgSlug}/projects/{projectId}",
    .input_schema = R"({"type": "object", "required": ["orgSlug", "projectId"],
      "properties": {)" SIGHTLINE_PROJECT_SCOPE_PROPERTIES R"(,
        "name": {"type": "string", "minLength": 1, "maxLength": 200},
        "reportingTimezone": {"type": "string", "minLength": 1, "maxLength": 64,
          "description": "IANA time zone, e.g. Europe/Berlin."},
        "botDetection": {"type": "boolean"},
        "eventStorage": {"type": "boolean"},
        "ipLogging": {"type": "boolean"}
      }
    })",
    .output_schema = kProjectSchema,
    .permission = identity::Permission::kProjectManage,
    .effect = Effect::kIdempotentWrite,
    .credentials = CredentialKind::kPrivateApiKey,
    .run = RunUpdateProject,
};

}  // namespace sightline::tools
