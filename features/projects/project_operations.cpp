#include "features/projects/project_operations.h"

#include "core/timezone.h"
#include "core/url.h"
#include "storage/account_repository.h"
#include "storage/report_repository.h"
#include "tools/audit_log.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "core/crypto.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;

constexpr CredentialKind kAnyAccount = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey;

Result<json::value> RunGetProject(OperationContext& context, const json::object&) {
  return json::value(ProjectToJson(*context.project, context.organization));
}

// The `domains` setting as stored: each a host name (a URL's host is taken, "www." and case
// dropped), once. VAL_001 names the first that is none.
Result<std::vector<std::string>> ReadDomains(const json::array& list) {
  std::vector<std::string> domains;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string text(list[i].as_string());
    const std::string host = text.find("://") == std::string::npos ? text : core::HostOfUrl(text);
    std::string domain = core::SiteHost(host);
    const bool name = !domain.empty() && domain.find_first_not_of(
                                             "abcdefghijklmnopqrstuvwxyz0123456789.-") ==
                                             std::string::npos &&
                      !domain.starts_with('.') && !domain.starts_with('-') &&
                      domain.find("..") == std::string::npos;
    if (!name) {
      core::Error error = core::Error::Invalid(
          "domains/" + std::to_string(i),
          "Each of 'domains' must be a domain name such as 'example.com'.");
      error.mutable_details()["value"] = text;
      return error;
    }
    if (std::ranges::find(domains, domain) == domains.end()) domains.push_back(std::move(domain));
  }
  return domains;
}

// Applies the settings present in `args` to `project`; VAL_003 for an unknown time zone.
Result<void> ApplySettings(const json::object& args, storage::ProjectRecord& project) {
  if (auto name = args.if_contains("name")) project.name = std::string(name->as_string());
  if (project.name.empty()) return core::Error::Invalid("name", "'name' is required.");
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
  if (auto domains = args.if_contains("domains")) {
    auto read = ReadDomains(domains->as_array());
    if (!read) return read.error();
    project.domains = std::move(*read);
  }
  return {};
}

// The settings `args` changes, for the audit entry (only the known fields: a body may carry
// anything else, and that must not reach the audit log).
json::object Changes(const json::object& args) {
  json::object changes;
  for (std::string_view field :
       {"name", "reportingTimezone", "botDetection", "eventStorage", "ipLogging", "domains"}) {
    if (const json::value* value = args.if_contains(field)) changes[field] = *value;
  }
  return changes;
}

// The database's unique index decides races the pre-check cannot; both answer PROJECT_002.
core::Error NameTaken(const std::string& name) {
  return FieldError(core::ErrorCode::kProjectNameTaken,
                    "The organization already has a project named '" + name + "'.", "name");
}

template <class T>
Result<T> NameConflictAsTaken(Result<T> result, const std::string& name) {
  if (!result && result.error().code() == core::ErrorCode::kConflict) return NameTaken(name);
  return result;
}

// The project's name must be unique within its organization (PROJECT_002).
Result<void> RefuseTakenName(storage::Transaction& tx, const storage::ProjectRecord& project) {
  auto same = tx.accounts().FindProjectByName(project.organization_id, project.name);
  if (!same) return same.error();
  if (*same && (*same)->id != project.id) return NameTaken(project.name);
  return {};
}

Result<json::value> RunUpdateProject(OperationContext& context, const json::object& args) {
  storage::ProjectRecord project = *context.project;
  auto applied = ApplySettings(args, project);
  if (!applied) return applied.error();
  project.updated_at = context.clock.NowMillis();
  AuditEntry audit{"project.update", "project", project.id, Changes(args), {}};
  auto written = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<bool> {
    if (auto free = RefuseTakenName(tx, project); !free) return free.error();
    if (project.domains != context.project->domains) {
      // The rollups count referrers with the domains: roll them up again.
      if (auto forgot = tx.reports().ForgetRollups(project.id); !forgot) return forgot.error();
    }
    return NameConflictAsTaken(tx.accounts().UpdateProject(project), project.name);
  });
  if (!written) return written.error();
  if (!*written) return core::Error(core::ErrorCode::kProjectNotFound, "Project not found.");
  return json::value(ProjectToJson(project, context.organization));
}

Result<json::value> RunCreateProject(OperationContext& context, const json::object& args) {
  const std::int64_t now = context.clock.NowMillis();
  storage::ProjectRecord project;
  project.id = core::NewUuidV4();
  project.organization_id = context.organization->id;
  project.created_at = project.updated_at = now;
  auto applied = ApplySettings(args, project);
  if (!applied) return applied.error();
  AuditEntry audit{"project.create", "project", project.id, Changes(args), {}};
  auto created = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    if (auto free = RefuseTakenName(tx, project); !free) return free.error();
    return NameConflictAsTaken(tx.accounts().InsertProject(project), project.name);
  });
  if (!created) return created.error();
  return json::value(ProjectToJson(project, context.organization));
}

Result<json::value> RunListProjects(OperationContext& context, const json::object& args) {
  const ListSpec list{"list_projects", "projects"};
  const auto key_of = [](const storage::ProjectRecord& p) { return TimeIdKey(p.created_at, p.id); };
  const auto view_of = [&](const storage::ProjectRecord& p) {
    return ProjectToJson(p, context.organization);
  };
  // A private API key sees only the project it is bound to: a list of one.
  if (context.principal.project_id) {
    auto project = KeyProject(context);
    if (!project) return project.error();
    return AnswerWholeList(list, args, std::vector{std::move(*project)}, key_of, view_of);
  }
  auto request = ReadPageArgs(args, list.name, list.shape, kWholeList);
  if (!request) return request.error();
  auto projects = context.store.Read([&](storage::Transaction& tx) {
    return tx.accounts().ListProjects(context.organization->id, KeysetOf(*request));
  });
  if (!projects) return projects.error();
  return AnswerPage(list, request->limit, std::move(*projects), key_of, view_of);
}

Result<json::value> RunDeleteProject(OperationContext& context, const json::object&) {
  AuditEntry audit{"project.delete", "project", context.project->id,
                   {{"name", context.project->name}}, {}};
  auto deleted = AuditedWrite(context, audit, [&](storage::Transaction& tx) {
    return tx.accounts().DeleteProject(context.project->id);
  });
  if (!deleted) return deleted.error();
  return NoContent();
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
  json::array domains;
  for (const std::string& domain : project.domains) domains.emplace_back(domain);
  out["domains"] = std::move(domains);
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
    .permission = identity::Permission::kProjectView,
    .effect = Effect::kReadOnly,
    .credentials = kAnyAccount,
    .run = RunGetProject,
};

const OperationSpec kUpdateProject{
    .name = "update_project",
    .summary = "Update a project's name or settings",
    .description =
        "Changes the project's name, reporting time zone, own domains and its bot-detection, "
        "event-storage and IP-logging switches. Only the fields sent change. Changing the "
        "reporting time zone or the domains restates past figures; no data is lost.",
    .tag = "Projects",
    .method = core::HttpMethod::kPatch,
    .path = "/{orgSlug}/projects/{projectId}",
    .permission = identity::Permission::kProjectManage,
    .effect = Effect::kIdempotentWrite,
    .credentials = kAnyAccount,
    .run = RunUpdateProject,
};

const OperationSpec kCreateProject{
    .name = "create_project",
    .summary = "Create a project",
    .description = "Creates a project in the organization. The name must be unique in the "
                   "organization (PROJECT_002); settings default to reportingTimezone UTC, "
                   "botDetection on, eventStorage on, ipLogging off.",
    .tag = "Projects",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects",
    .permission = identity::Permission::kProjectCreate,
    .effect = Effect::kWrite,
    .credentials = kAnyAccount,
    .success_status = 201,
    .run = RunCreateProject,
};

const OperationSpec kListProjects{
    .name = "list_projects",
    .summary = "List projects",
    .description = "The organization's projects, oldest first (a private API key sees only its "
                   "own project).",
    .tag = "Projects",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects",
    .permission = identity::Permission::kProjectView,
    .effect = Effect::kReadOnly,
    .credentials = kAnyAccount,
    .run = RunListProjects,
};

const OperationSpec kDeleteProject{
    .name = "delete_project",
    .summary = "Delete a project",
    .description = "Permanently deletes the project with its keys, events and bot requests.",
    .tag = "Projects",
    .method = core::HttpMethod::kDelete,
    .path = "/{orgSlug}/projects/{projectId}",
    .permission = identity::Permission::kProjectDelete,
    .effect = Effect::kDestructive,
    .credentials = kAnyAccount,
    .success_status = 204,
    .mcp_exclusion_reason = "Deletes a project and all of its data.",
    .run = RunDeleteProject,
};

}  // namespace sightline::tools
