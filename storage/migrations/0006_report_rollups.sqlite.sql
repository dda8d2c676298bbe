-- Report rollups: each local day of the project's reporting timezone (and each local hour of
-- it, for the series) aggregated once, so a dashboard reads a few rows per day instead of every
-- event. Rollups are rebuilt from the raw rows whenever an hour they cover changes
-- (docs/reports.md, "Rollups").

-- When each visit started (its earliest human event), so an event arriving later marks the
-- visit's first day as changed: every figure of a visit belongs to the day it started.
CREATE TABLE visit_starts (
  project_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  started_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, session_id)
) WITHOUT ROWID;
CREATE INDEX visit_starts_time ON visit_starts (project_id, started_at);
CREATE INDEX events_project_session ON events (project_id, session_id);

-- UTC hours whose rows changed since their days were last rolled up; `source` is 'w' (events)
-- or 'b' (crawler requests). A builder clears a mark only if its generation is unchanged.
CREATE TABLE rollup_dirty (
  project_id TEXT NOT NULL,
  source TEXT NOT NULL,
  hour BIGINT NOT NULL,
  generation BIGINT NOT NULL,
  PRIMARY KEY (project_id, source, hour)
) WITHOUT ROWID;

-- Local days already rolled up, per timezone; the row is also the lock builders take.
CREATE TABLE rollup_days (
  project_id TEXT NOT NULL,
  zone TEXT NOT NULL,
  day_start BIGINT NOT NULL,
  built_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, zone, day_start)
) WITHOUT ROWID;

-- Web analytics per period (span 0: local day, 1: local hour) and dimension value (dimension 0
-- is the whole period with value ''). `visitors` is a DistinctSketch (core/distinct_sketch.h).
CREATE TABLE web_rollups (
  project_id TEXT NOT NULL,
  zone TEXT NOT NULL,
  span INTEGER NOT NULL,
  dimension INTEGER NOT NULL,
  period_start BIGINT NOT NULL,
  value TEXT NOT NULL,
  events BIGINT NOT NULL,
  pageviews BIGINT NOT NULL,
  visits BIGINT NOT NULL,
  bounces BIGINT NOT NULL,
  duration_ms BIGINT NOT NULL,
  timed_views BIGINT NOT NULL,
  view_ms BIGINT NOT NULL,
  visitors BLOB NOT NULL,
  PRIMARY KEY (project_id, zone, span, dimension, period_start, value)
) WITHOUT ROWID;

-- Crawler requests per period and kind (0: per bot and verification outcome, 1: … and
-- country, 2: … and path; `value` holds the country or path).
CREATE TABLE bot_rollups (
  project_id TEXT NOT NULL,
  zone TEXT NOT NULL,
  span INTEGER NOT NULL,
  kind INTEGER NOT NULL,
  period_start BIGINT NOT NULL,
  bot_name TEXT NOT NULL,
  bot_vendor TEXT NOT NULL,
  actor_category TEXT NOT NULL,
  is_ai INTEGER NOT NULL,
  actor_type TEXT NOT NULL,
  value TEXT NOT NULL,
  requests BIGINT NOT NULL,
  PRIMARY KEY (project_id, zone, span, kind, period_start, bot_name, bot_vendor, actor_category,
               is_ai, actor_type, value)
) WITHOUT ROWID;
