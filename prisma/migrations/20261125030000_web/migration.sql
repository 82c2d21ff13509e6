-- The web application (users, one-time sign-in links, sessions) and the operator console (sessions).
CREATE TABLE "web_users" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "role" TEXT NOT NULL,
    "password_hash" TEXT,
    "disabled_at" TIMESTAMP(3),
    "last_sign_in_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "web_users_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "web_users_email_key" ON "web_users"("email");
CREATE INDEX "web_users_tenant_id_id_idx" ON "web_users"("tenant_id", "id");

CREATE TABLE "web_sign_in_links" (
    "token_hash" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "web_sign_in_links_pkey" PRIMARY KEY ("token_hash")
);
CREATE INDEX "web_sign_in_links_tenant_id_user_id_idx" ON "web_sign_in_links"("tenant_id", "user_id");

CREATE TABLE "web_sessions" (
    "id_hash" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "web_sessions_pkey" PRIMARY KEY ("id_hash")
);
CREATE INDEX "web_sessions_tenant_id_user_id_idx" ON "web_sessions"("tenant_id", "user_id");
CREATE INDEX "web_sessions_expires_at_idx" ON "web_sessions"("expires_at");

CREATE TABLE "console_sessions" (
    "id_hash" TEXT NOT NULL,
    "credential_id" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id_hash")
);
CREATE INDEX "console_sessions_credential_id_idx" ON "console_sessions"("credential_id");
CREATE INDEX "console_sessions_expires_at_idx" ON "console_sessions"("expires_at");

CREATE TABLE "web_keys" (
    "name" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "web_keys_pkey" PRIMARY KEY ("name")
);
