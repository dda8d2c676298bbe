-- Sign-in sessions and refresh tokens, invitations, the audit log, rate-limit windows and
-- server secrets; users gain a two-factor flag. Times: Unix ms, UTC.
ALTER TABLE users ADD COLUMN two_factor_enabled INTEGER NOT NULL DEFAULT 0;

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL DEFAULT 'session',
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  revoked_at BIGINT,
  user_agent TEXT
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

-- invited_by / accepted_by carry no foreign key: an invitation outlives its users.
CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  role TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  invited_by TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  accepted_at BIGINT,
  accepted_by TEXT,
  revoked_at BIGINT
);
CREATE INDEX invitations_organization_time ON invitations (organization_id, created_at);

-- Only the organization is a foreign key: the log outlives the projects, users and keys it names.
CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  organization_id TEXT REFERENCES organizations(id) ON DELETE CASCADE,  -- NULL for account-level actions (user.update)
  project_id TEXT,
  actor_user_id TEXT,
  credential_kind TEXT NOT NULL,
  credential_id TEXT,
  action TEXT NOT NULL,
  target_type TEXT,
  target_id TEXT,
  request_id TEXT,
  details TEXT NOT NULL DEFAULT '{}',
  created_at BIGINT NOT NULL
);
CREATE INDEX audit_log_organization_time ON audit_log (organization_id, created_at);

CREATE TABLE rate_limit_windows (
  bucket TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  count BIGINT NOT NULL,
  PRIMARY KEY (bucket, window_start)
);

CREATE TABLE server_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
