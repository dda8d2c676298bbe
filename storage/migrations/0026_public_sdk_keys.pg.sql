-- SDK keys are public (they sit in every tracked page and can only send events): a new one is
-- kept as it is, so the dashboard shows and copies the whole key. Private keys stay hashed
-- only; SDK keys made before keep only their hash.
ALTER TABLE api_keys ADD COLUMN public_key TEXT;
