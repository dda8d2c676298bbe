-- Text uses COLLATE "C" (byte order), as everywhere.
-- Event ingestion: per-visitor session state (30 minutes of inactivity starts a new session),
-- identities linking anonymous ids to user ids, monthly usage counters, and notifications.
CREATE TABLE visitor_sessions (
  project_id TEXT COLLATE "C" NOT NULL,
  visitor_key TEXT COLLATE "C" NOT NULL,
  session_id TEXT COLLATE "C" NOT NULL,
  last_seen_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, visitor_key)
);

CREATE TABLE identities (
  project_id TEXT COLLATE "C" NOT NULL,
  anonymous_id TEXT COLLATE "C" NOT NULL,
  user_id TEXT COLLATE "C" NOT NULL,
  traits TEXT COLLATE "C" NOT NULL DEFAULT '{}',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, anonymous_id)
);
CREATE INDEX identities_user ON identities (project_id, user_id);

CREATE TABLE usage_counters (
  project_id TEXT COLLATE "C" NOT NULL,
  month TEXT COLLATE "C" NOT NULL,
  human_events BIGINT NOT NULL DEFAULT 0,
  bot_events BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, month)
);

CREATE TABLE notifications (
  id TEXT COLLATE "C" PRIMARY KEY,
  project_id TEXT COLLATE "C" NOT NULL,
  event_id TEXT COLLATE "C" NOT NULL,
  event TEXT COLLATE "C" NOT NULL,
  channel TEXT COLLATE "C" NOT NULL,
  icon TEXT COLLATE "C",
  description TEXT COLLATE "C",
  user_id TEXT COLLATE "C",
  created_at BIGINT NOT NULL
);
CREATE INDEX notifications_project_time ON notifications (project_id, created_at);
