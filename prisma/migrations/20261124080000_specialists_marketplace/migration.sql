-- The specialists rail (consultant lifecycle, certifications, fees) and the marketplace rail
-- (listings, engagements, reviews).
ALTER TABLE "specialist_consultants" ADD COLUMN "status" TEXT NOT NULL DEFAULT 'unlisted';
ALTER TABLE "specialist_consultants" ADD COLUMN "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
UPDATE "specialist_consultants" SET "status" = 'listed' WHERE "listed";

CREATE TABLE "specialist_certifications" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "firm_id" TEXT NOT NULL,
    "consultant_id" TEXT,
    "name" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "valid_from" TIMESTAMP(3),
    "valid_until" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "specialist_certifications_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "specialist_certifications_tenant_id_id_idx" ON "specialist_certifications"("tenant_id", "id");
CREATE INDEX "specialist_certifications_consultant_id_idx" ON "specialist_certifications"("consultant_id");

CREATE TABLE "specialist_fees" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "engagement_id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "description" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "specialist_fees_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "specialist_fees_tenant_id_id_idx" ON "specialist_fees"("tenant_id", "id");
CREATE INDEX "specialist_fees_engagement_id_idx" ON "specialist_fees"("engagement_id");

CREATE TABLE "marketplace_listings" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "firm_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "services" TEXT[],
    "frameworks" TEXT[],
    "price_min_eur" INTEGER NOT NULL,
    "price_max_eur" INTEGER NOT NULL,
    "revenue_share_bps" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "marketplace_listings_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "marketplace_listings_tenant_id_id_idx" ON "marketplace_listings"("tenant_id", "id");
CREATE INDEX "marketplace_listings_status_idx" ON "marketplace_listings"("status");

CREATE TABLE "marketplace_engagements" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "listing_id" TEXT NOT NULL,
    "firm_id" TEXT NOT NULL,
    "firm_tenant_id" TEXT NOT NULL,
    "share_rate_bps" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "ended_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "marketplace_engagements_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "marketplace_engagements_tenant_id_id_idx" ON "marketplace_engagements"("tenant_id", "id");
CREATE INDEX "marketplace_engagements_firm_tenant_id_status_idx" ON "marketplace_engagements"("firm_tenant_id", "status");

CREATE TABLE "marketplace_reviews" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "engagement_id" TEXT NOT NULL,
    "listing_id" TEXT NOT NULL,
    "firm_id" TEXT NOT NULL,
    "rating" INTEGER NOT NULL,
    "comment" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "marketplace_reviews_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "marketplace_reviews_engagement_id_key" ON "marketplace_reviews"("engagement_id");
CREATE INDEX "marketplace_reviews_tenant_id_id_idx" ON "marketplace_reviews"("tenant_id", "id");
CREATE INDEX "marketplace_reviews_firm_id_idx" ON "marketplace_reviews"("firm_id");
