-- Text uses COLLATE "C" (byte order) so that ordering matches SQLite's.
-- Sign-in sessions and refresh tokens, invitations, the audit log, rate-limit windows and
-- server secrets; users gain a two-factor flag. Times: Unix ms, UTC.
ALTER TABLE users ADD COLUMN two_factor_enabled INTEGER NOT NULL DEFAULT 0;

CREATE TABLE sessions (
  id TEXT COLLATE "C" PRIMARY KEY,
  user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT COLLATE "C" NOT NULL DEFAULT 'session',
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  revoked_at BIGINT,
  user_agent TEXT COLLATE "C"
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE refresh_tokens (
  token_hash TEXT COLLATE "C" PRIMARY KEY,
  session_id TEXT COLLATE "C" NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

-- invited_by / accepted_by carry no foreign key: an invitation outlives its users.
CREATE TABLE invitations (
  id TEXT COLLATE "C" PRIMARY KEY,
  organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email TEXT COLLATE "C" NOT NULL,
  role TEXT COLLATE "C" NOT NULL,
  token_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  invited_by TEXT COLLATE "C",
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  accepted_at BIGINT,
  accepted_by TEXT COLLATE "C",
  revoked_at BIGINT
);
CREATE INDEX invitations_organization_time ON invitations (organization_id, created_at);

-- Only the organization is a foreign key: the log outlives the projects, users and keys it names.
CREATE TABLE audit_log (
  id TEXT COLLATE "C" PRIMARY KEY,
  organization_id TEXT COLLATE "C" REFERENCES organizations(id) ON DELETE CASCADE,  -- NULL for account-level actions (user.update)
  project_id TEXT COLLATE "C",
  actor_user_id TEXT COLLATE "C",
  credential_kind TEXT COLLATE "C" NOT NULL,
  credential_id TEXT COLLATE "C",
  action TEXT COLLATE "C" NOT NULL,
  target_type TEXT COLLATE "C",
  target_id TEXT COLLATE "C",
  request_id TEXT COLLATE "C",
  details TEXT COLLATE "C" NOT NULL DEFAULT '{}',
  created_at BIGINT NOT NULL
);
CREATE INDEX audit_log_organization_time ON audit_log (organization_id, created_at);

-- Unlogged: counters need no crash durability, and writing no WAL keeps a commit from
-- waiting for a WAL flush on every request. A crash resets the current windows.
CREATE UNLOGGED TABLE rate_limit_windows (
  bucket TEXT COLLATE "C" NOT NULL,
  window_start BIGINT NOT NULL,
  count BIGINT NOT NULL,
  PRIMARY KEY (bucket, window_start)
);

CREATE TABLE server_secrets (
  name TEXT COLLATE "C" PRIMARY KEY,
  value TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL
);
