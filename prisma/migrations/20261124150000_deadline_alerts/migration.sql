-- Deadline alerts: one row per deadline event emitted, unique per record and deadline.
CREATE TABLE "deadline_alerts" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "due_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deadline_alerts_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "deadline_alerts_tenant_id_kind_subject_id_key_key" ON "deadline_alerts"("tenant_id", "kind", "subject_id", "key");
CREATE INDEX "deadline_alerts_tenant_id_id_idx" ON "deadline_alerts"("tenant_id", "id");
