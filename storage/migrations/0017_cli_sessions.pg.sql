-- Command-line logins (RFC 8628 device flow, /auth/cli/sessions): the device code (hashed), the
-- short user code (hashed, normalized), who asked (client, host, OS, IP and place) and what for,
-- until the user approves or denies it in the browser. An approval makes an OAuth grant
-- (oauth_grants, client `sightline-cli`) whose tokens the CLI then uses; the row stays as the
-- session's description (the sessions list) and records where it was last used from.
CREATE TABLE cli_sessions (
  id TEXT COLLATE "C" PRIMARY KEY,
  device_code_hash TEXT COLLATE "C" NOT NULL,
  user_code_hash TEXT COLLATE "C" NOT NULL,
  client_name TEXT COLLATE "C" NOT NULL,
  hostname TEXT COLLATE "C" NOT NULL,
  os TEXT COLLATE "C" NOT NULL,
  requested_permissions TEXT COLLATE "C" NOT NULL,
  requested_project_id TEXT COLLATE "C",
  ip TEXT COLLATE "C" NOT NULL,
  country TEXT COLLATE "C" NOT NULL,
  region TEXT COLLATE "C" NOT NULL,
  city TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  interval_seconds INTEGER NOT NULL,
  last_polled_at BIGINT,
  status TEXT COLLATE "C" NOT NULL,
  user_id TEXT COLLATE "C",
  grant_id TEXT COLLATE "C",
  decided_at BIGINT,
  last_used_ip TEXT COLLATE "C"
);
CREATE INDEX cli_sessions_user_code ON cli_sessions (user_code_hash);
CREATE INDEX cli_sessions_user ON cli_sessions (user_id);
CREATE INDEX cli_sessions_grant ON cli_sessions (grant_id);
