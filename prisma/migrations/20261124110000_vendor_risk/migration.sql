-- The vendor_risk rail: vendors, assessments, contracts and monitoring events.
CREATE TABLE "vendor_risk_vendors" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "criticality" TEXT NOT NULL,
    "services" TEXT[],
    "data_access" TEXT[],
    "status" TEXT NOT NULL,
    "risk_score" DOUBLE PRECISION NOT NULL,
    "risk_scored_at" TIMESTAMP(3) NOT NULL,
    "origin" JSONB,
    "offboarded_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vendor_risk_vendors_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "vendor_risk_vendors_tenant_id_name_key_key" ON "vendor_risk_vendors"("tenant_id", "name_key");
CREATE INDEX "vendor_risk_vendors_tenant_id_id_idx" ON "vendor_risk_vendors"("tenant_id", "id");

CREATE TABLE "vendor_risk_assessments" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "vendor_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "answers" JSONB NOT NULL,
    "domain_scores" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "completed_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vendor_risk_assessments_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "vendor_risk_assessments_tenant_id_id_idx" ON "vendor_risk_assessments"("tenant_id", "id");
CREATE INDEX "vendor_risk_assessments_tenant_id_vendor_id_idx" ON "vendor_risk_assessments"("tenant_id", "vendor_id");

CREATE TABLE "vendor_risk_contracts" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "vendor_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "start_date" TEXT NOT NULL,
    "end_date" TEXT NOT NULL,
    "auto_renew" BOOLEAN NOT NULL,
    "renewal_term_months" INTEGER NOT NULL,
    "notice_period_days" INTEGER NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "renewals" JSONB NOT NULL,
    "terminated_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vendor_risk_contracts_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "vendor_risk_contracts_tenant_id_id_idx" ON "vendor_risk_contracts"("tenant_id", "id");
CREATE INDEX "vendor_risk_contracts_tenant_id_vendor_id_idx" ON "vendor_risk_contracts"("tenant_id", "vendor_id");

CREATE TABLE "vendor_risk_monitoring_events" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "vendor_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "details" TEXT,
    "source_url" TEXT,
    "occurred_at" TIMESTAMP(3) NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vendor_risk_monitoring_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "vendor_risk_monitoring_events_tenant_id_id_idx" ON "vendor_risk_monitoring_events"("tenant_id", "id");
CREATE INDEX "vendor_risk_monitoring_events_tenant_id_vendor_id_idx" ON "vendor_risk_monitoring_events"("tenant_id", "vendor_id");
