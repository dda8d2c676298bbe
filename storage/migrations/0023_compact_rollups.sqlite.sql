-- Compact derived data (docs/storage.md, "Rollups" and "Visit blocks"): what reports read
-- becomes column blocks instead of a table row per value or visit, a fraction of the size.
-- All of it is derived from the events: the rollups are dropped here, and every day is rolled
-- up again from the events by the first report that reads it.

-- The web rollups of one period (span 0: local day, 1: local hour, 2-6: blocks of 2-32 days)
-- and dimension, as one column block (storage/web_rollup_codec.h).
DROP TABLE web_rollups;
CREATE TABLE web_rollups (
  id INTEGER PRIMARY KEY,
  project_id TEXT NOT NULL,
  zone TEXT NOT NULL,
  span INTEGER NOT NULL,
  period_start BIGINT NOT NULL,
  dimension INTEGER NOT NULL,
  visitor_stamp BIGINT NOT NULL,
  data BLOB NOT NULL,
  UNIQUE (project_id, zone, span, period_start, dimension)
);

-- Per period, the sorted visitor hashes its rows' exact visitor sketches point into; `stamp`
-- (a hash of `data`) is also each of the period's web_rollups rows' `visitor_stamp`, so a
-- reader notices a table rebuilt since it read the blocks.
CREATE TABLE web_rollup_visitors (
  id INTEGER PRIMARY KEY,
  project_id TEXT NOT NULL,
  zone TEXT NOT NULL,
  span INTEGER NOT NULL,
  period_start BIGINT NOT NULL,
  stamp BIGINT NOT NULL,
  data BLOB NOT NULL,
  UNIQUE (project_id, zone, span, period_start)
);

-- The visit rows filtered web reports read: one column block per project, reporting timezone
-- and local day (storage/visit_blocks.h), written with the day's rollups.
DROP TABLE web_visits;
CREATE TABLE visit_blocks (
  id INTEGER PRIMARY KEY,
  project_id TEXT NOT NULL,
  zone TEXT NOT NULL,
  day_start BIGINT NOT NULL,
  first_at BIGINT NOT NULL,
  last_at BIGINT NOT NULL,
  data BLOB NOT NULL,
  UNIQUE (project_id, zone, day_start)
);

DELETE FROM rollup_days;
DELETE FROM rollup_blocks;
DELETE FROM bot_rollups;
