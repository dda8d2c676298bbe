-- The OAuth 2.1 authorization server of the MCP endpoint. Secrets (client secrets, codes,
-- tokens) are stored as SHA-256 hashes only.
--
-- A client registered itself (RFC 7591) or is described by the metadata document at its
-- client_id URL (kind 'metadata_document', a cache of the fetched document).
CREATE TABLE oauth_clients (
  id TEXT COLLATE "C" PRIMARY KEY,
  kind TEXT COLLATE "C" NOT NULL,
  name TEXT COLLATE "C" NOT NULL,
  redirect_uris TEXT COLLATE "C" NOT NULL,
  auth_method TEXT COLLATE "C" NOT NULL,
  secret_hash TEXT COLLATE "C",
  metadata TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL,
  fetched_at BIGINT NOT NULL
);
-- One consent: a user let a client act in one project with a subset of their permissions. The
-- authorization code the consent produced lives on the grant (single use).
CREATE TABLE oauth_grants (
  id TEXT COLLATE "C" PRIMARY KEY,
  client_id TEXT COLLATE "C" NOT NULL,
  user_id TEXT COLLATE "C" NOT NULL,
  organization_id TEXT COLLATE "C" NOT NULL,
  project_id TEXT COLLATE "C" NOT NULL,
  permissions TEXT COLLATE "C" NOT NULL,
  read_only INTEGER NOT NULL,
  resource TEXT COLLATE "C" NOT NULL,
  redirect_uri TEXT COLLATE "C" NOT NULL,
  code_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  code_challenge TEXT COLLATE "C" NOT NULL,
  code_expires_at BIGINT NOT NULL,
  code_used_at BIGINT,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT,
  revoked_at BIGINT
);
CREATE INDEX oauth_grants_user ON oauth_grants (user_id);
-- Access and refresh tokens of a grant; a refresh token is used once (rotation).
CREATE TABLE oauth_tokens (
  hash TEXT COLLATE "C" PRIMARY KEY,
  grant_id TEXT COLLATE "C" NOT NULL,
  kind TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT,
  revoked_at BIGINT
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id);
