-- The sources (SNS topic ARNs, Pub/Sub push service accounts) each tenant accepts on the cloud inbound routes.
CREATE TABLE "webhook_inbound_sources" (
    "tenant_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "sources" TEXT[],
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_inbound_sources_pkey" PRIMARY KEY ("tenant_id","provider")
);
