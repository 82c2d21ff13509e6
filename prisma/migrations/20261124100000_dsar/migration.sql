-- The dsar rail: data-subject requests, declared data stores, fulfillment items, response packets, redactions.
CREATE TABLE "dsar_requests" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "regime" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subject_name" TEXT NOT NULL,
    "subject_email" TEXT,
    "subject_type" TEXT NOT NULL,
    "description" TEXT,
    "status" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL,
    "verifications" JSONB NOT NULL,
    "verified_at" TIMESTAMP(3),
    "extended_at" TIMESTAMP(3),
    "extension_reason" TEXT,
    "notice_sent_at" TIMESTAMP(3),
    "started_at" TIMESTAMP(3),
    "fulfilled_at" TIMESTAMP(3),
    "rejected_at" TIMESTAMP(3),
    "rejection_reason" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dsar_requests_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "dsar_requests_tenant_id_id_idx" ON "dsar_requests"("tenant_id", "id");

CREATE TABLE "dsar_data_stores" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "system" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "categories" TEXT[],
    "subject_types" TEXT[],
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dsar_data_stores_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "dsar_data_stores_tenant_id_id_idx" ON "dsar_data_stores"("tenant_id", "id");

CREATE TABLE "dsar_fulfillment_items" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "store_id" TEXT NOT NULL,
    "store_name" TEXT NOT NULL,
    "system" TEXT NOT NULL,
    "categories" TEXT[],
    "status" TEXT NOT NULL,
    "notes" TEXT,
    "records" JSONB NOT NULL,
    "closed_at" TIMESTAMP(3),
    "closed_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dsar_fulfillment_items_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "dsar_fulfillment_items_tenant_id_request_id_store_id_key" ON "dsar_fulfillment_items"("tenant_id", "request_id", "store_id");
CREATE INDEX "dsar_fulfillment_items_tenant_id_id_idx" ON "dsar_fulfillment_items"("tenant_id", "id");

CREATE TABLE "dsar_exports" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "parent_export_id" TEXT,
    "redaction_id" TEXT,
    "packet" JSONB NOT NULL,
    "sha256" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dsar_exports_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "dsar_exports_tenant_id_request_id_version_key" ON "dsar_exports"("tenant_id", "request_id", "version");
CREATE INDEX "dsar_exports_tenant_id_id_idx" ON "dsar_exports"("tenant_id", "id");

CREATE TABLE "dsar_redactions" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "source_export_id" TEXT NOT NULL,
    "result_export_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "redactions" JSONB NOT NULL,
    "sha256_before" TEXT NOT NULL,
    "sha256_after" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dsar_redactions_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "dsar_redactions_tenant_id_id_idx" ON "dsar_redactions"("tenant_id", "id");
