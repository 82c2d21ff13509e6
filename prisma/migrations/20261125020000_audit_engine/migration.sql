-- The audit_engine rail: schedules, runs, findings, sign-offs and attestations.
CREATE TABLE "audit_schedules" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "framework" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "cron" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "next_run_at" TIMESTAMP(3),
    "last_due_at" TIMESTAMP(3),
    "last_run_id" TEXT,
    "last_error" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_schedules_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "audit_schedules_tenant_id_id_idx" ON "audit_schedules"("tenant_id", "id");

CREATE TABLE "audit_runs" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "framework" TEXT NOT NULL,
    "dictionary_version" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "schedule_id" TEXT,
    "status" TEXT NOT NULL,
    "bundle_hash" TEXT NOT NULL,
    "bundle_versions" JSONB NOT NULL,
    "rule_set_id" TEXT NOT NULL,
    "rule_set_version" TEXT NOT NULL,
    "rule_set_hash" TEXT NOT NULL,
    "as_of" TIMESTAMP(3) NOT NULL,
    "controls" INTEGER NOT NULL,
    "estimated_completion" TIMESTAMP(3) NOT NULL,
    "inputs" JSONB,
    "counts" JSONB,
    "findings_hash" TEXT,
    "error" TEXT,
    "sign_off_id" TEXT,
    "attestation_id" TEXT,
    "correlation_id" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMP(3),
    "attested_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_runs_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "audit_runs_tenant_id_id_idx" ON "audit_runs"("tenant_id", "id");
CREATE INDEX "audit_runs_tenant_id_schedule_id_idx" ON "audit_runs"("tenant_id", "schedule_id");

CREATE TABLE "audit_findings" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "control_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "facts" JSONB NOT NULL,
    "resolution" TEXT,
    "resolved_by" TEXT,
    "resolved_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_findings_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "audit_findings_tenant_id_id_idx" ON "audit_findings"("tenant_id", "id");
CREATE INDEX "audit_findings_tenant_id_run_id_idx" ON "audit_findings"("tenant_id", "run_id");

CREATE TABLE "audit_sign_offs" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "owner_name" TEXT NOT NULL,
    "owner_email" TEXT NOT NULL,
    "owner_title" TEXT,
    "statement" TEXT NOT NULL,
    "signed_by" TEXT NOT NULL,
    "signer_role" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_sign_offs_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "audit_sign_offs_tenant_id_run_id_key" ON "audit_sign_offs"("tenant_id", "run_id");
CREATE INDEX "audit_sign_offs_tenant_id_id_idx" ON "audit_sign_offs"("tenant_id", "id");

CREATE TABLE "audit_attestations" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "sign_off_id" TEXT NOT NULL,
    "statement" TEXT NOT NULL,
    "attested_by" TEXT NOT NULL,
    "run_hash" TEXT NOT NULL,
    "findings_hash" TEXT NOT NULL,
    "sign_off_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_attestations_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "audit_attestations_tenant_id_run_id_key" ON "audit_attestations"("tenant_id", "run_id");
CREATE INDEX "audit_attestations_tenant_id_id_idx" ON "audit_attestations"("tenant_id", "id");
