-- Identity, projects, keys, and the two event tables designed for what is coming
-- (enriched tracked events; classified crawler requests). Times: Unix ms, UTC.
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  first_name TEXT NOT NULL DEFAULT '',
  last_name TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  require_two_factor INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE memberships (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  reporting_timezone TEXT NOT NULL DEFAULT 'UTC',
  bot_detection INTEGER NOT NULL DEFAULT 1,
  event_storage INTEGER NOT NULL DEFAULT 1,
  ip_logging INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX projects_organization ON projects (organization_id);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('sdk', 'private')),
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL UNIQUE,
  display_prefix TEXT NOT NULL,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);
CREATE INDEX api_keys_project ON api_keys (project_id);

CREATE TABLE events (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  occurred_at BIGINT NOT NULL,
  received_at BIGINT NOT NULL,
  event TEXT NOT NULL,
  channel TEXT NOT NULL,
  user_id TEXT,
  anonymous_id TEXT,
  session_id TEXT,
  icon TEXT,
  description TEXT,
  notify INTEGER NOT NULL DEFAULT 0,
  tags TEXT NOT NULL DEFAULT '{}',
  ip TEXT,
  user_agent TEXT,
  browser TEXT,
  browser_version TEXT,
  os TEXT,
  os_version TEXT,
  device TEXT,
  brand TEXT,
  model TEXT,
  device_confidence REAL,
  signal_source TEXT,
  in_app INTEGER NOT NULL DEFAULT 0,
  country TEXT,
  region TEXT,
  city TEXT,
  path TEXT,
  referrer TEXT,
  utm_source TEXT,
  utm_medium TEXT,
  utm_campaign TEXT,
  utm_term TEXT,
  utm_content TEXT,
  is_bot INTEGER NOT NULL DEFAULT 0,
  actor_type TEXT,
  bot_name TEXT,
  bot_vendor TEXT,
  actor_category TEXT,
  actor_verified INTEGER NOT NULL DEFAULT 0,
  verification_method TEXT,
  actor_confidence REAL,
  is_ai INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX events_project_time ON events (project_id, occurred_at);
CREATE INDEX events_project_channel_time ON events (project_id, channel, occurred_at);

CREATE TABLE bot_requests (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  occurred_at BIGINT NOT NULL,
  received_at BIGINT NOT NULL,
  event TEXT NOT NULL DEFAULT 'server_request',
  source TEXT NOT NULL,
  ip TEXT,
  user_agent TEXT NOT NULL,
  method TEXT,
  host TEXT,
  path TEXT,
  referrer TEXT,
  actor_type TEXT NOT NULL,
  bot_name TEXT,
  bot_vendor TEXT,
  actor_category TEXT,
  actor_verified INTEGER NOT NULL DEFAULT 0,
  verification_method TEXT NOT NULL DEFAULT 'none',
  actor_confidence REAL NOT NULL DEFAULT 0,
  is_ai INTEGER NOT NULL DEFAULT 0,
  country TEXT,
  counts_toward_usage INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX bot_requests_project_time ON bot_requests (project_id, occurred_at);
CREATE INDEX bot_requests_project_vendor_time ON bot_requests (project_id, bot_vendor, occurred_at);
