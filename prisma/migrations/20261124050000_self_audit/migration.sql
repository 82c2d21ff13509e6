-- The self-audit rail: when a finding closed, the remediation of findings, and evidence linked to
-- findings or remediations as proof.
ALTER TABLE "self_audit_findings" ADD COLUMN "closed_at" TIMESTAMP(3);

CREATE TABLE "self_audit_remediations" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "finding_id" TEXT NOT NULL,
    "plan" TEXT NOT NULL,
    "owner_id" TEXT,
    "due_date" TIMESTAMP(3),
    "status" TEXT NOT NULL,
    "resolved_at" TIMESTAMP(3),
    "verified_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "self_audit_remediations_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "self_audit_remediations_tenant_id_id_idx" ON "self_audit_remediations"("tenant_id", "id");
CREATE INDEX "self_audit_remediations_tenant_id_finding_id_idx" ON "self_audit_remediations"("tenant_id", "finding_id");

CREATE TABLE "self_audit_evidence_links" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "evidence_id" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "finding_id" TEXT NOT NULL,
    "note" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "self_audit_evidence_links_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "self_audit_evidence_links_tenant_id_id_idx" ON "self_audit_evidence_links"("tenant_id", "id");
CREATE INDEX "self_audit_evidence_links_tenant_id_target_id_idx" ON "self_audit_evidence_links"("tenant_id", "target_id");
CREATE INDEX "self_audit_evidence_links_tenant_id_finding_id_idx" ON "self_audit_evidence_links"("tenant_id", "finding_id");
