-- Blocks are compressed by Sightline (zstd per column, storage/blocks/column_block.h), so
-- PostgreSQL is told not to try again and to keep them out of line as they are: a reader that
-- needs a few columns of a block then fetches only the TOAST chunks holding them
-- (`substring`, storage/block_reads.h). Blocks written before keep their storage until
-- rewritten; they were stored the same way unless PostgreSQL could shrink them.
ALTER TABLE event_blocks ALTER COLUMN data SET STORAGE EXTERNAL;
ALTER TABLE visit_blocks ALTER COLUMN data SET STORAGE EXTERNAL;
