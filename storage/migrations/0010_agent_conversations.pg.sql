-- The agent assistant's conversations and their messages. A conversation belongs to one user in
-- one project; a workflow names at most one shared conversation per user and project. Messages
-- are rows (user, assistant, tool call, tool result) so they can be listed, exported and
-- deleted completely. `status` is 'running' while an answer is being produced (a second message
-- then gets 409); run_started_at lets a lock left by a crashed node expire.
CREATE TABLE agent_conversations (
  id TEXT COLLATE "C" PRIMARY KEY,
  organization_id TEXT COLLATE "C" NOT NULL,
  project_id TEXT COLLATE "C" NOT NULL,
  user_id TEXT COLLATE "C" NOT NULL,
  workflow_id TEXT COLLATE "C",
  title TEXT COLLATE "C" NOT NULL,
  status TEXT COLLATE "C" NOT NULL,
  run_started_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX agent_conversations_owner ON agent_conversations (project_id, user_id, updated_at);
CREATE UNIQUE INDEX agent_conversations_workflow
  ON agent_conversations (project_id, user_id, workflow_id);
CREATE TABLE agent_messages (
  conversation_id TEXT COLLATE "C" NOT NULL,
  seq INTEGER NOT NULL,
  id TEXT COLLATE "C" NOT NULL,
  role TEXT COLLATE "C" NOT NULL,
  content TEXT COLLATE "C" NOT NULL,
  tool_call_id TEXT COLLATE "C",
  tool_name TEXT COLLATE "C",
  input_tokens BIGINT,
  output_tokens BIGINT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (conversation_id, seq)
);
