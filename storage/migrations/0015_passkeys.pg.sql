-- Passkeys (WebAuthn credentials): the credential id and COSE public key (base64url), the
-- signature counter last seen, the authenticator model (AAGUID, hex) and a user-given label.
-- Challenges are single-use and short-lived; one row per ceremony in progress.
CREATE TABLE passkeys (
  id TEXT COLLATE "C" PRIMARY KEY,
  user_id TEXT COLLATE "C" NOT NULL,
  credential_id TEXT COLLATE "C" NOT NULL,
  public_key TEXT COLLATE "C" NOT NULL,
  algorithm INTEGER NOT NULL,
  sign_count BIGINT NOT NULL,
  aaguid TEXT COLLATE "C" NOT NULL,
  label TEXT COLLATE "C" NOT NULL,
  transports TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT
);
CREATE UNIQUE INDEX passkeys_credential ON passkeys (credential_id);
CREATE INDEX passkeys_user ON passkeys (user_id, created_at);
CREATE TABLE webauthn_challenges (
  id TEXT COLLATE "C" PRIMARY KEY,
  user_id TEXT COLLATE "C",
  purpose TEXT COLLATE "C" NOT NULL,
  challenge TEXT COLLATE "C" NOT NULL,
  expires_at BIGINT NOT NULL
);
