-- A site has at most one queued or running crawl: start_site_crawl checks first, and this index
-- settles two calls that checked at the same moment (the second insert conflicts). Sites that
-- already have several keep one (the running one, else the oldest); the others are cancelled.
UPDATE audit_crawls
SET status = 'cancelled', cancel_requested = 1, lease_until = 0,
    finished_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000
WHERE status IN ('queued', 'running') AND EXISTS (
  SELECT 1 FROM audit_crawls AS kept
  WHERE kept.site_id = audit_crawls.site_id AND kept.id <> audit_crawls.id
    AND kept.status IN ('queued', 'running')
    AND ((kept.status = 'running' AND audit_crawls.status = 'queued')
         OR (kept.status = audit_crawls.status
             AND (kept.created_at < audit_crawls.created_at
                  OR (kept.created_at = audit_crawls.created_at AND kept.id < audit_crawls.id)))));
CREATE UNIQUE INDEX audit_crawls_one_active ON audit_crawls (site_id)
  WHERE status IN ('queued', 'running');

-- Bot requests keep their host as ingestion now stores it (core::NormalizeHost): lowercase,
-- without the port and trailing dots, so the robots-vs-traffic report can select a site's.
UPDATE bot_requests SET host = lower(host) WHERE host <> lower(host);
UPDATE bot_requests SET host = substr(host, 1, instr(host, ']')) WHERE host LIKE '[%]:%';
UPDATE bot_requests SET host = substr(host, 1, instr(host, ':') - 1)
WHERE host NOT LIKE '[%' AND host LIKE '%:%' AND host NOT LIKE '%:%:%';
UPDATE bot_requests SET host = rtrim(host, '.') WHERE host LIKE '%.';
UPDATE bot_requests SET host = NULL WHERE trim(host) = '';
