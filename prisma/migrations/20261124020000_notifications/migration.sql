-- The notifications rail: subscriptions, preferences, channels, the inbox, channel deliveries and
-- the queue of event-index rows the notifier has still to read.
CREATE TABLE "notification_subscriptions" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "subscriber_id" TEXT NOT NULL,
    "event_types" TEXT[],
    "channels" TEXT[],
    "status" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_subscriptions_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "notification_subscriptions_tenant_id_status_idx" ON "notification_subscriptions"("tenant_id", "status");
CREATE INDEX "notification_subscriptions_tenant_id_id_idx" ON "notification_subscriptions"("tenant_id", "id");

CREATE TABLE "notification_preferences" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "principal_id" TEXT NOT NULL,
    "muted_event_types" TEXT[],
    "minimum_severity" TEXT NOT NULL,
    "channels" TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_preferences_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "notification_preferences_tenant_id_principal_id_key" ON "notification_preferences"("tenant_id", "principal_id");
CREATE INDEX "notification_preferences_tenant_id_id_idx" ON "notification_preferences"("tenant_id", "id");

CREATE TABLE "notification_channels" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT,
    "url_hint" TEXT,
    "recipients" TEXT[],
    "status" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_channels_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "notification_channels_tenant_id_kind_id_idx" ON "notification_channels"("tenant_id", "kind", "id");
CREATE INDEX "notification_channels_tenant_id_id_idx" ON "notification_channels"("tenant_id", "id");

CREATE TABLE "notifications" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "recipient_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "resource_type" TEXT,
    "resource_id" TEXT NOT NULL,
    "path" TEXT,
    "actor" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "occurred_at" TIMESTAMP(3) NOT NULL,
    "read_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "notifications_tenant_id_event_id_recipient_id_key" ON "notifications"("tenant_id", "event_id", "recipient_id");
CREATE INDEX "notifications_tenant_id_recipient_id_id_idx" ON "notifications"("tenant_id", "recipient_id", "id");
CREATE INDEX "notifications_tenant_id_id_idx" ON "notifications"("tenant_id", "id");

CREATE TABLE "notification_deliveries" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "message" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMP(3),
    "lease_expires_at" TIMESTAMP(3),
    "delivered_at" TIMESTAMP(3),
    "failed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_deliveries_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "notification_deliveries_channel_id_event_id_key" ON "notification_deliveries"("channel_id", "event_id");
CREATE INDEX "notification_deliveries_status_next_attempt_at_idx" ON "notification_deliveries"("status", "next_attempt_at");
CREATE INDEX "notification_deliveries_tenant_id_channel_id_id_idx" ON "notification_deliveries"("tenant_id", "channel_id", "id");
CREATE INDEX "notification_deliveries_tenant_id_id_idx" ON "notification_deliveries"("tenant_id", "id");

CREATE TABLE "notification_queue" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "queued_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_queue_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "notification_queue_queued_at_idx" ON "notification_queue"("queued_at");
CREATE INDEX "notification_queue_tenant_id_id_idx" ON "notification_queue"("tenant_id", "id");

-- Every event-index row of a tenant with an active subscription is queued for the notifier in the
-- transaction that writes it: nothing is missed, whatever the order in which writers commit.
CREATE FUNCTION "svc_notification_enqueue"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "notification_subscriptions" s WHERE s."tenant_id" = NEW."tenant_id" AND s."status" = 'active') THEN
    INSERT INTO "notification_queue" ("id", "tenant_id", "queued_at") VALUES (NEW."id", NEW."tenant_id", NEW."time")
      ON CONFLICT ("id") DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "event_index_notification_enqueue" AFTER INSERT ON "event_index"
  FOR EACH ROW EXECUTE FUNCTION "svc_notification_enqueue"();
