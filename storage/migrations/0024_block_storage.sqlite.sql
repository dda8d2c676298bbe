-- PostgreSQL only (blocks kept out of line, uncompressed, so that a part of one can be read);
-- SQLite reads a stored value whole either way.
SELECT 1;
