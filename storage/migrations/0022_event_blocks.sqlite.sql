-- The compact event store (docs/storage.md): tracked events arrive in `events`, the inbox, and
-- are sealed a few minutes later into column blocks (storage/event_blocks.h), one per project
-- and UTC hour of their visits' start (events outside every visit: the hour they happened in).
-- A visit's sealed events are all in one block, in time order. Every reader of events reads
-- the inbox and the blocks together. Existing stores are sealed the same way, by the same job.
CREATE TABLE event_blocks (
  id INTEGER PRIMARY KEY,
  project_id TEXT NOT NULL,
  hour BIGINT NOT NULL,
  row_count BIGINT NOT NULL,
  first_at BIGINT NOT NULL,
  last_at BIGINT NOT NULL,
  data BLOB NOT NULL,
  UNIQUE (project_id, hour)
);
-- The events feed reads the newest blocks first.
CREATE INDEX event_blocks_last ON event_blocks (project_id, last_at);

-- The hour of the block that holds a visit's sealed events, so that a visit whose start moves
-- to another hour (an earlier event arriving late) is moved with it.
ALTER TABLE visit_starts ADD COLUMN block_hour BIGINT;

-- One row per project, updated by each sealing: the lock that keeps two nodes from sealing the
-- same project at once.
CREATE TABLE event_seals (
  project_id TEXT PRIMARY KEY,
  sealed_at BIGINT NOT NULL
);
