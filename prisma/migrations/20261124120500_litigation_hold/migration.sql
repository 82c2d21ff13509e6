-- The litigation_hold rail: legal holds, custodians, the append-only preservation log, eDiscovery exports.
CREATE TABLE "legal_holds" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "matter" TEXT NOT NULL,
    "description" TEXT,
    "status" TEXT NOT NULL,
    "records" JSONB NOT NULL,
    "criteria" JSONB,
    "release_reason" TEXT,
    "released_by" TEXT,
    "released_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "legal_holds_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "legal_holds_tenant_id_id_idx" ON "legal_holds"("tenant_id", "id");
CREATE INDEX "legal_holds_tenant_id_status_idx" ON "legal_holds"("tenant_id", "status");

CREATE TABLE "legal_hold_custodians" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "hold_id" TEXT NOT NULL,
    "stakeholder_user_id" TEXT,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "status" TEXT NOT NULL,
    "notice_sent_at" TIMESTAMP(3) NOT NULL,
    "acknowledged_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "legal_hold_custodians_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "legal_hold_custodians_tenant_id_id_idx" ON "legal_hold_custodians"("tenant_id", "id");
CREATE INDEX "legal_hold_custodians_tenant_id_hold_id_idx" ON "legal_hold_custodians"("tenant_id", "hold_id");

CREATE TABLE "legal_hold_log" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "hold_id" TEXT,
    "event" TEXT NOT NULL,
    "target_type" TEXT,
    "target_id" TEXT,
    "actor" TEXT,
    "detail" JSONB NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "legal_hold_log_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "legal_hold_log_tenant_id_id_idx" ON "legal_hold_log"("tenant_id", "id");
CREATE INDEX "legal_hold_log_tenant_id_hold_id_idx" ON "legal_hold_log"("tenant_id", "hold_id");

CREATE TABLE "legal_hold_exports" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "hold_id" TEXT NOT NULL,
    "record_count" INTEGER NOT NULL,
    "records" JSONB NOT NULL,
    "manifest" JSONB NOT NULL,
    "manifest_hash" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "legal_hold_exports_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "legal_hold_exports_tenant_id_id_idx" ON "legal_hold_exports"("tenant_id", "id");
CREATE INDEX "legal_hold_exports_tenant_id_hold_id_idx" ON "legal_hold_exports"("tenant_id", "hold_id");
