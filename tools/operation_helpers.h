// Small helpers shared by the *_operations.cpp files: argument access (arguments are already
// validated against the schema, so types are known) and the common errors.
#pragma once

#include "core/result.h"
#include "storage/account_repository.h"
#include "tools/operation.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::tools {

inline std::optional<std::string> OptionalString(const boost::json::object& args,
                                                 std::string_view name) {
  const boost::json::value* value = args.if_contains(name);
  if (!value || !value->is_string()) return std::nullopt;
  return std::string(value->as_string());
}

inline std::string RequiredString(const boost::json::object& args, std::string_view name) {
  return OptionalString(args, name).value_or(std::string());
}

inline std::optional<bool> OptionalBool(const boost::json::object& args, std::string_view name) {
  const boost::json::value* value = args.if_contains(name);
  if (!value || !value->is_bool()) return std::nullopt;
  return value->as_bool();
}

inline std::int64_t IntegerOr(const boost::json::object& args, std::string_view name,
                              std::int64_t fallback) {
  const boost::json::value* value = args.if_contains(name);
  return value && value->is_int64() ? value->as_int64() : fallback;
}

// 404 REQ_004 naming the kind of thing that was not found (or not visible).
inline core::Error NotFound(std::string_view resource) {
  core::Error error(core::ErrorCode::kResourceNotFound,
                    "The " + std::string(resource) + " was not found.");
  error.mutable_details()["resource"] = resource;
  return error;
}

// An error naming the offending field, for 409s such as ORG_002 and PROJECT_002.
inline core::Error FieldError(core::ErrorCode code, std::string message, std::string_view field) {
  core::Error error(code, std::move(message));
  error.mutable_details()["field"] = field;
  return error;
}

// 403 PERM_001 for a rule beyond the permission catalog (e.g. only owners grant "owner").
inline core::Error Forbidden(std::string reason) {
  core::Error error(core::ErrorCode::kPermDenied, reason);
  error.mutable_details()["reason"] = std::move(reason);
  return error;
}

// The 204 answer of a deletion (the REST adapter sends no body for 204).
inline core::Result<boost::json::value> NoContent() { return boost::json::value(nullptr); }

// The project a key is bound to, as read with the key in this request (so its switches apply
// to the very next request), or read now when the credential did not carry it.
inline core::Result<storage::ProjectRecord> KeyProject(OperationContext& context) {
  if (context.principal.project) return *context.principal.project;
  auto project = context.store.Read([&](storage::Transaction& tx) {
    return tx.accounts().FindProject(*context.principal.project_id);
  });
  if (!project) return project.error();
  if (!*project) return core::Error(core::ErrorCode::kProjectNotFound, "Project not found.");
  return std::move(**project);
}

// The signed-in user, read live (AUTH_002 when the account is gone).
inline core::Result<storage::UserRecord> CurrentUser(OperationContext& context) {
  auto user = context.store.Read([&](storage::Transaction& tx) {
    return tx.accounts().FindUserById(*context.principal.user_id);
  });
  if (!user) return user.error();
  if (!*user) {
    return core::Error(core::ErrorCode::kAuthInvalidCredential, "The user no longer exists.");
  }
  return std::move(**user);
}

// Why the user's own account and organization list are not MCP tools.
constexpr std::string_view kBeyondTheBoundProject =
    "Reveals the user's other organizations: an MCP connection is bound to one project.";

}  // namespace sightline::tools
