-- MCP sessions (Streamable HTTP `MCP-Session-Id`), shared by every node so that a load balancer
-- may send a session's requests anywhere. The id is stored hashed. A session belongs to the
-- credential that opened it ("key:<id>", later "grant:<id>"); it never authenticates anything.
CREATE TABLE mcp_sessions (
  id_hash TEXT PRIMARY KEY,
  credential TEXT NOT NULL,
  protocol_version TEXT NOT NULL,
  client_name TEXT,
  client_version TEXT,
  log_level TEXT NOT NULL DEFAULT 'info',
  created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL,
  ended_at INTEGER
);
CREATE INDEX mcp_sessions_credential ON mcp_sessions (credential);
