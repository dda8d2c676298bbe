// JSON Schema fragments that many operation specs share, as string-literal macros so that a
// spec's schema stays one compile-time literal:
//   .input_schema = R"({"type": "object", "required": ["orgSlug", "projectId"],
//                       "properties": {)" SIGHTLINE_PROJECT_SCOPE_PROPERTIES R"(}})"
#pragma once

#define SIGHTLINE_ORG_SLUG_PROPERTY                                                   \
  R"("orgSlug": {"type": "string", "minLength": 1, "maxLength": 64,)"                \
  R"( "description": "The organization's slug."})"

#define SIGHTLINE_PROJECT_SCOPE_PROPERTIES                                            \
  SIGHTLINE_ORG_SLUG_PROPERTY                                                         \
  R"(, "projectId": {"type": "string", "minLength": 1, "maxLength": 64,)"            \
  R"( "description": "The project's id."})"
