-- The document admits evidence sizes up to 10^10 bytes; an integer column overflowed above 2^31-1.
ALTER TABLE "evidence" ALTER COLUMN "size_bytes" TYPE BIGINT;
