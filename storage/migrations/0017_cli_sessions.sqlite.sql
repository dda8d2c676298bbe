-- Command-line logins (RFC 8628 device flow, /auth/cli/sessions): the device code (hashed), the
-- short user code (hashed, normalized), who asked (client, host, OS, IP and place) and what for,
-- until the user approves or denies it in the browser. An approval makes an OAuth grant
-- (oauth_grants, client `sightline-cli`) whose tokens the CLI then uses; the row stays as the
-- session's description (the sessions list) and records where it was last used from.
CREATE TABLE cli_sessions (
  id TEXT PRIMARY KEY,
  device_code_hash TEXT NOT NULL,
  user_code_hash TEXT NOT NULL,
  client_name TEXT NOT NULL,
  hostname TEXT NOT NULL,
  os TEXT NOT NULL,
  requested_permissions TEXT NOT NULL,
  requested_project_id TEXT,
  ip TEXT NOT NULL,
  country TEXT NOT NULL,
  region TEXT NOT NULL,
  city TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  interval_seconds INTEGER NOT NULL,
  last_polled_at BIGINT,
  status TEXT NOT NULL,
  user_id TEXT,
  grant_id TEXT,
  decided_at BIGINT,
  last_used_ip TEXT
);
CREATE INDEX cli_sessions_user_code ON cli_sessions (user_code_hash);
CREATE INDEX cli_sessions_user ON cli_sessions (user_id);
CREATE INDEX cli_sessions_grant ON cli_sessions (grant_id);
