-- Two-factor authentication (TOTP). A user's row holds the confirmed secret once enabled, and a
-- pending one between setup and enable; last_step is the last time step whose code was
-- accepted, so a code is never accepted twice. Backup codes are stored hashed, single-use;
-- those of a setup not yet enabled are pending.
CREATE TABLE user_two_factor (
  user_id TEXT COLLATE "C" PRIMARY KEY,
  secret TEXT COLLATE "C",
  pending_secret TEXT COLLATE "C",
  pending_created_at BIGINT,
  enabled_at BIGINT,
  last_step BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE user_backup_codes (
  user_id TEXT COLLATE "C" NOT NULL,
  code_hash TEXT COLLATE "C" NOT NULL,
  pending INTEGER NOT NULL,
  used_at BIGINT,
  PRIMARY KEY (user_id, code_hash)
);
