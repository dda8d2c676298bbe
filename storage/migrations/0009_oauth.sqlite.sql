-- The OAuth 2.1 authorization server of the MCP endpoint. Secrets (client secrets, codes,
-- tokens) are stored as SHA-256 hashes only.
--
-- A client registered itself (RFC 7591) or is described by the metadata document at its
-- client_id URL (kind 'metadata_document', a cache of the fetched document).
CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  redirect_uris TEXT NOT NULL,
  auth_method TEXT NOT NULL,
  secret_hash TEXT,
  metadata TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  fetched_at INTEGER NOT NULL
);
-- One consent: a user let a client act in one project with a subset of their permissions. The
-- authorization code the consent produced lives on the grant (single use).
CREATE TABLE oauth_grants (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  permissions TEXT NOT NULL,
  read_only INTEGER NOT NULL,
  resource TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  code_hash TEXT NOT NULL UNIQUE,
  code_challenge TEXT NOT NULL,
  code_expires_at INTEGER NOT NULL,
  code_used_at INTEGER,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX oauth_grants_user ON oauth_grants (user_id);
-- Access and refresh tokens of a grant; a refresh token is used once (rotation).
CREATE TABLE oauth_tokens (
  hash TEXT PRIMARY KEY,
  grant_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
