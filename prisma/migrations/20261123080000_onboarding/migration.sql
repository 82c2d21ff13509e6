-- The onboarding rail: a tracked onboarding per tenant (at most one open: open_slot is 'open'
-- while in progress and NULL once completed, and NULLs do not collide in the unique index).
CREATE TABLE "onboardings" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "profile" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "open_slot" TEXT,
    "phases" JSONB NOT NULL,
    "started_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "onboardings_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "onboardings_tenant_id_open_slot_key" ON "onboardings"("tenant_id", "open_slot");
CREATE INDEX "onboardings_tenant_id_id_idx" ON "onboardings"("tenant_id", "id");
