-- Blocks of 2, 4, 8, 16 and 32 local days rolled up from their two halves, so a long report
-- window reads a few blocks instead of every day, and narrow crawler rollups for the unfiltered
-- country and path rankings (docs/reports.md, "Rollups").

-- Blocks rolled up, per timezone. `built_at` 0 means the block is out of date (one of its days
-- was rolled up again): its rows are gone and reports read its days until it is rebuilt. The
-- row is also the lock that orders a block's builder after the rebuild of one of its days.
CREATE TABLE rollup_blocks (
  project_id TEXT COLLATE "C" NOT NULL,
  zone TEXT COLLATE "C" NOT NULL,
  span INTEGER NOT NULL,
  block_start BIGINT NOT NULL,
  built_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, zone, span, block_start)
);

-- The day rollups written before this version lack the narrow crawler rows: every day is
-- rolled up again from the raw rows by the first report that reads it.
DELETE FROM rollup_days;
DELETE FROM web_rollups;
DELETE FROM bot_rollups;
