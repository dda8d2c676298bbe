-- AI visibility (docs/ai-visibility.md): the brands a project tracks (its own and competitors),
-- the prompts it asks, the engines (language models) it asks them of, runs of prompt × engine ×
-- repetition, and per answer the brand mentions and citations extracted from it. Mentions and
-- citations repeat the answer's time, engine, prompt and topic so the reports group one table.
CREATE TABLE ai_brands (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  name TEXT NOT NULL,
  aliases TEXT NOT NULL,
  domains TEXT NOT NULL,
  is_own INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX ai_brands_project ON ai_brands (project_id);

CREATE TABLE ai_prompts (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  text TEXT NOT NULL,
  topic TEXT NOT NULL,
  tags TEXT NOT NULL,
  language TEXT NOT NULL,
  country TEXT NOT NULL,
  active INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX ai_prompts_project ON ai_prompts (project_id);

-- `api_key` is sealed (core/sealed_box.h) with the engine id as associated data.
CREATE TABLE ai_engines (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  name TEXT NOT NULL,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  base_url TEXT NOT NULL,
  web_search INTEGER NOT NULL,
  params TEXT NOT NULL,
  api_key TEXT,
  api_key_hint TEXT NOT NULL,
  input_price REAL NOT NULL,
  output_price REAL NOT NULL,
  active INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX ai_engines_project ON ai_engines (project_id);

CREATE TABLE ai_settings (
  project_id TEXT PRIMARY KEY,
  schedule TEXT NOT NULL,
  repetitions INTEGER NOT NULL,
  max_runs_per_day INTEGER NOT NULL,
  max_tokens_per_day BIGINT NOT NULL,
  judge_engine_id TEXT,
  updated_at BIGINT NOT NULL
);

-- A scheduled run names its slot (the local day or ISO week it is for), so that of several
-- nodes only the first creates it.
CREATE TABLE ai_runs (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  trigger TEXT NOT NULL,
  slot TEXT,
  status TEXT NOT NULL,
  created_by TEXT,
  created_at BIGINT NOT NULL,
  finished_at BIGINT,
  UNIQUE (project_id, slot)
);
CREATE INDEX ai_runs_project ON ai_runs (project_id, created_at);

CREATE TABLE ai_answers (
  id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  prompt_id TEXT NOT NULL,
  engine_id TEXT NOT NULL,
  repetition INTEGER NOT NULL,
  topic TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  next_attempt_at BIGINT NOT NULL,
  lease_until BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  answered_at BIGINT,
  answer TEXT NOT NULL,
  raw_response TEXT NOT NULL,
  model TEXT NOT NULL,
  input_tokens BIGINT NOT NULL,
  output_tokens BIGINT NOT NULL,
  cost_micros BIGINT NOT NULL,
  error_code TEXT NOT NULL,
  error_message TEXT NOT NULL,
  judge_model TEXT NOT NULL,
  citations INTEGER NOT NULL,
  owned_citations INTEGER NOT NULL
);
CREATE INDEX ai_answers_due ON ai_answers (status, next_attempt_at);
CREATE INDEX ai_answers_run ON ai_answers (run_id);
CREATE INDEX ai_answers_window ON ai_answers (project_id, answered_at);

CREATE TABLE ai_mentions (
  answer_id TEXT NOT NULL,
  brand_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  answered_at BIGINT NOT NULL,
  engine_id TEXT NOT NULL,
  prompt_id TEXT NOT NULL,
  topic TEXT NOT NULL,
  rank INTEGER NOT NULL,
  first_offset INTEGER NOT NULL,
  occurrences INTEGER NOT NULL,
  snippet TEXT NOT NULL,
  recommended INTEGER,
  sentiment REAL,
  PRIMARY KEY (answer_id, brand_id)
);
CREATE INDEX ai_mentions_window ON ai_mentions (project_id, answered_at);

CREATE TABLE ai_citations (
  answer_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  project_id TEXT NOT NULL,
  answered_at BIGINT NOT NULL,
  engine_id TEXT NOT NULL,
  prompt_id TEXT NOT NULL,
  topic TEXT NOT NULL,
  url TEXT NOT NULL,
  domain TEXT NOT NULL,
  path TEXT NOT NULL,
  title TEXT NOT NULL,
  origin TEXT NOT NULL,
  owned INTEGER NOT NULL,
  brand_id TEXT,
  PRIMARY KEY (answer_id, position)
);
CREATE INDEX ai_citations_window ON ai_citations (project_id, answered_at);
CREATE INDEX ai_citations_page ON ai_citations (project_id, owned, path, answered_at);

-- Rollups the reports read, per local day of a zone (the project's reporting zone when they were
-- built), each at two grains kept apart by `grain` (first in the key, so a report scans only
-- its own): answers and mentions per engine and topic (grain 0, prompt_id '') and per prompt
-- (grain 1, engine_id ''); citations per domain (grain 0, url '') and per page (grain 1).
-- Written as each answer is stored, and rebuilt
-- from the rows above for a zone that has none yet (ai_rollup_zones lists the zones built).
CREATE TABLE ai_rollup_zones (
  project_id TEXT NOT NULL,
  zone TEXT NOT NULL,
  built_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, zone)
) WITHOUT ROWID;

CREATE TABLE ai_day_answers (
  grain INTEGER NOT NULL,
  project_id TEXT NOT NULL,
  zone TEXT NOT NULL,
  day_start BIGINT NOT NULL,
  engine_id TEXT NOT NULL,
  prompt_id TEXT NOT NULL,
  topic TEXT NOT NULL,
  answers BIGINT NOT NULL,
  cited_answers BIGINT NOT NULL,
  owned_cited_answers BIGINT NOT NULL,
  citations BIGINT NOT NULL,
  owned_citations BIGINT NOT NULL,
  PRIMARY KEY (project_id, zone, grain, day_start, engine_id, prompt_id, topic)
) WITHOUT ROWID;

CREATE TABLE ai_day_mentions (
  grain INTEGER NOT NULL,
  project_id TEXT NOT NULL,
  zone TEXT NOT NULL,
  day_start BIGINT NOT NULL,
  engine_id TEXT NOT NULL,
  prompt_id TEXT NOT NULL,
  brand_id TEXT NOT NULL,
  topic TEXT NOT NULL,
  answers BIGINT NOT NULL,
  occurrences BIGINT NOT NULL,
  rank_sum BIGINT NOT NULL,
  recommended BIGINT NOT NULL,
  judged BIGINT NOT NULL,
  sentiment_sum REAL NOT NULL,
  sentiment_count BIGINT NOT NULL,
  PRIMARY KEY (project_id, zone, grain, day_start, engine_id, prompt_id, topic, brand_id)
) WITHOUT ROWID;

CREATE TABLE ai_day_citations (
  grain INTEGER NOT NULL,
  project_id TEXT NOT NULL,
  zone TEXT NOT NULL,
  day_start BIGINT NOT NULL,
  domain TEXT NOT NULL,
  url TEXT NOT NULL,
  path TEXT NOT NULL,
  owned INTEGER NOT NULL,
  brand_id TEXT,
  citations BIGINT NOT NULL,
  answers BIGINT NOT NULL,
  PRIMARY KEY (project_id, zone, grain, day_start, domain, url)
) WITHOUT ROWID;
