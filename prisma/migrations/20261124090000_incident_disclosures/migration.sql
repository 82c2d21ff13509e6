-- The incident-disclosures rail: regulator channels, disclosures with their filings, notification drafts.
CREATE TABLE "incident_channels" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "regime" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "submission_url" TEXT,
    "email" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "incident_channels_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "incident_channels_tenant_id_id_idx" ON "incident_channels"("tenant_id", "id");

CREATE TABLE "incident_disclosures" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "regimes" TEXT[],
    "known_at" TIMESTAMP(3) NOT NULL,
    "classified_major_at" TIMESTAMP(3),
    "factors" JSONB NOT NULL,
    "facts" JSONB NOT NULL,
    "submissions" JSONB NOT NULL,
    "closed_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "incident_disclosures_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "incident_disclosures_tenant_id_id_idx" ON "incident_disclosures"("tenant_id", "id");

CREATE TABLE "incident_disclosure_drafts" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "disclosure_id" TEXT NOT NULL,
    "regime" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "authority" TEXT NOT NULL,
    "due_at" TIMESTAMP(3),
    "source" TEXT NOT NULL,
    "fields" JSONB NOT NULL,
    "missing" TEXT[],
    "body" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "incident_disclosure_drafts_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "incident_disclosure_drafts_tenant_id_disclosure_id_regime_stage_version_key" ON "incident_disclosure_drafts"("tenant_id", "disclosure_id", "regime", "stage", "version");
CREATE INDEX "incident_disclosure_drafts_tenant_id_id_idx" ON "incident_disclosure_drafts"("tenant_id", "id");
