-- The red_team rail: targets, runs and their results.
CREATE TABLE "red_team_targets" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "header_names" TEXT[],
    "headers_sealed" TEXT,
    "body_template" JSONB NOT NULL,
    "answer_path" TEXT NOT NULL,
    "timeout_ms" INTEGER NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "red_team_targets_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "red_team_targets_tenant_id_id_idx" ON "red_team_targets"("tenant_id", "id");

CREATE TABLE "red_team_runs" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "categories" TEXT[],
    "status" TEXT NOT NULL,
    "corpus_version" TEXT,
    "canary" TEXT,
    "probes" INTEGER NOT NULL,
    "passed" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,
    "errored" INTEGER NOT NULL,
    "score" DOUBLE PRECISION,
    "regression" JSONB,
    "error" TEXT,
    "started_at" TIMESTAMP(3),
    "completed_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "red_team_runs_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "red_team_runs_tenant_id_id_idx" ON "red_team_runs"("tenant_id", "id");
CREATE INDEX "red_team_runs_tenant_id_target_id_idx" ON "red_team_runs"("tenant_id", "target_id");

CREATE TABLE "red_team_results" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "probe_id" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "response_excerpt" TEXT,
    "http_status" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "red_team_results_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "red_team_results_tenant_id_id_idx" ON "red_team_results"("tenant_id", "id");
CREATE INDEX "red_team_results_tenant_id_run_id_idx" ON "red_team_results"("tenant_id", "run_id");
