-- MCP sessions (Streamable HTTP `MCP-Session-Id`), shared by every node so that a load balancer
-- may send a session's requests anywhere. The id is stored hashed. A session belongs to the
-- credential that opened it ("key:<id>", later "grant:<id>"); it never authenticates anything.
CREATE TABLE mcp_sessions (
  id_hash TEXT COLLATE "C" PRIMARY KEY,
  credential TEXT COLLATE "C" NOT NULL,
  protocol_version TEXT COLLATE "C" NOT NULL,
  client_name TEXT COLLATE "C",
  client_version TEXT COLLATE "C",
  log_level TEXT COLLATE "C" NOT NULL DEFAULT 'info',
  created_at BIGINT NOT NULL,
  last_used_at BIGINT NOT NULL,
  ended_at BIGINT
);
CREATE INDEX mcp_sessions_credential ON mcp_sessions (credential);
