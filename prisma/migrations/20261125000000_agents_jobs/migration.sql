-- Agent decisions (replayable) and the background jobs.
CREATE TABLE "agent_decisions" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "dictionary_version" TEXT NOT NULL,
    "bundle_hash" TEXT NOT NULL,
    "rule_set_id" TEXT NOT NULL,
    "rule_set_version" TEXT NOT NULL,
    "rule_set_hash" TEXT NOT NULL,
    "output" JSONB NOT NULL,
    "hash" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "event_id" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_decisions_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "agent_decisions_tenant_id_id_idx" ON "agent_decisions"("tenant_id", "id");
CREATE INDEX "agent_decisions_tenant_id_agent_id_idx" ON "agent_decisions"("tenant_id", "agent", "id");

CREATE TABLE "jobs" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "run_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 3,
    "locked_by" TEXT,
    "locked_until" TIMESTAMP(3),
    "last_error" TEXT,
    "dedupe_key" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "jobs_tenant_id_dedupe_key_key" ON "jobs"("tenant_id", "dedupe_key");
CREATE INDEX "jobs_status_run_at_idx" ON "jobs"("status", "run_at");
CREATE INDEX "jobs_tenant_id_id_idx" ON "jobs"("tenant_id", "id");

-- Routed events are consumed: claimed with a lease, then done (with the decision), skipped or failed.
ALTER TABLE "agent_dispatches" ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "agent_dispatches" ADD COLUMN "claimed_at" TIMESTAMP(3);
ALTER TABLE "agent_dispatches" ADD COLUMN "decision_id" TEXT;
ALTER TABLE "agent_dispatches" ADD COLUMN "error" TEXT;
ALTER TABLE "agent_dispatches" ADD COLUMN "processed_at" TIMESTAMP(3);
CREATE INDEX "agent_dispatches_status_id_idx" ON "agent_dispatches"("status", "id");
