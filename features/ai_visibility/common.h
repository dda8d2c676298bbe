// What the AI-visibility operation files share (an internal header of features/ai_visibility/):
// who may call them, the project they act in, and their schema fragments.
#pragma once

#include "tools/operation.h"

namespace sightline::tools::ai_visibility {

// Signed-in users and the project's private API keys.
inline constexpr auto kCallers =
    identity::CredentialKind::kUserSession | identity::CredentialKind::kPrivateApiKey;

// The dispatcher resolved the path's project before the operation runs.
inline const std::string& ProjectId(const OperationContext& context) {
  return context.project->id;
}

}  // namespace sightline::tools::ai_visibility

// The start of a project-scoped input schema: `SIGHTLINE_AI_SCOPE R"(, "more"], …`.
#define SIGHTLINE_AI_SCOPE R"({"type": "object", "required": ["orgSlug", "projectId")"
// An id argument.
#define SIGHTLINE_AI_ID(name) \
  R"(")" name R"(": {"type": "string", "minLength": 1, "maxLength": 64})"
