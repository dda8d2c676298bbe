#include "tools/dispatch.h"

#include "tools/schema.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::Result;

struct Scope {
  std::optional<storage::OrganizationRecord> organization;
  std::optional<storage::ProjectRecord> project;
};

Error OrganizationNotFound() {
  return Error(ErrorCode::kOrgNotFound, "Organization not found.");
}
Error ProjectNotFound() { return Error(ErrorCode::kProjectNotFound, "Project not found."); }

std::optional<std::string> StringArg(const json::object& args, std::string_view name) {
  const json::value* value = args.if_contains(name);
  if (!value || !value->is_string()) return std::nullopt;
  return std::string(value->as_string());
}

// Loads the organization and project named by the arguments, answering 404 for anything the
// principal is not bound to, exactly as for something that does not exist.
Result<Scope> ResolveScope(storage::Store& store, const identity::Principal& principal,
                           const json::object& args) {
  const auto slug = StringArg(args, "orgSlug");
  const auto project_id = StringArg(args, "projectId");
  if (!slug && !project_id) return Scope{};
  return store.Read([&](storage::Repository& repo) -> Result<Scope> {
    Scope scope;
    if (slug && project_id) {  // the common case, in one query
      auto found = repo.FindOrganizationAndProject(*slug, *project_id);
      if (!found) return found.error();
      scope.organization = std::move(found->first);
      scope.project = std::move(found->second);
    } else if (slug) {
      auto org = repo.FindOrganizationBySlug(*slug);
      if (!org) return org.error();
      scope.organization = std::move(*org);
    } else {
      auto project = repo.FindProject(*project_id);
      if (!project) return project.error();
      scope.project = std::move(*project);
    }
    if (slug && (!scope.organization || scope.organization->id != principal.organization_id)) {
      return OrganizationNotFound();
    }
    if (project_id) {
      const bool visible = scope.project &&
                           scope.project->organization_id == principal.organization_id &&
                           (!principal.project_id || *principal.project_id == scope.project->id);
      if (!visible) return ProjectNotFound();
    }
    return scope;
  });
}

}  // namespace

Result<json::value> Dispatcher::Call(const RegisteredOperation& operation,
                                     const identity::Principal& principal,
                                     const json::object& args, std::string_view request_id) {
  auto valid = Validate(operation.input_schema, args);
  if (!valid) return valid.error();
  auto scope = ResolveScope(store_, principal, args);
  if (!scope) return scope.error();
  const identity::Permission needed = operation.spec->permission;
  if (!principal.permissions.Has(needed)) {
    json::object details;
    details["reason"] = "missing permission " + std::string(identity::PermissionName(needed));
    return Error(ErrorCode::kPermDenied,
                 "This credential lacks the '" + std::string(identity::PermissionName(needed)) +
                     "' permission.",
                 std::move(details));
  }
  OperationContext context{store_, clock_, principal, request_id};
  if (scope->organization) context.organization = &*scope->organization;
  if (scope->project) context.project = &*scope->project;
  return operation.spec->run(context, args);
}

}  // namespace sightline::tools
