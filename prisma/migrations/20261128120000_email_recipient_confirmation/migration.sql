-- Email channel recipients confirm before anything is sent to them: one row per recipient, with
-- the hash of its single-use confirmation token and the state of its confirmation message.
CREATE TABLE "notification_email_recipients" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "token_hash" TEXT,
    "token_expires_at" TIMESTAMP(3),
    "invite_next_at" TIMESTAMP(3),
    "invite_attempts" INTEGER NOT NULL DEFAULT 0,
    "invited_at" TIMESTAMP(3),
    "invite_error" TEXT,
    "confirmed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_email_recipients_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "notification_email_recipients_token_hash_key" ON "notification_email_recipients"("token_hash");
CREATE UNIQUE INDEX "notification_email_recipients_channel_id_email_key" ON "notification_email_recipients"("channel_id", "email");
CREATE INDEX "notification_email_recipients_tenant_id_channel_id_id_idx" ON "notification_email_recipients"("tenant_id", "channel_id", "id");
CREATE INDEX "notification_email_recipients_tenant_id_id_idx" ON "notification_email_recipients"("tenant_id", "id");
CREATE INDEX "notification_email_recipients_invite_next_at_idx" ON "notification_email_recipients"("invite_next_at");

-- The recipients of existing email channels were never confirmed: they start pending, and each is
-- sent a confirmation message (due now) before it receives anything again.
INSERT INTO "notification_email_recipients" ("id", "tenant_id", "channel_id", "email", "status", "invite_next_at")
SELECT 'ner_' || md5(c."id" || '/' || r."email"), c."tenant_id", c."id", r."email", 'pending', CURRENT_TIMESTAMP
FROM "notification_channels" c, unnest(c."recipients") AS r("email")
WHERE c."kind" = 'email'
ON CONFLICT DO NOTHING;
