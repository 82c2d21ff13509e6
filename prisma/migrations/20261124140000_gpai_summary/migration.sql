-- The gpai_summary rail: training-content summaries, their published versions, data sources,
-- copyright policies and energy disclosures.
CREATE TABLE "gpai_summaries" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "model_name" TEXT NOT NULL,
    "model_version" TEXT NOT NULL,
    "provider" JSONB NOT NULL,
    "placed_on_market_at" TEXT,
    "modalities" TEXT[],
    "training_data_size" JSONB NOT NULL,
    "illegal_content_measures" TEXT,
    "status" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "published_version" INTEGER,
    "published_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gpai_summaries_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "gpai_summaries_tenant_id_id_idx" ON "gpai_summaries"("tenant_id", "id");

CREATE TABLE "gpai_summary_versions" (
    "tenant_id" TEXT NOT NULL,
    "summary_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "document" JSONB NOT NULL,
    "published_by" TEXT NOT NULL,
    "published_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "gpai_summary_versions_pkey" PRIMARY KEY ("summary_id", "version")
);
CREATE INDEX "gpai_summary_versions_tenant_id_summary_id_idx" ON "gpai_summary_versions"("tenant_id", "summary_id");

CREATE TABLE "gpai_data_sources" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "summary_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "size" TEXT,
    "collected_from" TEXT,
    "collected_to" TEXT,
    "licence" TEXT,
    "crawler" JSONB,
    "top_domains" TEXT[],
    "summary_version" INTEGER NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gpai_data_sources_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "gpai_data_sources_tenant_id_id_idx" ON "gpai_data_sources"("tenant_id", "id");
CREATE INDEX "gpai_data_sources_tenant_id_summary_id_idx" ON "gpai_data_sources"("tenant_id", "summary_id");

CREATE TABLE "gpai_copyright_policies" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "summary_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "opt_out_methods" TEXT[],
    "description" TEXT NOT NULL,
    "complaint_contact" TEXT NOT NULL,
    "policy_url" TEXT,
    "effective_from" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gpai_copyright_policies_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "gpai_copyright_policies_tenant_id_id_idx" ON "gpai_copyright_policies"("tenant_id", "id");
CREATE INDEX "gpai_copyright_policies_tenant_id_summary_id_idx" ON "gpai_copyright_policies"("tenant_id", "summary_id");

CREATE TABLE "gpai_energy_disclosures" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "summary_id" TEXT NOT NULL,
    "energy_mwh" DOUBLE PRECISION,
    "energy_basis" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "compute_flops" DOUBLE PRECISION NOT NULL,
    "training_time_hours" DOUBLE PRECISION,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gpai_energy_disclosures_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "gpai_energy_disclosures_tenant_id_id_idx" ON "gpai_energy_disclosures"("tenant_id", "id");
CREATE INDEX "gpai_energy_disclosures_tenant_id_summary_id_idx" ON "gpai_energy_disclosures"("tenant_id", "summary_id");
