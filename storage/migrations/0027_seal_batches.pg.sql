-- Sealing into ClickHouse (docs/clickhouse.md, "Writes"): each batch of a project's inbox rows
-- moved to ClickHouse is recorded here as pending, under the id its rows carry there
-- (`seal_batch`), before they are sent; the transaction that deletes them from the inbox marks
-- it committed. Readers of ClickHouse keep the rows of committed batches only, so a batch whose
-- insert or commit failed is never counted twice: it is abandoned after a while, its rows are
-- deleted from ClickHouse, and then its row here.
CREATE TABLE seal_batches (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  row_kind TEXT NOT NULL,
  row_count BIGINT NOT NULL,
  state TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  committed_at BIGINT
);
-- Readers ask for a project's batches that are not committed; the cleanup for old pending ones.
CREATE INDEX seal_batches_state ON seal_batches (state, project_id, created_at);
