-- The insurance rail: policies, claims, quote requests with their offers.
CREATE TABLE "insurance_policies" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "insurer" TEXT NOT NULL,
    "line" TEXT NOT NULL,
    "policy_number" TEXT,
    "currency" TEXT NOT NULL,
    "limit" BIGINT NOT NULL,
    "retention" BIGINT NOT NULL,
    "premium" BIGINT,
    "period_start" TIMESTAMP(3) NOT NULL,
    "period_end" TIMESTAMP(3) NOT NULL,
    "perils" TEXT[],
    "exclusions" TEXT[],
    "status" TEXT NOT NULL,
    "cancelled_at" TIMESTAMP(3),
    "quote_id" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "insurance_policies_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "insurance_policies_tenant_id_id_idx" ON "insurance_policies"("tenant_id", "id");

CREATE TABLE "insurance_claims" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "policy_id" TEXT NOT NULL,
    "risk_id" TEXT,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "loss_date" TIMESTAMP(3) NOT NULL,
    "currency" TEXT NOT NULL,
    "amount_claimed" BIGINT NOT NULL,
    "policy_limit" BIGINT NOT NULL,
    "policy_retention" BIGINT NOT NULL,
    "approved_amount" BIGINT,
    "paid_amount" BIGINT,
    "status" TEXT NOT NULL,
    "submitted_at" TIMESTAMP(3),
    "decided_at" TIMESTAMP(3),
    "paid_at" TIMESTAMP(3),
    "closed_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "insurance_claims_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "insurance_claims_tenant_id_id_idx" ON "insurance_claims"("tenant_id", "id");
CREATE INDEX "insurance_claims_tenant_id_policy_id_idx" ON "insurance_claims"("tenant_id", "policy_id");

CREATE TABLE "insurance_quotes" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "line" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "requested_limit" BIGINT NOT NULL,
    "perils" TEXT[],
    "period_start" TIMESTAMP(3) NOT NULL,
    "period_end" TIMESTAMP(3) NOT NULL,
    "notes" TEXT,
    "status" TEXT NOT NULL,
    "offers" JSONB NOT NULL,
    "accepted_insurer" TEXT,
    "policy_id" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "insurance_quotes_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "insurance_quotes_tenant_id_id_idx" ON "insurance_quotes"("tenant_id", "id");
