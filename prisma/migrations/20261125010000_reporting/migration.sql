-- The reporting rail: reports (PDF bytes and their SHA-256), report schedules and signed packs.
CREATE TABLE "reports" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "system_id" TEXT,
    "inputs" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "title" TEXT,
    "audience" TEXT,
    "as_of" TIMESTAMP(3),
    "reviewers" TEXT[],
    "error" TEXT,
    "pdf" BYTEA,
    "sha256" TEXT,
    "size_bytes" INTEGER,
    "pages" INTEGER,
    "schedule_id" TEXT,
    "due_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "rendered_at" TIMESTAMP(3),

    CONSTRAINT "reports_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "reports_schedule_id_due_at_key" ON "reports"("schedule_id", "due_at");
CREATE INDEX "reports_tenant_id_id_idx" ON "reports"("tenant_id", "id");

CREATE TABLE "report_schedules" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "system_id" TEXT,
    "inputs" JSONB NOT NULL,
    "cron" TEXT NOT NULL,
    "timezone" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "next_run_at" TIMESTAMP(3),
    "last_run_at" TIMESTAMP(3),
    "last_report_id" TEXT,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "report_schedules_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "report_schedules_tenant_id_id_idx" ON "report_schedules"("tenant_id", "id");

CREATE TABLE "report_packs" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "system_id" TEXT,
    "report_id" TEXT,
    "from_seq" INTEGER,
    "to_seq" INTEGER,
    "files" JSONB NOT NULL,
    "key_id" TEXT NOT NULL,
    "zip" BYTEA NOT NULL,
    "sha256" TEXT NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "report_packs_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "report_packs_tenant_id_id_idx" ON "report_packs"("tenant_id", "id");
