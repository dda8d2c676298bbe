-- Write operations the assistant proposes wait for the user's decision: such a tool call's
-- approval is 'pending', then 'approved' or 'rejected' (NULL: a read-only call, run at once).
-- A conversation waiting for decisions has status 'awaiting_approval'; 'canceling' asks the
-- node running an answer to stop it.
ALTER TABLE agent_messages ADD COLUMN approval TEXT COLLATE "C";
