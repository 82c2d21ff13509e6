-- UK GDPR Art. 12A (from 5 February 2026): the clock of an access request stands still while the
-- controller waits for information it reasonably needs; each stop is kept on the request.
ALTER TABLE "dsar_requests" ADD COLUMN "pauses" JSONB NOT NULL DEFAULT '[]';
