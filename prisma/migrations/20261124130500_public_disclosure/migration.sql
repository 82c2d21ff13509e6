-- The public_disclosure rail: system profiles, transparency notices and versioned disclosure documents.
CREATE TABLE "public_disclosure_profiles" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "system_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "deployer_context" TEXT,
    "model" TEXT,
    "interacts_with_people" BOOLEAN NOT NULL,
    "generates_synthetic_content" BOOLEAN NOT NULL,
    "synthetic_modalities" TEXT[],
    "emotion_recognition" BOOLEAN NOT NULL,
    "biometric_categorisation" BOOLEAN NOT NULL,
    "deep_fake" BOOLEAN NOT NULL,
    "public_interest_text" BOOLEAN NOT NULL,
    "editorial_responsibility" BOOLEAN NOT NULL,
    "general_purpose_model" BOOLEAN NOT NULL,
    "risk_ids" TEXT[],
    "gpai_summary_ids" TEXT[],
    "red_team_target_ids" TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "public_disclosure_profiles_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "public_disclosure_profiles_tenant_id_system_id_key" ON "public_disclosure_profiles"("tenant_id", "system_id");
CREATE INDEX "public_disclosure_profiles_tenant_id_id_idx" ON "public_disclosure_profiles"("tenant_id", "id");

CREATE TABLE "transparency_notices" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "system_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "audience" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "previous_sha256" TEXT,
    "sections" JSONB NOT NULL,
    "missing" TEXT[],
    "sources" JSONB NOT NULL,
    "published_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "transparency_notices_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "transparency_notices_tenant_id_system_id_version_key" ON "transparency_notices"("tenant_id", "system_id", "version");
CREATE INDEX "transparency_notices_tenant_id_id_idx" ON "transparency_notices"("tenant_id", "id");

CREATE TABLE "disclosure_documents" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "system_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "previous_sha256" TEXT,
    "duties" JSONB NOT NULL,
    "sections" JSONB NOT NULL,
    "missing" TEXT[],
    "sources" JSONB NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "disclosure_documents_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "disclosure_documents_tenant_id_kind_system_id_version_key" ON "disclosure_documents"("tenant_id", "kind", "system_id", "version");
CREATE INDEX "disclosure_documents_tenant_id_id_idx" ON "disclosure_documents"("tenant_id", "id");
