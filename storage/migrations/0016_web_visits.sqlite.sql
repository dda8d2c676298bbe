-- One row per visit (and per event outside every visit), written beside the web rollups of the
-- local day the visit started in and rebuilt with them, so that a filtered web report reads the
-- visits of its window instead of every raw event (docs/reports.md, "Filters").
-- `in_visit` is 0 for an event without a session. A visit's referrer, campaign, place and
-- device are its first event's. `pages`, `event_names` and `channels` are the visit's values of
-- the dimensions that vary within it, as lists (storage/visit_lists.h).
CREATE TABLE web_visits (
  project_id TEXT NOT NULL,
  zone TEXT NOT NULL,
  started_at BIGINT NOT NULL,
  in_visit INTEGER NOT NULL,
  session_id TEXT NOT NULL,
  visitor TEXT NOT NULL,
  events BIGINT NOT NULL,
  pageviews BIGINT NOT NULL,
  bounce INTEGER NOT NULL,
  duration_ms BIGINT NOT NULL,
  entry_page TEXT NOT NULL,
  exit_page TEXT NOT NULL,
  referrer TEXT NOT NULL,
  utm_source TEXT NOT NULL,
  utm_medium TEXT NOT NULL,
  utm_campaign TEXT NOT NULL,
  utm_term TEXT NOT NULL,
  utm_content TEXT NOT NULL,
  country TEXT NOT NULL,
  region TEXT NOT NULL,
  city TEXT NOT NULL,
  browser TEXT NOT NULL,
  os TEXT NOT NULL,
  device TEXT NOT NULL,
  pages TEXT NOT NULL,
  event_names TEXT NOT NULL,
  channels TEXT NOT NULL,
  PRIMARY KEY (project_id, zone, started_at, in_visit, session_id)
) WITHOUT ROWID;

-- Existing stores get the visits as their days are rolled up again: forget what was built.
DELETE FROM rollup_blocks;
DELETE FROM rollup_days;
