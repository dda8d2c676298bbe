-- The last good copy of each vendor's published crawler IP ranges (a catalog list id), as the
-- vendor served it, so a node starts with ranges even when the vendor is unreachable.
CREATE TABLE bot_ip_ranges (
  list_id TEXT PRIMARY KEY,
  body TEXT NOT NULL,
  fetched_at INTEGER NOT NULL
);
