#include "tools/project_operations.h"

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
    .input_schema = R"({
      "type": "object",
      "required": ["orgSlug", "projectId"],
      "properties": {
        "orgSlug": {"type": "string", "minLength": 1, "maxLength": 64,
                    "description": "The organization's slug."},
        "projectId": {"type": "string", "minLength": 1, "maxLength": 64,
                      "description": "The project's id."}
      }
    })",
    .output_schema = kProjectSchema,
    .permission = identity::Permission::kProjectView,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kPrivateApiKey,
    .run = RunGetProject,
};

}  // namespace sightline::tools
