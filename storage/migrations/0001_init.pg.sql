-- Text uses COLLATE "C" (byte order) so that ordering matches SQLite's.
-- Identity, projects, keys, and the two event tables designed for what is coming
-- (enriched tracked events; classified crawler requests). Times: Unix ms, UTC.
CREATE TABLE users (
  id TEXT COLLATE "C" PRIMARY KEY,
  email TEXT COLLATE "C" NOT NULL UNIQUE,
  password_hash TEXT COLLATE "C" NOT NULL,
  first_name TEXT COLLATE "C" NOT NULL DEFAULT '',
  last_name TEXT COLLATE "C" NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE organizations (
  id TEXT COLLATE "C" PRIMARY KEY,
  slug TEXT COLLATE "C" NOT NULL UNIQUE,
  name TEXT COLLATE "C" NOT NULL,
  require_two_factor INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE memberships (
  organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE projects (
  id TEXT COLLATE "C" PRIMARY KEY,
  organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT COLLATE "C" NOT NULL,
  reporting_timezone TEXT COLLATE "C" NOT NULL DEFAULT 'UTC',
  bot_detection INTEGER NOT NULL DEFAULT 1,
  event_storage INTEGER NOT NULL DEFAULT 1,
  ip_logging INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX projects_organization ON projects (organization_id);

CREATE TABLE api_keys (
  id TEXT COLLATE "C" PRIMARY KEY,
  organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id TEXT COLLATE "C" NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('sdk', 'private')),
  name TEXT COLLATE "C" NOT NULL,
  secret_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  display_prefix TEXT COLLATE "C" NOT NULL,
  created_by TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);
CREATE INDEX api_keys_project ON api_keys (project_id);

CREATE TABLE events (
  id TEXT COLLATE "C" PRIMARY KEY,
  project_id TEXT COLLATE "C" NOT NULL,
  occurred_at BIGINT NOT NULL,
  received_at BIGINT NOT NULL,
  event TEXT COLLATE "C" NOT NULL,
  channel TEXT COLLATE "C" NOT NULL,
  user_id TEXT COLLATE "C",
  anonymous_id TEXT COLLATE "C",
  session_id TEXT COLLATE "C",
  icon TEXT COLLATE "C",
  description TEXT COLLATE "C",
  notify INTEGER NOT NULL DEFAULT 0,
  tags TEXT COLLATE "C" NOT NULL DEFAULT '{}',
  ip TEXT COLLATE "C",
  user_agent TEXT COLLATE "C",
  browser TEXT COLLATE "C",
  browser_version TEXT COLLATE "C",
  os TEXT COLLATE "C",
  os_version TEXT COLLATE "C",
  device TEXT COLLATE "C",
  brand TEXT COLLATE "C",
  model TEXT COLLATE "C",
  device_confidence DOUBLE PRECISION,
  signal_source TEXT COLLATE "C",
  in_app INTEGER NOT NULL DEFAULT 0,
  country TEXT COLLATE "C",
  region TEXT COLLATE "C",
  city TEXT COLLATE "C",
  path TEXT COLLATE "C",
  referrer TEXT COLLATE "C",
  utm_source TEXT COLLATE "C",
  utm_medium TEXT COLLATE "C",
  utm_campaign TEXT COLLATE "C",
  utm_term TEXT COLLATE "C",
  utm_content TEXT COLLATE "C",
  is_bot INTEGER NOT NULL DEFAULT 0,
  actor_type TEXT COLLATE "C",
  bot_name TEXT COLLATE "C",
  bot_vendor TEXT COLLATE "C",
  actor_category TEXT COLLATE "C",
  actor_verified INTEGER NOT NULL DEFAULT 0,
  verification_method TEXT COLLATE "C",
  actor_confidence DOUBLE PRECISION,
  is_ai INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX events_project_time ON events (project_id, occurred_at);
CREATE INDEX events_project_channel_time ON events (project_id, channel, occurred_at);

CREATE TABLE bot_requests (
  id TEXT COLLATE "C" PRIMARY KEY,
  project_id TEXT COLLATE "C" NOT NULL,
  occurred_at BIGINT NOT NULL,
  received_at BIGINT NOT NULL,
  event TEXT COLLATE "C" NOT NULL DEFAULT 'server_request',
  source TEXT COLLATE "C" NOT NULL,
  ip TEXT COLLATE "C",
  user_agent TEXT COLLATE "C" NOT NULL,
  method TEXT COLLATE "C",
  host TEXT COLLATE "C",
  path TEXT COLLATE "C",
  referrer TEXT COLLATE "C",
  actor_type TEXT COLLATE "C" NOT NULL,
  bot_name TEXT COLLATE "C",
  bot_vendor TEXT COLLATE "C",
  actor_category TEXT COLLATE "C",
  actor_verified INTEGER NOT NULL DEFAULT 0,
  verification_method TEXT COLLATE "C" NOT NULL DEFAULT 'none',
  actor_confidence DOUBLE PRECISION NOT NULL DEFAULT 0,
  is_ai INTEGER NOT NULL DEFAULT 0,
  country TEXT COLLATE "C",
  counts_toward_usage INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX bot_requests_project_time ON bot_requests (project_id, occurred_at);
CREATE INDEX bot_requests_project_vendor_time ON bot_requests (project_id, bot_vendor, occurred_at);
