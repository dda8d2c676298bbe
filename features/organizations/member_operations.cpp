#include "features/organizations/member_operations.h"

#include "core/crypto.h"
#include "core/text.h"
#include "identity/bootstrap.h"
#include "identity/passwords.h"
#include "storage/account_repository.h"
#include "tools/audit_log.h"
#include "features/accounts/sign_in_operations.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "tools/views.h"

#include <algorithm>
#include <cctype>

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Error;
using core::ErrorCode;
using core::Result;
using identity::CredentialKind;
using storage::Transaction;

constexpr std::int64_t kInvitationLifetimeMs = 7LL * 24 * 3600 * 1000;
constexpr std::string_view kOwner = "owner";


bool CallerIsOwner(const OperationContext& context) { return context.role == kOwner; }

// Only owners may make someone an owner or change or remove an owner.
Result<void> CheckOwnerRule(const OperationContext& context, std::string_view current_role,
                            std::string_view new_role) {
  if ((current_role == kOwner || new_role == kOwner) && !CallerIsOwner(context)) {
    return Forbidden("Only an owner can grant, change or remove the owner role.");
  }
  return {};
}

// Refuses a change that would leave the organization without an owner.
Result<void> KeepAnOwner(Transaction& tx, const std::string& organization_id,
                         std::string_view current_role, std::string_view new_role) {
  if (current_role != kOwner || new_role == kOwner) return {};
  // Two owners demoting each other at once must not both see "two owners left".
  if (auto locked = tx.accounts().LockOrganization(organization_id); !locked) return locked.error();
  auto owners = tx.accounts().CountMembersWithRole(organization_id, kOwner);
  if (!owners) return owners.error();
  if (*owners <= 1) {
    return Error(ErrorCode::kOrgLastOwner, "The organization must keep at least one owner.");
  }
  return {};
}

Result<storage::MemberRecord> FindMember(Transaction& tx, const std::string& organization_id,
                                         const std::string& user_id) {
  auto members = tx.accounts().ListMembers(organization_id);
  if (!members) return members.error();
  for (auto& member : *members) {
    if (member.user.id == user_id) return std::move(member);
  }
  return NotFound("member");
}

Result<json::value> RunListMembers(OperationContext& context, const json::object& args) {
  const ListSpec list{"list_members", "members"};
  auto request = ReadPageArgs(args, list.name, list.shape, kWholeList);
  if (!request) return request.error();
  auto members = context.store.Read([&](Transaction& tx) {
    return tx.accounts().ListMembers(context.organization->id, KeysetOf(*request));
  });
  if (!members) return members.error();
  return AnswerPage(
      list, request->limit, std::move(*members),
      [](const storage::MemberRecord& m) { return TimeIdKey(m.joined_at, m.user.id); }, MemberView);
}

Result<json::value> RunUpdateMember(OperationContext& context, const json::object& args) {
  const std::string& org_id = context.organization->id;
  const std::string user_id = RequiredString(args, "userId");
  const std::string role = RequiredString(args, "role");
  AuditEntry audit{"member.update_role", "user", user_id, {{"role", role}}, {}};
  auto updated =
      AuditedWrite(context, audit, [&](Transaction& tx) -> Result<storage::MemberRecord> {
        auto member = FindMember(tx, org_id, user_id);
        if (!member) return member.error();
        if (auto rule = CheckOwnerRule(context, member->role, role); !rule) return rule.error();
        if (auto kept = KeepAnOwner(tx, org_id, member->role, role); !kept) return kept.error();
        audit.details["previousRole"] = member->role;
        auto put = tx.accounts().PutMembership({org_id, user_id, role, member->joined_at});
        if (!put) return put.error();
        member->role = role;
        return member;
      });
  if (!updated) return updated.error();
  return json::value(MemberView(*updated));
}

Result<json::value> RunRemoveMember(OperationContext& context, const json::object& args) {
  const std::string& org_id = context.organization->id;
  const std::string user_id = RequiredString(args, "userId");
  AuditEntry audit{"member.remove", "user", user_id, {}, {}};
  auto removed = AuditedWrite(context, audit, [&](Transaction& tx) -> Result<void> {
    auto member = FindMember(tx, org_id, user_id);
    if (!member) return member.error();
    if (auto rule = CheckOwnerRule(context, member->role, ""); !rule) return rule.error();
    if (auto kept = KeepAnOwner(tx, org_id, member->role, ""); !kept) return kept.error();
    auto deleted = tx.accounts().DeleteMembership(org_id, user_id);
    if (!deleted) return deleted.error();
    return {};
  });
  if (!removed) return removed.error();
  return NoContent();
}

Result<void> RefuseExistingMember(Transaction& tx, const std::string& org_id,
                                  const std::string& email) {
  auto user = tx.accounts().FindUserByEmail(email);
  if (!user) return user.error();
  if (!*user) return {};
  auto membership = tx.accounts().FindMembership(org_id, (*user)->id);
  if (!membership) return membership.error();
  if (*membership) {
    return FieldError(ErrorCode::kOrgAlreadyMember, email + " is already a member.", "email");
  }
  return {};
}

Result<json::value> RunCreateInvitation(OperationContext& context, const json::object& args) {
  const std::string role = RequiredString(args, "role");
  if (auto rule = CheckOwnerRule(context, "", role); !rule) return rule.error();
  const std::string email = core::ToLowerAscii(RequiredString(args, "email"));
  if (!identity::IsValidEmail(email)) return Error::Invalid("email", "'email' must be an email address.");
  const std::string token = "inv_" + core::RandomBase62(40);
  const std::int64_t now = context.clock.NowMillis();
  storage::InvitationRecord invitation{core::NewUuidV4(), context.organization->id, email, role,
                                       core::Sha256Hex(token), context.principal.user_id, now,
                                       now + kInvitationLifetimeMs};
  AuditEntry audit{"invitation.create", "invitation", invitation.id,
                   {{"email", email}, {"role", role}}, {}};
  auto created = AuditedWrite(context, audit, [&](Transaction& tx) -> Result<void> {
    if (auto fresh = RefuseExistingMember(tx, invitation.organization_id, email); !fresh) {
      return fresh.error();
    }
    return tx.accounts().InsertInvitation(invitation);
  });
  if (!created) return created.error();
  json::object out = InvitationView(invitation, now);
  out["token"] = token;
  return json::value(std::move(out));
}

Result<json::value> RunListInvitations(OperationContext& context, const json::object& args) {
  const ListSpec list{"list_invitations", "invitations", PageOrder::kDescending};
  auto request = ReadPageArgs(args, list.name, list.shape, kWholeList);
  if (!request) return request.error();
  auto invitations = context.store.Read([&](Transaction& tx) {
    return tx.accounts().ListInvitations(context.organization->id, KeysetOf(*request));
  });
  if (!invitations) return invitations.error();
  const std::int64_t now = context.clock.NowMillis();
  return AnswerPage(
      list, request->limit, std::move(*invitations),
      [](const storage::InvitationRecord& i) { return TimeIdKey(i.created_at, i.id); },
      [&](const storage::InvitationRecord& i) { return InvitationView(i, now); });
}

Result<json::value> RunRevokeInvitation(OperationContext& context, const json::object& args) {
  const std::string id = RequiredString(args, "invitationId");
  AuditEntry audit{"invitation.revoke", "invitation", id, {}, {}};
  auto revoked = AuditedWrite(context, audit, [&](Transaction& tx) -> Result<void> {
    auto invitation = tx.accounts().FindInvitation(id);
    if (!invitation) return invitation.error();
    if (!*invitation || (*invitation)->organization_id != context.organization->id) {
      return NotFound("invitation");
    }
    auto done = tx.accounts().RevokeInvitation(id, context.clock.NowMillis());
    if (!done) return done.error();
    if (!*done) return Error(ErrorCode::kOrgInvitationNotPending, "The invitation is no longer pending.");
    return {};
  });
  if (!revoked) return revoked.error();
  return NoContent();
}

// The invitee's account: the existing one (its password proves who they are) or a new one.
Result<storage::UserRecord> InviteeAccount(Transaction& tx, const json::object& args,
                                           const std::string& email, std::int64_t now) {
  const std::string password = RequiredString(args, "password");
  auto existing = tx.accounts().FindUserByEmail(email);
  if (!existing) return existing.error();
  if (*existing) {
    if (!identity::VerifyPassword((*existing)->password_hash, password)) {
      return Error(ErrorCode::kAuthBadLogin,
                   "An account with this email exists; give its password to accept.");
    }
    return std::move(**existing);
  }
  auto hash = identity::HashPassword(password);
  if (!hash) return hash.error();
  storage::UserRecord user{core::NewUuidV4(), email, *hash,
                           OptionalString(args, "firstName").value_or(""),
                           OptionalString(args, "lastName").value_or(""), now, now};
  auto inserted = tx.accounts().InsertUser(user);
  if (!inserted) return inserted.error();
  return user;
}

Result<json::value> RunAcceptInvitation(OperationContext& context, const json::object& args) {
  const std::int64_t now = context.clock.NowMillis();
  const std::string token_hash = core::Sha256Hex(RequiredString(args, "token"));
  auto accepted = context.store.Write([&](Transaction& tx) -> Result<storage::UserRecord> {
    auto invitation = tx.accounts().FindInvitationByTokenHash(token_hash);
    if (!invitation) return invitation.error();
    if (!*invitation) return NotFound("invitation");
    const storage::InvitationRecord& inv = **invitation;
    if (inv.accepted_at || inv.revoked_at || inv.expires_at <= now) {
      return Error(ErrorCode::kOrgInvitationNotPending,
                   "The invitation was already used or revoked, or has expired.");
    }
    auto user = InviteeAccount(tx, args, inv.email, now);
    if (!user) return user.error();
    // Claim the invitation first: a concurrent accept or revoke makes this one fail whole.
    auto marked = tx.accounts().MarkInvitationAccepted(inv.id, user->id, now);
    if (!marked) return marked.error();
    if (!*marked) {
      return Error(ErrorCode::kOrgInvitationNotPending, "The invitation is no longer pending.");
    }
    if (auto fresh = RefuseExistingMember(tx, inv.organization_id, inv.email); !fresh) {
      return fresh.error();
    }
    auto member = tx.accounts().PutMembership({inv.organization_id, user->id, inv.role, now});
    if (!member) return member.error();
    storage::AuditRecord record = MakeAuditRecord(context, {"invitation.accept", "invitation",
                                                            inv.id, {{"role", inv.role}},
                                                            inv.organization_id});
    record.actor_user_id = user->id;
    record.credential_kind = "invitation_token";
    auto logged = tx.accounts().InsertAudit(record);
    if (!logged) return logged.error();
    return user;
  });
  if (!accepted) return accepted.error();
  // The same decision as a sign-in: an organization requiring 2FA gets a setup token.
  auto signed_in = context.services.sessions.SignIn(*accepted, context.request.user_agent);
  if (!signed_in) return signed_in.error();
  return AuthResponseFor(context.store, *signed_in);
}

constexpr std::string_view kMembershipChanges = "Changes who may access the organization.";
constexpr CredentialKind kAnyAccount = CredentialKind::kUserSession | CredentialKind::kPrivateApiKey;

}  // namespace

const OperationSpec kListMembers{
    .name = "list_members",
    .summary = "List members",
    .description = "The organization's members with their roles, oldest first.",
    .tag = "Members",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/members",
    .permission = identity::Permission::kMemberView,
    .effect = Effect::kReadOnly,
    .credentials = kAnyAccount,
    .run = RunListMembers,
};

const OperationSpec kUpdateMember{
    .name = "update_member",
    .summary = "Change a member's role",
    .description = "Only owners grant or take away the owner role, and the organization always "
                   "keeps one owner (ORG_003). Takes effect on the member's next request.",
    .tag = "Members",
    .method = core::HttpMethod::kPatch,
    .path = "/{orgSlug}/members/{userId}",
    .permission = identity::Permission::kMemberManage,
    .effect = Effect::kIdempotentWrite,
    .credentials = kAnyAccount,
    .mcp_exclusion_reason = kMembershipChanges,
    .run = RunUpdateMember,
};

const OperationSpec kRemoveMember{
    .name = "remove_member",
    .summary = "Remove a member",
    .description = "Removes the member from the organization; their sessions lose access to it "
                   "on their next request. The last owner cannot be removed (ORG_003).",
    .tag = "Members",
    .method = core::HttpMethod::kDelete,
    .path = "/{orgSlug}/members/{userId}",
    .permission = identity::Permission::kMemberManage,
    .effect = Effect::kDestructive,
    .credentials = kAnyAccount,
    .success_status = 204,
    .mcp_exclusion_reason = kMembershipChanges,
    .run = RunRemoveMember,
};

const OperationSpec kCreateInvitation{
    .name = "create_invitation",
    .summary = "Invite someone",
    .description = "Creates an invitation valid for 7 days. The response's `token` is shown once: "
                   "send it to the invitee, who accepts with accept_invitation. Only owners may "
                   "invite owners.",
    .tag = "Members",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/invitations",
    .permission = identity::Permission::kMemberInvite,
    .effect = Effect::kWrite,
    .credentials = kAnyAccount,
    .success_status = 201,
    .mcp_exclusion_reason = kMembershipChanges,
    .run = RunCreateInvitation,
};

const OperationSpec kListInvitations{
    .name = "list_invitations",
    .summary = "List invitations",
    .description = "Every invitation of the organization, newest first, with its status.",
    .tag = "Members",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/invitations",
    .permission = identity::Permission::kMemberInvite,
    .effect = Effect::kReadOnly,
    .credentials = kAnyAccount,
    .run = RunListInvitations,
};

const OperationSpec kRevokeInvitation{
    .name = "revoke_invitation",
    .summary = "Revoke an invitation",
    .description = "A revoked invitation can no longer be accepted (ORG_005).",
    .tag = "Members",
    .method = core::HttpMethod::kDelete,
    .path = "/{orgSlug}/invitations/{invitationId}",
    .permission = identity::Permission::kMemberInvite,
    .effect = Effect::kDestructive,
    .credentials = kAnyAccount,
    .success_status = 204,
    .mcp_exclusion_reason = kMembershipChanges,
    .run = RunRevokeInvitation,
};

const OperationSpec kAcceptInvitation{
    .name = "accept_invitation",
    .summary = "Accept an invitation",
    .description = "Joins the organization with the invited role and signs in. Without an "
                   "account for the invited email, one is created with the given password and "
                   "names; with one, its password must be given. 404 for an unknown token, "
                   "ORG_005 for a used, revoked or expired one.",
    .tag = "Members",
    .method = core::HttpMethod::kPost,
    .path = "/invitations/accept",
    .permission = identity::Permission::kPublic,
    .effect = Effect::kWrite,
    .credentials = CredentialKind::kNone,
    .mcp_exclusion_reason = "Handles passwords and session tokens.",
    .run = RunAcceptInvitation,
};

}  // namespace sightline::tools
