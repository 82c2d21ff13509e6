-- CreateTable
CREATE TABLE "webhook_subscriptions" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "event_types" TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_events" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "correlation_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3),
    "lease_expires_at" TIMESTAMP(3),
    "delivered_at" TIMESTAMP(3),
    "dead_at" TIMESTAMP(3),
    "replays" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "round" INTEGER NOT NULL DEFAULT 0,
    "attempt" INTEGER NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "status_code" INTEGER,
    "outcome" TEXT NOT NULL,
    "error" TEXT,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_inbound_secrets" (
    "tenant_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_inbound_secrets_pkey" PRIMARY KEY ("tenant_id","provider")
);

-- CreateTable
CREATE TABLE "inbound_events" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT,
    "provider" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "dedup_key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "type" TEXT,
    "payload" JSONB NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbound_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_subscriptions_tenant_id_id_idx" ON "webhook_subscriptions"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "webhook_events_tenant_id_created_at_idx" ON "webhook_events"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_lease_expires_at_idx" ON "webhook_deliveries"("status", "lease_expires_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_tenant_id_id_idx" ON "webhook_deliveries"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_dead_at_idx" ON "webhook_deliveries"("status", "dead_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_attempts_delivery_id_round_attempt_key" ON "webhook_attempts"("delivery_id", "round", "attempt");

-- CreateIndex
CREATE INDEX "webhook_attempts_tenant_id_delivery_id_idx" ON "webhook_attempts"("tenant_id", "delivery_id");

-- CreateIndex
CREATE UNIQUE INDEX "inbound_events_dedup_key_key" ON "inbound_events"("dedup_key");

-- CreateIndex
CREATE INDEX "inbound_events_tenant_id_received_at_idx" ON "inbound_events"("tenant_id", "received_at");
