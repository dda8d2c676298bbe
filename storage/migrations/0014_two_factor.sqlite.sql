-- Two-factor authentication (TOTP). A user's row holds the confirmed secret once enabled, and a
-- pending one between setup and enable; last_step is the last time step whose code was
-- accepted, so a code is never accepted twice. Backup codes are stored hashed, single-use;
-- those of a setup not yet enabled are pending.
CREATE TABLE user_two_factor (
  user_id TEXT PRIMARY KEY,
  secret TEXT,
  pending_secret TEXT,
  pending_created_at INTEGER,
  enabled_at INTEGER,
  last_step INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE user_backup_codes (
  user_id TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  pending INTEGER NOT NULL,
  used_at INTEGER,
  PRIMARY KEY (user_id, code_hash)
);
