-- The agent assistant's conversations and their messages. A conversation belongs to one user in
-- one project; a workflow names at most one shared conversation per user and project. Messages
-- are rows (user, assistant, tool call, tool result) so they can be listed, exported and
-- deleted completely. `status` is 'running' while an answer is being produced (a second message
-- then gets 409); run_started_at lets a lock left by a crashed node expire.
CREATE TABLE agent_conversations (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  workflow_id TEXT,
  title TEXT NOT NULL,
  status TEXT NOT NULL,
  run_started_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX agent_conversations_owner ON agent_conversations (project_id, user_id, updated_at);
CREATE UNIQUE INDEX agent_conversations_workflow
  ON agent_conversations (project_id, user_id, workflow_id);
CREATE TABLE agent_messages (
  conversation_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  id TEXT NOT NULL,
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  tool_call_id TEXT,
  tool_name TEXT,
  input_tokens INTEGER,
  output_tokens INTEGER,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (conversation_id, seq)
);
