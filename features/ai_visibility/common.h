// What the AI-visibility operation files share (an internal header of features/ai_visibility/):
// who may call them and the project they act in. Their schemas are data:
// features/ai_visibility/schemas.json.
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
