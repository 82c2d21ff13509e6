-- The risk_register rail (risks, treatments, reviews, sign-offs) and the risk rail's watchlist.
CREATE TABLE "risk_register_risks" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "domain" TEXT NOT NULL,
    "area" TEXT,
    "owner_id" TEXT,
    "control_ids" TEXT[],
    "inherent_likelihood" INTEGER NOT NULL,
    "inherent_impact" INTEGER NOT NULL,
    "residual_likelihood" INTEGER NOT NULL,
    "residual_impact" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "review_every_days" INTEGER NOT NULL,
    "last_reviewed_at" TIMESTAMP(3),
    "next_review_at" TIMESTAMP(3) NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "risk_register_risks_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "risk_register_risks_tenant_id_id_idx" ON "risk_register_risks"("tenant_id", "id");

CREATE TABLE "risk_treatments" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "risk_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "likelihood_reduction" INTEGER NOT NULL,
    "impact_reduction" INTEGER NOT NULL,
    "control_ids" TEXT[],
    "status" TEXT NOT NULL,
    "implemented_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "risk_treatments_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "risk_treatments_tenant_id_id_idx" ON "risk_treatments"("tenant_id", "id");
CREATE INDEX "risk_treatments_tenant_id_risk_id_idx" ON "risk_treatments"("tenant_id", "risk_id");

CREATE TABLE "risk_reviews" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "risk_id" TEXT NOT NULL,
    "reviewer_id" TEXT,
    "notes" TEXT,
    "reviewed_at" TIMESTAMP(3) NOT NULL,
    "next_review_at" TIMESTAMP(3) NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "risk_reviews_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "risk_reviews_tenant_id_id_idx" ON "risk_reviews"("tenant_id", "id");
CREATE INDEX "risk_reviews_tenant_id_risk_id_idx" ON "risk_reviews"("tenant_id", "risk_id");

CREATE TABLE "risk_sign_offs" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "risk_id" TEXT NOT NULL,
    "signer_id" TEXT NOT NULL,
    "statement" TEXT,
    "residual_likelihood" INTEGER NOT NULL,
    "residual_impact" INTEGER NOT NULL,
    "treatment_ids" TEXT[],
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "risk_sign_offs_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "risk_sign_offs_tenant_id_id_idx" ON "risk_sign_offs"("tenant_id", "id");
CREATE INDEX "risk_sign_offs_tenant_id_risk_id_idx" ON "risk_sign_offs"("tenant_id", "risk_id");

CREATE TABLE "risk_watchlist" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "risk_id" TEXT NOT NULL,
    "note" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "risk_watchlist_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "risk_watchlist_tenant_id_risk_id_key" ON "risk_watchlist"("tenant_id", "risk_id");
CREATE INDEX "risk_watchlist_tenant_id_id_idx" ON "risk_watchlist"("tenant_id", "id");
