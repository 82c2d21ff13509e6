-- CreateTable
CREATE TABLE "tenants" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tier" TEXT NOT NULL,
    "env" TEXT NOT NULL,
    "region" TEXT NOT NULL DEFAULT 'eu',
    "rate_limit_per_second" INTEGER,
    "monthly_quota" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "scopes" TEXT[],
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "last_used_at" TIMESTAMP(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operator_credentials" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "operator_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "frameworks" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "short_title" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "publisher" TEXT NOT NULL,
    "jurisdiction" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "latest_version" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "frameworks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "framework_versions" (
    "key" TEXT NOT NULL,
    "framework_id" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "published_at" TIMESTAMP(3) NOT NULL,
    "source_url" TEXT,
    "license" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "framework_versions_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "framework_clauses" (
    "version_key" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "parent_ref" TEXT,
    "ord" INTEGER NOT NULL,

    CONSTRAINT "framework_clauses_pkey" PRIMARY KEY ("version_key","ref")
);

-- CreateTable
CREATE TABLE "framework_controls" (
    "version_key" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "clause_refs" TEXT[],
    "ord" INTEGER NOT NULL,

    CONSTRAINT "framework_controls_pkey" PRIMARY KEY ("version_key","id")
);

-- CreateTable
CREATE TABLE "framework_questions" (
    "version_key" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "control_id" TEXT NOT NULL,
    "clause_ref" TEXT,
    "answer_type" TEXT NOT NULL,
    "ord" INTEGER NOT NULL,

    CONSTRAINT "framework_questions_pkey" PRIMARY KEY ("version_key","id")
);

-- CreateTable
CREATE TABLE "framework_obligations" (
    "version_key" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "clause_ref" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "applicable_from" TIMESTAMP(3) NOT NULL,
    "ord" INTEGER NOT NULL,

    CONSTRAINT "framework_obligations_pkey" PRIMARY KEY ("version_key","id")
);

-- CreateTable
CREATE TABLE "framework_activations" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "framework_id" TEXT NOT NULL,
    "version_key" TEXT NOT NULL,
    "activated_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "framework_activations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "obligations" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "framework_id" TEXT NOT NULL,
    "version_key" TEXT NOT NULL,
    "source_ref" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "clause_ref" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "due_date" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "obligations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assessments" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "system_id" TEXT NOT NULL,
    "jurisdiction" TEXT NOT NULL,
    "title" TEXT,
    "status" TEXT NOT NULL,
    "completion" DOUBLE PRECISION NOT NULL,
    "stages" JSONB NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "assessments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evidence" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "description" TEXT,
    "uri" TEXT,
    "sha256" TEXT,
    "media_type" TEXT,
    "size_bytes" INTEGER,
    "system_id" TEXT,
    "control_ids" TEXT[],
    "collected_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "evidence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attestations" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "subject_type" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "statement" TEXT NOT NULL,
    "attester_name" TEXT NOT NULL,
    "attester_email" TEXT NOT NULL,
    "attester_title" TEXT,
    "attested_at" TIMESTAMP(3) NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attestations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "resource_type" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "correlation_id" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_chain_heads" (
    "tenant_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_chain_heads_pkey" PRIMARY KEY ("tenant_id")
);

-- CreateTable
CREATE TABLE "signing_keys" (
    "id" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,
    "public_key" TEXT NOT NULL,
    "private_key" TEXT,
    "source" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMP(3),

    CONSTRAINT "signing_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "tenant_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "status_code" INTEGER,
    "response_body" JSONB,
    "response_headers" JSONB,
    "locked_until" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("tenant_id","key")
);

-- CreateIndex
CREATE INDEX "api_keys_tenant_id_created_at_idx" ON "api_keys"("tenant_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "operator_credentials_hash_key" ON "operator_credentials"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "framework_versions_framework_id_version_key" ON "framework_versions"("framework_id", "version");

-- CreateIndex
CREATE INDEX "framework_controls_id_idx" ON "framework_controls"("id");

-- CreateIndex
CREATE UNIQUE INDEX "framework_activations_tenant_id_framework_id_key" ON "framework_activations"("tenant_id", "framework_id");

-- CreateIndex
CREATE INDEX "obligations_tenant_id_id_idx" ON "obligations"("tenant_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "obligations_tenant_id_version_key_source_ref_key" ON "obligations"("tenant_id", "version_key", "source_ref");

-- CreateIndex
CREATE INDEX "assessments_tenant_id_id_idx" ON "assessments"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "evidence_tenant_id_id_idx" ON "evidence"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "attestations_tenant_id_id_idx" ON "attestations"("tenant_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_tenant_id_seq_key" ON "audit_events"("tenant_id", "seq");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_action_idx" ON "audit_events"("tenant_id", "action");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_resource_id_idx" ON "audit_events"("tenant_id", "resource_id");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_created_at_idx" ON "audit_events"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

-- The audit trail is append-only: the database itself refuses to change or remove an event.
CREATE FUNCTION "svc_reject_mutation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'table % is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "svc_reject_mutation"();

CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "svc_reject_mutation"();
