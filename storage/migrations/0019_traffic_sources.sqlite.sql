-- Where each visit came from (ingest/traffic_sources.h: the named source and the acquisition
-- channel, decided at ingestion from the referrer, the page's host and the UTM parameters), and
-- the daily visitor id of events sent without an anonymous or user id (docs/metrics.md).
-- Events stored before this migration have neither: they group under "(none)".
ALTER TABLE events ADD COLUMN traffic_source TEXT;
ALTER TABLE events ADD COLUMN traffic_channel TEXT;
ALTER TABLE events ADD COLUMN daily_visitor TEXT;

-- A visit's source and channel are its first event's, like its referrer.
ALTER TABLE web_visits ADD COLUMN source TEXT NOT NULL DEFAULT '';
ALTER TABLE web_visits ADD COLUMN channel TEXT NOT NULL DEFAULT '';

-- The random salt of each UTC day (days since 1970-01-01) under which the daily visitor ids
-- are keyed. Created by the first event of the day, kept 48 hours, never shown by any API.
CREATE TABLE visitor_salts (
  day BIGINT NOT NULL PRIMARY KEY,
  salt TEXT NOT NULL
);

-- The day rollups gain the source and channel rows (and the event channel's dimension keeps
-- its number): roll every day up again once.
DELETE FROM rollup_blocks;
DELETE FROM rollup_days;
