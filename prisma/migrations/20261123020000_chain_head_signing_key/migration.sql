-- A rotation names the key each chain's next event must be signed with: a writer reads it from the
-- head row it locks, which is always current, where its snapshot of signing_keys may not be.
ALTER TABLE "audit_chain_heads" ADD COLUMN "key_id" TEXT;
