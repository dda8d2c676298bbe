#include "features/organizations/organization_operations.h"

#include "core/crypto.h"
#include "core/logging.h"
#include "identity/bootstrap.h"
#include "storage/account_repository.h"
#include "tools/audit_log.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "tools/views.h"

#include <algorithm>

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::ErrorCode;
using core::Result;
using identity::CredentialKind;

bool IsValidSlug(std::string_view slug) {
  if (slug.empty() || slug.size() > 48 || slug.front() == '-' || slug.back() == '-') return false;
  return std::all_of(slug.begin(), slug.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

Result<std::string> ChooseSlug(const json::object& args) {
  const auto given = OptionalString(args, "slug");
  if (!given) return identity::SlugFor(RequiredString(args, "name"));
  if (!IsValidSlug(*given)) {
    return core::Error::Invalid("slug", "'slug' must be 1 to 48 characters of a-z, 0-9 and '-', "
                                        "not starting or ending with '-'.");
  }
  if (identity::IsReservedSlug(*given)) {
    return FieldError(ErrorCode::kOrgSlugTaken, "The slug '" + *given + "' is reserved.", "slug");
  }
  return *given;
}

Result<json::value> RunCreateOrganization(OperationContext& context, const json::object& args) {
  auto slug = ChooseSlug(args);
  if (!slug) return slug.error();
  const std::int64_t now = context.clock.NowMillis();
  storage::OrganizationRecord org{core::NewUuidV4(), *slug, RequiredString(args, "name"), false,
                                  now, now};
  AuditEntry audit{"organization.create", "organization", org.id, {{"slug", org.slug}}, org.id};
  auto created = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    auto inserted = tx.accounts().InsertOrganization(org);
    if (!inserted) {
      if (inserted.error().code() != ErrorCode::kConflict) return inserted.error();
      return FieldError(ErrorCode::kOrgSlugTaken,
                        "The slug '" + org.slug + "' is already taken.", "slug");
    }
    return tx.accounts().PutMembership({org.id, *context.principal.user_id, "owner", now});
  });
  if (!created) return created.error();
  return json::value(OrganizationView(org, "owner"));
}

Result<json::value> RunListOrganizations(OperationContext& context, const json::object& args) {
  auto memberships = context.store.Read([&](storage::Transaction& tx) {
    return tx.accounts().ListOrganizationsOfUser(*context.principal.user_id);
  });
  if (!memberships) return memberships.error();
  // By name, as the organization switcher shows them.
  return AnswerWholeList(
      ListSpec{"list_organizations", "organizations", PageOrder::kAscending, "ss"}, args,
      std::move(*memberships),
      [](const storage::MembershipOfUser& m) {
        return PageKey{m.organization.name, m.organization.id};
      },
      [](const storage::MembershipOfUser& m) { return OrganizationView(m.organization, m.role); });
}

Result<json::value> RunGetOrganization(OperationContext& context, const json::object&) {
  return json::value(OrganizationView(*context.organization, context.role.value_or("")));
}

Result<json::value> RunUpdateOrganization(OperationContext& context, const json::object& args) {
  storage::OrganizationRecord org = *context.organization;
  json::object changes;
  if (auto name = OptionalString(args, "name")) changes["name"] = org.name = *name;
  if (auto required = OptionalBool(args, "requireTwoFactor")) {
    changes["requireTwoFactor"] = org.require_two_factor = *required;
  }
  org.updated_at = context.clock.NowMillis();
  AuditEntry audit{"organization.update", "organization", org.id, std::move(changes), {}};
  auto written = AuditedWrite(context, audit, [&](storage::Transaction& tx) {
    return tx.accounts().UpdateOrganization(org);
  });
  if (!written) return written.error();
  return json::value(OrganizationView(org, context.role.value_or("")));
}

Result<json::value> RunDeleteOrganization(OperationContext& context, const json::object&) {
  const storage::OrganizationRecord& org = *context.organization;
  // The organization's audit log goes with it; the deletion itself is kept as an entry without
  // an organization (like account-level changes), naming what was deleted.
  storage::AuditRecord record = MakeAuditRecord(
      context, {"organization.delete", "organization", org.id,
                {{"organizationId", org.id}, {"slug", org.slug}, {"name", org.name}}, {}});
  record.organization_id.clear();
  auto deleted = context.store.Write([&](storage::Transaction& tx) -> Result<void> {
    auto gone = tx.accounts().DeleteOrganization(org.id);
    if (!gone) return gone.error();
    return tx.accounts().InsertAudit(record);
  });
  if (!deleted) return deleted.error();
  core::Log(core::LogLevel::kInfo, "organization deleted",
            {{"organizationId", org.id},
             {"slug", org.slug},
             {"actorUserId", context.principal.user_id.value_or("")},
             {"requestId", context.request.request_id}});
  return NoContent();
}

Result<json::value> RunListRoles(OperationContext&, const json::object&) {
  json::array roles;
  for (identity::Role role : identity::AllRoles()) {
    json::array permissions;
    for (auto name : identity::RolePermissions(role).Names()) permissions.push_back(json::string(name));
    roles.push_back(json::object{{"role", identity::RoleName(role)},
                                 {"permissions", std::move(permissions)}});
  }
  // A fixed catalog of five, always whole: its page is the last.
  return json::value(json::object{{"roles", std::move(roles)}, {"nextCursor", nullptr}});
}

constexpr std::string_view kSessionsOnly = "Creates or deletes whole organizations.";
constexpr CredentialKind kAnyAccount = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey;

}  // namespace

const OperationSpec kCreateOrganization{
    .name = "create_organization",
    .summary = "Create an organization",
    .description = "Creates an organization with the signed-in user as its owner. The slug is "
                   "derived from the name unless given; it must be unique (ORG_002).",
    .tag = "Organizations",
    .method = core::HttpMethod::kPost,
    .path = "/organizations",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kUserSession,
    .success_status = 201,
    .mcp_exclusion_reason = kSessionsOnly,
    .run = RunCreateOrganization,
};

const OperationSpec kListOrganizations{
    .name = "list_organizations",
    .summary = "List my organizations",
    .description = "The organizations the signed-in user belongs to, with their role in each.",
    .tag = "Organizations",
    .method = core::HttpMethod::kGet,
    .path = "/organizations",
    .permission = identity::Permission::kAccount,
    .effect = Effect::kReadOnly,
    .credentials = CredentialKind::kUserSession,
    .mcp_exclusion_reason = kBeyondTheBoundProject,
    .run = RunListOrganizations,
};

const OperationSpec kGetOrganization{
    .name = "get_organization",
    .summary = "Get an organization",
    .description = "The organization and the caller's role in it.",
    .tag = "Organizations",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}",
    .permission = identity::Permission::kOrganizationView,
    .effect = Effect::kReadOnly,
    .credentials = kAnyAccount,
    .run = RunGetOrganization,
};

const OperationSpec kUpdateOrganization{
    .name = "update_organization",
    .summary = "Update an organization",
    .description = "Renames the organization or changes whether its members must use two-factor "
                   "authentication. Only sent fields change.",
    .tag = "Organizations",
    .method = core::HttpMethod::kPatch,
    .path = "/{orgSlug}",
    .permission = identity::Permission::kOrganizationManage,
    .effect = Effect::kIdempotentWrite,
    .credentials = kAnyAccount,
    .run = RunUpdateOrganization,
};

const OperationSpec kDeleteOrganization{
    .name = "delete_organization",
    .summary = "Delete an organization",
    .description = "Permanently deletes the organization with its members, invitations, "
                   "projects, keys, events and audit log.",
    .tag = "Organizations",
    .method = core::HttpMethod::kDelete,
    .path = "/{orgSlug}",
    .permission = identity::Permission::kOrganizationDelete,
    .effect = Effect::kDestructive,
    .credentials = kAnyAccount,
    .success_status = 204,
    .mcp_exclusion_reason = kSessionsOnly,
    .run = RunDeleteOrganization,
};

const OperationSpec kListRoles{
    .name = "list_roles",
    .summary = "List roles and their permissions",
    .description = "The five roles (owner, admin, developer, analyst, support) with the "
                   "permissions each grants.",
    .tag = "Organizations",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/roles",
    .permission = identity::Permission::kOrganizationView,
    .effect = Effect::kReadOnly,
    .credentials = kAnyAccount,
    .run = RunListRoles,
};

}  // namespace sightline::tools
