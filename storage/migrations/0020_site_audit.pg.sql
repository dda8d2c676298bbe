-- Site audit (docs/site-audit.md): the sites a project proved it owns, ServiceAuditBot's crawls of
-- them (queued work one node claims with a lease), every URL a crawl met (its frontier and, once
-- fetched, the page), the links between them, the issues the checks found, the robots.txt files
-- fetched (kept at most 24 h) and the crawler's signing keys.
CREATE TABLE audit_sites (
  id TEXT COLLATE "C" PRIMARY KEY,
  project_id TEXT COLLATE "C" NOT NULL,
  origin TEXT COLLATE "C" NOT NULL,
  token TEXT COLLATE "C" NOT NULL,
  verified_method TEXT COLLATE "C",
  verified_at BIGINT,
  checked_at BIGINT,
  check_problem TEXT COLLATE "C" NOT NULL,
  created_by TEXT COLLATE "C",
  created_at BIGINT NOT NULL,
  UNIQUE (project_id, origin)
);

CREATE TABLE audit_crawls (
  id TEXT COLLATE "C" PRIMARY KEY,
  project_id TEXT COLLATE "C" NOT NULL,
  site_id TEXT COLLATE "C" NOT NULL,
  start_url TEXT COLLATE "C" NOT NULL,
  status TEXT COLLATE "C" NOT NULL,
  max_pages INTEGER NOT NULL,
  max_depth INTEGER NOT NULL,
  max_duration_s INTEGER NOT NULL,
  concurrency INTEGER NOT NULL,
  delay_ms INTEGER NOT NULL,
  created_by TEXT COLLATE "C",
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  finished_at BIGINT,
  lease_until BIGINT NOT NULL,
  cancel_requested INTEGER NOT NULL,
  stop_reason TEXT COLLATE "C" NOT NULL,
  error_message TEXT COLLATE "C" NOT NULL,
  previous_crawl_id TEXT COLLATE "C",
  summary TEXT COLLATE "C" NOT NULL
);
CREATE INDEX audit_crawls_project ON audit_crawls (project_id, created_at);
CREATE INDEX audit_crawls_due ON audit_crawls (status, lease_until);

-- `seq` is the order the crawl found the URL in; `details` the page's facts as JSON.
CREATE TABLE audit_pages (
  crawl_id TEXT COLLATE "C" NOT NULL,
  url TEXT COLLATE "C" NOT NULL,
  seq BIGINT NOT NULL,
  depth INTEGER NOT NULL,
  source TEXT COLLATE "C" NOT NULL,
  internal INTEGER NOT NULL,
  in_sitemap INTEGER NOT NULL,
  state TEXT COLLATE "C" NOT NULL,
  http_status INTEGER,
  content_type TEXT COLLATE "C" NOT NULL,
  bytes BIGINT NOT NULL,
  ttfb_ms BIGINT NOT NULL,
  title TEXT COLLATE "C" NOT NULL,
  indexable INTEGER NOT NULL,
  etag TEXT COLLATE "C" NOT NULL,
  last_modified TEXT COLLATE "C" NOT NULL,
  content_hash TEXT COLLATE "C" NOT NULL,
  fetched_at BIGINT,
  details TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (crawl_id, url)
);
CREATE INDEX audit_pages_state ON audit_pages (crawl_id, state, seq);

CREATE TABLE audit_links (
  crawl_id TEXT COLLATE "C" NOT NULL,
  from_url TEXT COLLATE "C" NOT NULL,
  to_url TEXT COLLATE "C" NOT NULL,
  anchor TEXT COLLATE "C" NOT NULL,
  nofollow INTEGER NOT NULL
);
CREATE INDEX audit_links_from ON audit_links (crawl_id, from_url);
CREATE INDEX audit_links_to ON audit_links (crawl_id, to_url);

-- `state`: new (not in the previous crawl of the site) or open (it was).
CREATE TABLE audit_issues (
  crawl_id TEXT COLLATE "C" NOT NULL,
  project_id TEXT COLLATE "C" NOT NULL,
  rule_id TEXT COLLATE "C" NOT NULL,
  url TEXT COLLATE "C" NOT NULL,
  severity TEXT COLLATE "C" NOT NULL,
  evidence TEXT COLLATE "C" NOT NULL,
  state TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (crawl_id, rule_id, url)
);
CREATE INDEX audit_issues_severity ON audit_issues (crawl_id, severity);

CREATE TABLE audit_robots_cache (
  origin TEXT COLLATE "C" PRIMARY KEY,
  fetched_at BIGINT NOT NULL,
  http_status INTEGER NOT NULL,
  body TEXT COLLATE "C" NOT NULL
);

-- `seed` is the Ed25519 private key's seed, sealed (core/sealed_box.h, the key id as associated
-- data) when the server has an encryption key.
CREATE TABLE audit_crawler_keys (
  id TEXT COLLATE "C" PRIMARY KEY,
  seed TEXT COLLATE "C" NOT NULL,
  sealed INTEGER NOT NULL,
  public_key TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL,
  retired_at BIGINT
);
