-- The procurement rail: RFPs, bids, awards and supplier onboardings.
CREATE TABLE "procurement_rfps" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "status" TEXT NOT NULL,
    "criteria" JSONB NOT NULL,
    "weights_version" INTEGER NOT NULL,
    "award_id" TEXT,
    "opened_at" TIMESTAMP(3),
    "closed_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "procurement_rfps_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "procurement_rfps_tenant_id_id_idx" ON "procurement_rfps"("tenant_id", "id");

CREATE TABLE "procurement_bids" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "rfp_id" TEXT NOT NULL,
    "supplier_name" TEXT NOT NULL,
    "supplier_key" TEXT NOT NULL,
    "scores" JSONB NOT NULL,
    "notes" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "procurement_bids_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "procurement_bids_tenant_id_rfp_id_supplier_key_key" ON "procurement_bids"("tenant_id", "rfp_id", "supplier_key");
CREATE INDEX "procurement_bids_tenant_id_id_idx" ON "procurement_bids"("tenant_id", "id");

CREATE TABLE "procurement_awards" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "rfp_id" TEXT NOT NULL,
    "bid_id" TEXT NOT NULL,
    "supplier_name" TEXT NOT NULL,
    "rationale" TEXT NOT NULL,
    "total_score" DOUBLE PRECISION NOT NULL,
    "rank" INTEGER NOT NULL,
    "ranking" JSONB NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "procurement_awards_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "procurement_awards_tenant_id_rfp_id_key" ON "procurement_awards"("tenant_id", "rfp_id");
CREATE INDEX "procurement_awards_tenant_id_id_idx" ON "procurement_awards"("tenant_id", "id");

CREATE TABLE "procurement_onboardings" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "rfp_id" TEXT NOT NULL,
    "award_id" TEXT NOT NULL,
    "bid_id" TEXT NOT NULL,
    "vendor_id" TEXT NOT NULL,
    "supplier_name" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "procurement_onboardings_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "procurement_onboardings_tenant_id_award_id_key" ON "procurement_onboardings"("tenant_id", "award_id");
CREATE INDEX "procurement_onboardings_tenant_id_id_idx" ON "procurement_onboardings"("tenant_id", "id");
