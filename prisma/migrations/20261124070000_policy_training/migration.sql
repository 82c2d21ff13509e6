-- The policy-authoring rail (versions, publications through approval chains, attestations; new
-- columns of the shared policies table) and the training-records rail (modules, completion records
-- with their signed certificates).
ALTER TABLE "policies" ADD COLUMN "current_version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "policies" ADD COLUMN "published_version" INTEGER;
ALTER TABLE "policies" ADD COLUMN "published_at" TIMESTAMP(3);
ALTER TABLE "policies" ADD COLUMN "retired_at" TIMESTAMP(3);

CREATE TABLE "policy_versions" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "policy_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "note" TEXT,
    "sha256" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "policy_versions_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "policy_versions_tenant_id_policy_id_number_key" ON "policy_versions"("tenant_id", "policy_id", "number");
CREATE INDEX "policy_versions_tenant_id_id_idx" ON "policy_versions"("tenant_id", "id");

CREATE TABLE "policy_publications" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "policy_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "chain_id" TEXT NOT NULL,
    "approver_ids" TEXT[],
    "step" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "decisions" JSONB NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "policy_publications_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "policy_publications_tenant_id_id_idx" ON "policy_publications"("tenant_id", "id");
CREATE INDEX "policy_publications_tenant_id_policy_id_idx" ON "policy_publications"("tenant_id", "policy_id");

CREATE TABLE "policy_attestations" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "policy_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "policy_attestations_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "policy_attestations_tenant_id_policy_id_version_user_id_key" ON "policy_attestations"("tenant_id", "policy_id", "version", "user_id");
CREATE INDEX "policy_attestations_tenant_id_id_idx" ON "policy_attestations"("tenant_id", "id");

CREATE TABLE "training_modules" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "required_for_role_ids" TEXT[],
    "validity_days" INTEGER,
    "framework_refs" JSONB NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "training_modules_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "training_modules_tenant_id_id_idx" ON "training_modules"("tenant_id", "id");

CREATE TABLE "training_records" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "module_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "module_title" TEXT NOT NULL,
    "user_name" TEXT NOT NULL,
    "completed_at" TIMESTAMP(3) NOT NULL,
    "score" INTEGER,
    "expires_at" TIMESTAMP(3),
    "certificate_id" TEXT NOT NULL,
    "certificate_hash" TEXT NOT NULL,
    "certificate_key_id" TEXT NOT NULL,
    "certificate_signature" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "training_records_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "training_records_certificate_id_key" ON "training_records"("certificate_id");
CREATE UNIQUE INDEX "training_records_certificate_hash_key" ON "training_records"("certificate_hash");
CREATE INDEX "training_records_tenant_id_id_idx" ON "training_records"("tenant_id", "id");
CREATE INDEX "training_records_tenant_id_user_id_idx" ON "training_records"("tenant_id", "user_id");
