#include "tools/dispatch.h"

#include "storage/account_repository.h"
#include "tools/access.h"
#include "tools/operation_helpers.h"
#include "tools/schema.h"

#include <exception>
#include <future>

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::Result;
using identity::CredentialKind;

struct Scope {
  std::optional<storage::OrganizationRecord> organization;
  std::optional<storage::ProjectRecord> project;
  std::optional<std::string> role;  // a session user's role in `organization`
};

Error OrganizationNotFound() {
  return Error(ErrorCode::kOrgNotFound, "Organization not found.");
}
Error ProjectNotFound() { return Error(ErrorCode::kProjectNotFound, "Project not found."); }

Result<void> LoadRecords(storage::Transaction& tx, const std::optional<std::string>& slug,
                         const std::optional<std::string>& project_id, Scope& scope) {
  if (slug && project_id) {  // the common case, in one query
    auto found = tx.accounts().FindOrganizationAndProject(*slug, *project_id);
    if (!found) return found.error();
    scope.organization = std::move(found->first);
    scope.project = std::move(found->second);
  } else if (slug) {
    auto org = tx.accounts().FindOrganizationBySlug(*slug);
    if (!org) return org.error();
    scope.organization = std::move(*org);
  } else if (project_id) {
    auto project = tx.accounts().FindProject(*project_id);
    if (!project) return project.error();
    scope.project = std::move(*project);
  }
  return {};
}

// A key sees only its own organization and project.
Result<void> CheckKeyBinding(const identity::Principal& principal, bool wants_org,
                             bool wants_project, const Scope& scope) {
  if (wants_org && (!scope.organization || scope.organization->id != principal.organization_id)) {
    return OrganizationNotFound();
  }
  if (wants_project) {
    const bool visible = scope.project &&
                         scope.project->organization_id == principal.organization_id &&
                         (!principal.project_id || *principal.project_id == scope.project->id);
    if (!visible) return ProjectNotFound();
  }
  return {};
}

// A user sees the organizations they are a member of, and their projects.
Result<void> CheckMembership(storage::Transaction& tx, const identity::Principal& principal,
                             bool wants_org, bool wants_project, Scope& scope) {
  if (wants_org && !scope.organization) return OrganizationNotFound();
  if (wants_project && !scope.project) return ProjectNotFound();
  const std::string organization_id =
      scope.organization ? scope.organization->id : scope.project->organization_id;
  auto membership = tx.accounts().FindMembership(organization_id, *principal.user_id);
  if (!membership) return membership.error();
  if (!*membership) return wants_org ? OrganizationNotFound() : ProjectNotFound();
  scope.role = (*membership)->role;
  return {};
}

// Loads the organization and project named by the arguments, answering 404 for anything the
// principal may not see, exactly as for something that does not exist.
// A key's organization and project were read with the key in this request: when the arguments
// name exactly those, they are the scope, with no second read.
std::optional<Scope> ScopeReadWithKey(const identity::Principal& principal,
                                      const std::optional<std::string>& slug,
                                      const std::optional<std::string>& project_id) {
  if (!principal.organization || !principal.project) return std::nullopt;
  if (slug && *slug != principal.organization->slug) return std::nullopt;
  if (project_id && *project_id != principal.project->id) return std::nullopt;
  Scope scope;
  if (slug) scope.organization = *principal.organization;
  if (project_id) scope.project = *principal.project;
  return scope;
}

Result<Scope> ResolveScope(storage::Store& store, const identity::Principal& principal,
                           const json::object& args) {
  const auto slug = OptionalString(args, "orgSlug");
  const auto project_id = OptionalString(args, "projectId");
  if (!slug && !project_id) return Scope{};
  if (auto known = ScopeReadWithKey(principal, slug, project_id)) return std::move(*known);
  return store.Read([&](storage::Transaction& tx) -> Result<Scope> {
    Scope scope;
    auto loaded = LoadRecords(tx, slug, project_id, scope);
    if (!loaded) return loaded.error();
    if (scope.organization && scope.project &&
        scope.project->organization_id != scope.organization->id) {
      return ProjectNotFound();
    }
    Result<void> visible = principal.kind == CredentialKind::kUserSession
                               ? CheckMembership(tx, principal, slug.has_value(),
                                                 project_id.has_value(), scope)
                               : CheckKeyBinding(principal, slug.has_value(),
                                                 project_id.has_value(), scope);
    if (!visible) return visible.error();
    return scope;
  });
}

}  // namespace

// The scope records live here so the context's pointers into them stay valid.
struct Dispatcher::Checked {
  Scope scope;
  std::optional<OperationContext> context;
  // The arguments as validated: the caller's own, or a copy with the credential's binding.
  std::optional<json::object> bound_args;
  const json::object* args = nullptr;
};

Result<std::unique_ptr<Dispatcher::Checked>> Dispatcher::Check(
    const RegisteredOperation& operation, const identity::Principal& principal,
    const json::object& caller_args, const RequestMeta& request) {
  const OperationSpec& spec = *operation.spec;
  auto accepted = CheckCredential(spec, principal, request.caller);
  if (!accepted) return accepted.error();
  auto checked = std::make_unique<Checked>();
  checked->bound_args =
      BindArguments(operation.input_schema, principal, caller_args, request.caller);
  checked->args = checked->bound_args ? &*checked->bound_args : &caller_args;
  const json::object& args = *checked->args;
  auto valid = Validate(operation.input_schema, args);
  if (!valid) return valid.error();
  auto scope = ResolveScope(store_, principal, args);
  if (!scope) return scope.error();
  const identity::PermissionSet permissions = EffectivePermissions(principal, scope->role);
  auto permitted = CheckPermission(spec, permissions);
  if (!permitted) return permitted.error();
  checked->scope = std::move(*scope);
  OperationContext& context =
      checked->context.emplace(OperationContext{store_, clock_, services_, principal, request});
  if (checked->scope.organization) context.organization = &*checked->scope.organization;
  if (checked->scope.project) context.project = &*checked->scope.project;
  context.role = checked->scope.role;
  context.permissions = permissions;
  return checked;
}

void Dispatcher::CallAsync(const RegisteredOperation& operation,
                           const identity::Principal& principal, const json::object& args,
                           const RequestMeta& request, ResultCallback done) {
  auto checked = Check(operation, principal, args, request);
  if (!checked) return done(checked.error());
  OperationContext& context = *(*checked)->context;
  const json::object& checked_args = *(*checked)->args;
  const OperationSpec& spec = *operation.spec;
  // An exception is a bug in the operation: every caller gets SYS_001 for it (an MCP client an
  // isError result, the assistant a tool error), and the server goes on.
  try {
    if (spec.run_async) return spec.run_async(context, checked_args, std::move(done));
    if (!spec.run) return done(core::Error::Internal("a stream called as a value"));
    done(spec.run(context, checked_args));
  } catch (const std::exception& e) {
    if (done) done(core::Error::Internal(std::string(spec.name) + " threw: " + e.what()));
  }
}

Result<std::shared_ptr<core::ResponseStream>> Dispatcher::OpenStream(
    const RegisteredOperation& operation, const identity::Principal& principal,
    const json::object& args, const RequestMeta& request) {
  auto checked = Check(operation, principal, args, request);
  if (!checked) return checked.error();
  // As for calls: an exception is a bug in the operation, answered SYS_001.
  try {
    return operation.spec->open_stream(*(*checked)->context, *(*checked)->args);
  } catch (const std::exception& e) {
    return core::Error::Internal(std::string(operation.spec->name) + " threw: " + e.what());
  }
}

Result<void> Dispatcher::Authorize(const RegisteredOperation& operation,
                                   const identity::Principal& principal, const json::object& args,
                                   const RequestMeta& request) {
  auto checked = Check(operation, principal, args, request);
  if (!checked) return checked.error();
  return {};
}

Result<identity::PermissionSet> Dispatcher::PermissionsIn(const identity::Principal& principal,
                                                         const std::string& organization_slug,
                                                         const std::string& project_id) {
  auto scope = ResolveScope(store_, principal,
                            json::object{{"orgSlug", organization_slug}, {"projectId", project_id}});
  if (!scope) return scope.error();
  return EffectivePermissions(principal, scope->role);
}

Result<json::value> Dispatcher::Call(const RegisteredOperation& operation,
                                     const identity::Principal& principal,
                                     const json::object& args, const RequestMeta& request) {
  std::promise<Result<json::value>> answered;
  auto future = answered.get_future();
  CallAsync(operation, principal, args, request,
            [&answered](Result<json::value> result) { answered.set_value(std::move(result)); });
  return future.get();
}

}  // namespace sightline::tools
