-- Event ingestion: per-visitor session state (30 minutes of inactivity starts a new session),
-- identities linking anonymous ids to user ids, monthly usage counters, and notifications.
CREATE TABLE visitor_sessions (
  project_id TEXT NOT NULL,
  visitor_key TEXT NOT NULL,
  session_id TEXT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, visitor_key)
);

CREATE TABLE identities (
  project_id TEXT NOT NULL,
  anonymous_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  traits TEXT NOT NULL DEFAULT '{}',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, anonymous_id)
);
CREATE INDEX identities_user ON identities (project_id, user_id);

CREATE TABLE usage_counters (
  project_id TEXT NOT NULL,
  month TEXT NOT NULL,
  human_events BIGINT NOT NULL DEFAULT 0,
  bot_events BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, month)
);

CREATE TABLE notifications (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event TEXT NOT NULL,
  channel TEXT NOT NULL,
  icon TEXT,
  description TEXT,
  user_id TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX notifications_project_time ON notifications (project_id, created_at);
