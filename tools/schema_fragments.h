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

// Resource shapes (OpenAPI 3.0 schema objects) used in output schemas.
#define SIGHTLINE_DATE_TIME R"({"type": "string", "format": "date-time"})"

#define SIGHTLINE_USER_SCHEMA                                                          \
  R"({"type": "object", "required": ["id", "email", "firstName", "lastName"],)"        \
  R"( "properties": {"id": {"type": "string", "format": "uuid"},)"                     \
  R"( "email": {"type": "string", "format": "email"}, "firstName": {"type": "string"},)" \
  R"( "lastName": {"type": "string"}, "twoFactorEnabled": {"type": "boolean"},)"        \
  R"( "createdAt": )" SIGHTLINE_DATE_TIME R"(}})"

#define SIGHTLINE_ORGANIZATION_SCHEMA                                                  \
  R"({"type": "object", "required": ["id", "slug", "name"],)"                          \
  R"( "properties": {"id": {"type": "string", "format": "uuid"},)"                     \
  R"( "slug": {"type": "string"}, "name": {"type": "string"},)"                         \
  R"( "requireTwoFactor": {"type": "boolean"},)"                                       \
  R"( "role": {"type": "string", "description": "The caller's role, when known."},)"   \
  R"( "createdAt": )" SIGHTLINE_DATE_TIME R"(, "updatedAt": )" SIGHTLINE_DATE_TIME R"(}})"

#define SIGHTLINE_CURRENT_USER_SCHEMA                                                  \
  R"({"type": "object", "required": ["id", "email", "organizations"],)"                \
  R"( "properties": {"id": {"type": "string", "format": "uuid"},)"                     \
  R"( "email": {"type": "string", "format": "email"}, "firstName": {"type": "string"},)" \
  R"( "lastName": {"type": "string"}, "twoFactorEnabled": {"type": "boolean"},)"        \
  R"( "createdAt": )" SIGHTLINE_DATE_TIME R"(,)"                                       \
  R"( "organizations": {"type": "array", "items": )" SIGHTLINE_ORGANIZATION_SCHEMA R"(},)" \
  R"( "currentOrganization": )" SIGHTLINE_ORGANIZATION_SCHEMA R"(,)"                   \
  R"( "currentOrganizationRole": {"type": "string",)"                                  \
  R"(   "enum": ["owner", "admin", "developer", "analyst", "support"]},)"              \
  R"( "permissions": {"type": "array", "items": {"type": "string"}}}})"

#define SIGHTLINE_MEMBER_SCHEMA                                                        \
  R"({"type": "object", "required": ["userId", "email", "role"],)"                     \
  R"( "properties": {"userId": {"type": "string", "format": "uuid"},)"                 \
  R"( "email": {"type": "string", "format": "email"}, "firstName": {"type": "string"},)" \
  R"( "lastName": {"type": "string"}, "role": {"type": "string"},)"                     \
  R"( "joinedAt": )" SIGHTLINE_DATE_TIME R"(}})"

#define SIGHTLINE_INVITATION_SCHEMA                                                    \
  R"({"type": "object", "required": ["id", "email", "role", "status"],)"               \
  R"( "properties": {"id": {"type": "string", "format": "uuid"},)"                     \
  R"( "email": {"type": "string", "format": "email"}, "role": {"type": "string"},)"     \
  R"( "status": {"type": "string", "enum": ["pending", "accepted", "revoked", "expired"]},)" \
  R"( "invitedBy": {"type": "string"}, "createdAt": )" SIGHTLINE_DATE_TIME R"(,)"      \
  R"( "expiresAt": )" SIGHTLINE_DATE_TIME R"(, "acceptedAt": )" SIGHTLINE_DATE_TIME R"(,)" \
  R"( "token": {"type": "string",)"                                                    \
  R"(   "description": "Only in the creation response: send it to the invitee."}}})"

#define SIGHTLINE_KEY_SCHEMA                                                           \
  R"({"type": "object", "required": ["id", "name", "kind", "displayPrefix"],)"         \
  R"( "properties": {"id": {"type": "string", "format": "uuid"},)"                     \
  R"( "name": {"type": "string"}, "kind": {"type": "string", "enum": ["sdk", "private"]},)" \
  R"( "projectId": {"type": "string"}, "displayPrefix": {"type": "string"},)"           \
  R"( "createdBy": {"type": "string"}, "createdAt": )" SIGHTLINE_DATE_TIME R"(,)"      \
  R"( "revokedAt": )" SIGHTLINE_DATE_TIME R"(,)"                                        \
  R"( "key": {"type": "string",)"                                                      \
  R"(   "description": "The secret; only in the creation response, never again."}}})"

// An audit entry's details: every member any action records (tools/*_operations.cpp, the
// assistant's tool calls); each action records a few of them.
#define SIGHTLINE_AUDIT_DETAILS_SCHEMA                                                 \
  R"({"type": "object", "description": "What the action changed; its members depend on )" \
  R"(the action.", "properties": {"name": {"type": "string"}, "slug": {"type": )"        \
  R"("string"}, "organizationId": {"type": "string"}, "requireTwoFactor": {"type": )"   \
  R"("boolean"}, "reportingTimezone": {"type": "string"}, "botDetection": {"type": )"   \
  R"("boolean"}, "eventStorage": {"type": "boolean"}, "ipLogging": {"type": )"          \
  R"("boolean"}, "email": {"type": "string"}, "role": {"type": "string"}, )"            \
  R"("previousRole": {"type": "string"}, "otherSessionsEnded": {"type": "integer"}, )"  \
  R"("passkeyId": {"type": "string"}, "displayPrefix": {"type": "string"}, )"           \
  R"("clientId": {"type": "string"}, "clientName": {"type": "string"}, "projectId": )"  \
  R"({"type": "string"}, "permissions": {"type": "array", "items": {"type": )"          \
  R"("string"}}, "conversationId": {"type": "string"}, "workflowId": {"type": )"        \
  R"("string"}, "tool": {"type": "string"}, "toolCallId": {"type": "string"}, )"        \
  R"("outcome": {"type": "string"}, "approval": {"type": "string"}, "approved": )"      \
  R"({"type": "boolean"}, "provider": {"type": "string"}, "model": {"type": )"          \
  R"("string"}, "hasApiKey": {"type": "boolean"}, "count": {"type": "integer"}, )"      \
  R"("schedule": {"type": "string"}, "repetitions": {"type": "integer"}, )"             \
  R"("maxRunsPerDay": {"type": "integer"}, "maxTokensPerDay": {"type": "integer"}, )"   \
  R"("judgeEngineId": {"type": "string", "nullable": true}, "answers": {"type": )"      \
  R"("integer"}, "origin": {"type": "string"}, "proven": {"type": "boolean"}, )"        \
  R"("method": {"type": "string"}, "siteId": {"type": "string"}, "startUrl": {"type": )" \
  R"("string"}}})"

#define SIGHTLINE_AUDIT_ENTRY_SCHEMA                                                   \
  R"({"type": "object", "required": ["id", "action", "actor", "details", "createdAt"],)" \
  R"( "properties": {"id": {"type": "string"}, "action": {"type": "string"},)"         \
  R"( "actor": {"type": "object", "required": ["credentialKind"],)"                   \
  R"(   "properties": {"userId": {"type": "string"},)"                                 \
  R"(   "credentialKind": {"type": "string"}, "credentialId": {"type": "string"}}},)"  \
  R"( "targetType": {"type": "string"}, "targetId": {"type": "string"},)"              \
  R"( "projectId": {"type": "string"}, "requestId": {"type": "string"},)"              \
  R"( "details": )" SIGHTLINE_AUDIT_DETAILS_SCHEMA ","                                \
  R"( "createdAt": )" SIGHTLINE_DATE_TIME R"(}})"

#define SIGHTLINE_AUTH_RESPONSE_SCHEMA                                                 \
  R"({"type": "object", "properties": {)"                                              \
  R"( "accessToken": {"type": "string"}, "tokenType": {"type": "string"},)"            \
  R"( "expiresIn": {"type": "integer", "description": "Access-token lifetime, seconds."},)" \
  R"( "refreshToken": {"type": "string"},)"                                            \
  R"( "refreshTokenExpiresIn": {"type": "integer"},)"                                  \
  R"( "user": )" SIGHTLINE_CURRENT_USER_SCHEMA R"(,)"                                  \
  R"( "twoFactorSetupRequired": {"type": "boolean"},)"                                 \
  R"( "setupToken": {"type": "string",)"                                               \
  R"(   "description": "Send as X-2FA-Setup-Token to the two-factor setup operations."},)" \
  R"( "setupTokenExpiresIn": {"type": "integer"},)"                                    \
  R"( "twoFactorRequired": {"type": "boolean"},)"                                      \
  R"( "twoFactorMethods": {"type": "array", "items": {"type": "string", "enum": ["totp",)" \
  R"( "passkey"]}, "description": "What POST /auth/login/2fa takes for this user: a code)" \
  R"( (totp) and/or a passkey assertion (passkey)."},)"                                 \
  R"( "twoFactorToken": {"type": "string", "description": "Send with the code or the)"  \
  R"( passkey assertion to POST /auth/login/2fa."},)"                                   \
  R"( "twoFactorTokenExpiresIn": {"type": "integer"}}})"

// A WebAuthn ceremony's answer (passkeys): the challenge it answers and the credential.
#define SIGHTLINE_CREDENTIAL_PROPERTY(RESPONSE_REQUIRED)                                       \
  R"("credential": {"type": "object", "required": ["id", "type", "response"],)"                \
  R"( "description": "The PublicKeyCredential as the browser serializes it (toJSON()).",)"     \
  R"( "properties": {"id": {"type": "string", "maxLength": 1400},)"                            \
  R"( "rawId": {"type": "string", "maxLength": 1400},)"                                        \
  R"( "type": {"type": "string", "enum": ["public-key"]},)"                                    \
  R"( "response": {"type": "object", "required": [)" RESPONSE_REQUIRED R"(], "properties": {)" \
  R"( "clientDataJSON": {"type": "string", "maxLength": 8192},)"                               \
  R"( "attestationObject": {"type": "string", "maxLength": 65536},)"                           \
  R"( "authenticatorData": {"type": "string", "maxLength": 8192},)"                            \
  R"( "signature": {"type": "string", "maxLength": 2048},)"                                    \
  R"( "userHandle": {"type": "string", "nullable": true, "maxLength": 256},)"                  \
  R"( "transports": {"type": "array", "items": {"type": "string"}}}}}})"
#define SIGHTLINE_CHALLENGE_ID_PROPERTY \
  R"("challengeId": {"type": "string", "minLength": 1, "maxLength": 64})"
