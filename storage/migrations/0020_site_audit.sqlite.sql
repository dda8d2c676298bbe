-- Site audit (docs/site-audit.md): the sites a project proved it owns, ServiceAuditBot's crawls of
-- them (queued work one node claims with a lease), every URL a crawl met (its frontier and, once
-- fetched, the page), the links between them, the issues the checks found, the robots.txt files
-- fetched (kept at most 24 h) and the crawler's signing keys.
CREATE TABLE audit_sites (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  origin TEXT NOT NULL,
  token TEXT NOT NULL,
  verified_method TEXT,
  verified_at BIGINT,
  checked_at BIGINT,
  check_problem TEXT NOT NULL,
  created_by TEXT,
  created_at BIGINT NOT NULL,
  UNIQUE (project_id, origin)
);

CREATE TABLE audit_crawls (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  site_id TEXT NOT NULL,
  start_url TEXT NOT NULL,
  status TEXT NOT NULL,
  max_pages INTEGER NOT NULL,
  max_depth INTEGER NOT NULL,
  max_duration_s INTEGER NOT NULL,
  concurrency INTEGER NOT NULL,
  delay_ms INTEGER NOT NULL,
  created_by TEXT,
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  finished_at BIGINT,
  lease_until BIGINT NOT NULL,
  cancel_requested INTEGER NOT NULL,
  stop_reason TEXT NOT NULL,
  error_message TEXT NOT NULL,
  previous_crawl_id TEXT,
  summary TEXT NOT NULL
);
CREATE INDEX audit_crawls_project ON audit_crawls (project_id, created_at);
CREATE INDEX audit_crawls_due ON audit_crawls (status, lease_until);

-- `seq` is the order the crawl found the URL in; `details` the page's facts as JSON.
CREATE TABLE audit_pages (
  crawl_id TEXT NOT NULL,
  url TEXT NOT NULL,
  seq BIGINT NOT NULL,
  depth INTEGER NOT NULL,
  source TEXT NOT NULL,
  internal INTEGER NOT NULL,
  in_sitemap INTEGER NOT NULL,
  state TEXT NOT NULL,
  http_status INTEGER,
  content_type TEXT NOT NULL,
  bytes BIGINT NOT NULL,
  ttfb_ms BIGINT NOT NULL,
  title TEXT NOT NULL,
  indexable INTEGER NOT NULL,
  etag TEXT NOT NULL,
  last_modified TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  fetched_at BIGINT,
  details TEXT NOT NULL,
  PRIMARY KEY (crawl_id, url)
);
CREATE INDEX audit_pages_state ON audit_pages (crawl_id, state, seq);

CREATE TABLE audit_links (
  crawl_id TEXT NOT NULL,
  from_url TEXT NOT NULL,
  to_url TEXT NOT NULL,
  anchor TEXT NOT NULL,
  nofollow INTEGER NOT NULL
);
CREATE INDEX audit_links_from ON audit_links (crawl_id, from_url);
CREATE INDEX audit_links_to ON audit_links (crawl_id, to_url);

-- `state`: new (not in the previous crawl of the site) or open (it was).
CREATE TABLE audit_issues (
  crawl_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  rule_id TEXT NOT NULL,
  url TEXT NOT NULL,
  severity TEXT NOT NULL,
  evidence TEXT NOT NULL,
  state TEXT NOT NULL,
  PRIMARY KEY (crawl_id, rule_id, url)
);
CREATE INDEX audit_issues_severity ON audit_issues (crawl_id, severity);

CREATE TABLE audit_robots_cache (
  origin TEXT PRIMARY KEY,
  fetched_at BIGINT NOT NULL,
  http_status INTEGER NOT NULL,
  body TEXT NOT NULL
);

-- `seed` is the Ed25519 private key's seed, sealed (core/sealed_box.h, the key id as associated
-- data) when the server has an encryption key.
CREATE TABLE audit_crawler_keys (
  id TEXT PRIMARY KEY,
  seed TEXT NOT NULL,
  sealed INTEGER NOT NULL,
  public_key TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  retired_at BIGINT
);
