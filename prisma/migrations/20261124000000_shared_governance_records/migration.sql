-- Records several governance rails read: the stakeholders rail's people, roles and approval chains,
-- policies, self-audit findings, and the specialists rail's firms and consultants.
CREATE TABLE "stakeholder_users" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role_ids" TEXT[],
    "status" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stakeholder_users_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "stakeholder_users_tenant_id_id_idx" ON "stakeholder_users"("tenant_id", "id");

CREATE TABLE "stakeholder_roles" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stakeholder_roles_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "stakeholder_roles_tenant_id_id_idx" ON "stakeholder_roles"("tenant_id", "id");

CREATE TABLE "approval_chains" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "approver_ids" TEXT[],
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approval_chains_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "approval_chains_tenant_id_id_idx" ON "approval_chains"("tenant_id", "id");

CREATE TABLE "policies" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "control_ids" TEXT[],
    "owner_id" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "policies_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "policies_tenant_id_id_idx" ON "policies"("tenant_id", "id");

CREATE TABLE "self_audit_findings" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "severity" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "control_id" TEXT,
    "system_id" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "self_audit_findings_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "self_audit_findings_tenant_id_id_idx" ON "self_audit_findings"("tenant_id", "id");

CREATE TABLE "specialist_firms" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "jurisdictions" TEXT[],
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "specialist_firms_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "specialist_firms_tenant_id_id_idx" ON "specialist_firms"("tenant_id", "id");

CREATE TABLE "specialist_consultants" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "firm_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "headline" TEXT NOT NULL,
    "expertise" TEXT[],
    "jurisdictions" TEXT[],
    "listed" BOOLEAN NOT NULL DEFAULT false,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "specialist_consultants_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "specialist_consultants_tenant_id_id_idx" ON "specialist_consultants"("tenant_id", "id");
CREATE INDEX "specialist_consultants_listed_idx" ON "specialist_consultants"("listed");
