-- The rollup tables grow in bursts (a backfill, a block rebuild) of about 5% of their rows,
-- below PostgreSQL's default autoanalyze threshold of 10%; with stale statistics the planner
-- took a block's period list for a filter instead of an index condition and read 100k rows for
-- 10k (a 30-day path ranking at 10M requests: 82 ms stale, 46 ms analyzed). Analyze them after
-- every 1% of change instead.
ALTER TABLE bot_rollups SET (autovacuum_analyze_scale_factor = 0.01);
ALTER TABLE web_rollups SET (autovacuum_analyze_scale_factor = 0.01);
ALTER TABLE rollup_blocks SET (autovacuum_analyze_scale_factor = 0.01);
ALTER TABLE rollup_days SET (autovacuum_analyze_scale_factor = 0.01);
