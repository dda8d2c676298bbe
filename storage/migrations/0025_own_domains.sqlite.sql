-- A project's own domains (its `domains` setting, one per line): a referrer within one of them
-- is the site itself, never where a visit came from (docs/reports.md, "Referrers").
ALTER TABLE projects ADD COLUMN domains TEXT NOT NULL DEFAULT '';

-- A referrer now belongs to the visit, as a domain, and every visit dimension of the day
-- rollups is the visit's first event's: roll every day up again once.
DELETE FROM rollup_blocks;
DELETE FROM rollup_days;
