-- The whistleblower rail: reports (identity sealed, access code hashed), threads, investigations, protections, intake.
CREATE TABLE "whistleblower_reports" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "severity" TEXT,
    "in_scope" BOOLEAN,
    "scope_note" TEXT,
    "assignee" TEXT,
    "identity_sealed" TEXT,
    "access_code_hash" TEXT,
    "received_at" TIMESTAMP(3) NOT NULL,
    "acknowledged_at" TIMESTAMP(3),
    "feedback_at" TIMESTAMP(3),
    "triaged_at" TIMESTAMP(3),
    "closed_at" TIMESTAMP(3),
    "outcome" TEXT,
    "outcome_summary" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "whistleblower_reports_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "whistleblower_reports_access_code_hash_key" ON "whistleblower_reports"("access_code_hash");
CREATE INDEX "whistleblower_reports_tenant_id_id_idx" ON "whistleblower_reports"("tenant_id", "id");

CREATE TABLE "whistleblower_messages" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "report_id" TEXT NOT NULL,
    "from" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "whistleblower_messages_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "whistleblower_messages_tenant_id_id_idx" ON "whistleblower_messages"("tenant_id", "id");
CREATE INDEX "whistleblower_messages_tenant_id_report_id_idx" ON "whistleblower_messages"("tenant_id", "report_id");

CREATE TABLE "whistleblower_investigations" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "report_id" TEXT NOT NULL,
    "investigator" TEXT NOT NULL,
    "scope" TEXT,
    "status" TEXT NOT NULL,
    "findings" TEXT,
    "outcome" TEXT,
    "started_at" TIMESTAMP(3),
    "concluded_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "whistleblower_investigations_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "whistleblower_investigations_tenant_id_id_idx" ON "whistleblower_investigations"("tenant_id", "id");
CREATE INDEX "whistleblower_investigations_tenant_id_report_id_idx" ON "whistleblower_investigations"("tenant_id", "report_id");

CREATE TABLE "whistleblower_protections" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "report_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "measure" TEXT NOT NULL,
    "protected_party" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "review_at" TIMESTAMP(3) NOT NULL,
    "last_reviewed_at" TIMESTAMP(3),
    "lifted_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "whistleblower_protections_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "whistleblower_protections_tenant_id_id_idx" ON "whistleblower_protections"("tenant_id", "id");
CREATE INDEX "whistleblower_protections_tenant_id_report_id_idx" ON "whistleblower_protections"("tenant_id", "report_id");

CREATE TABLE "whistleblower_intakes" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "whistleblower_intakes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "whistleblower_intakes_tenant_id_key" ON "whistleblower_intakes"("tenant_id");
CREATE UNIQUE INDEX "whistleblower_intakes_slug_key" ON "whistleblower_intakes"("slug");
CREATE INDEX "whistleblower_intakes_tenant_id_id_idx" ON "whistleblower_intakes"("tenant_id", "id");
