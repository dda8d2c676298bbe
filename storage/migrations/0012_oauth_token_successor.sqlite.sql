-- A spent refresh token names the one that replaced it, so that a client that lost the answer
-- to its refresh may retry once, briefly, instead of losing its connection.
ALTER TABLE oauth_tokens ADD COLUMN replaced_by TEXT;
