-- CreateTable
CREATE TABLE "event_index" (
    "id" TEXT NOT NULL,
    "time" TIMESTAMP(3) NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "entity" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "correlation_id" TEXT NOT NULL,
    "latency_ms" INTEGER,
    "attributes" JSONB NOT NULL,
    "over_budget" BOOLEAN NOT NULL DEFAULT false,
    "audit_event_id" TEXT,

    CONSTRAINT "event_index_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_routes" (
    "id" TEXT NOT NULL,
    "pattern" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_routes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "latency_budgets" (
    "pattern" TEXT NOT NULL,
    "budget_ms" INTEGER NOT NULL,

    CONSTRAINT "latency_budgets_pkey" PRIMARY KEY ("pattern")
);

-- CreateTable
CREATE TABLE "agent_dispatches" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_dispatches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "declared_states" (
    "tenant_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "state" JSONB NOT NULL,
    "updated_by" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "declared_states_pkey" PRIMARY KEY ("tenant_id")
);

-- CreateTable
CREATE TABLE "drift_findings" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "check" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "detail" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "first_seen_at" TIMESTAMP(3) NOT NULL,
    "last_seen_at" TIMESTAMP(3) NOT NULL,
    "resolved_at" TIMESTAMP(3),
    "audit_seq" INTEGER NOT NULL,

    CONSTRAINT "drift_findings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reconciliation_runs" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3) NOT NULL,
    "opened" INTEGER NOT NULL,
    "resolved" INTEGER NOT NULL,
    "open" INTEGER NOT NULL,

    CONSTRAINT "reconciliation_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_verifications" (
    "tenant_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "verified_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "audit_verifications_pkey" PRIMARY KEY ("tenant_id")
);

-- CreateIndex
CREATE INDEX "event_index_tenant_id_time_idx" ON "event_index"("tenant_id", "time");
CREATE INDEX "event_index_tenant_id_kind_time_idx" ON "event_index"("tenant_id", "kind", "time");
CREATE INDEX "event_index_tenant_id_source_time_idx" ON "event_index"("tenant_id", "source", "time");
CREATE INDEX "event_index_tenant_id_severity_time_idx" ON "event_index"("tenant_id", "severity", "time");
CREATE INDEX "event_index_tenant_id_phase_time_idx" ON "event_index"("tenant_id", "phase", "time");
CREATE INDEX "event_index_tenant_id_actor_time_idx" ON "event_index"("tenant_id", "actor", "time");
CREATE INDEX "event_index_tenant_id_action_time_idx" ON "event_index"("tenant_id", "action", "time");
CREATE INDEX "event_index_tenant_id_entity_time_idx" ON "event_index"("tenant_id", "entity", "time");
CREATE INDEX "event_index_tenant_id_correlation_id_time_idx" ON "event_index"("tenant_id", "correlation_id", "time");
CREATE UNIQUE INDEX "event_routes_pattern_agent_key" ON "event_routes"("pattern", "agent");
CREATE INDEX "agent_dispatches_tenant_id_agent_status_idx" ON "agent_dispatches"("tenant_id", "agent", "status");
CREATE INDEX "drift_findings_tenant_id_status_check_idx" ON "drift_findings"("tenant_id", "status", "check");
CREATE INDEX "drift_findings_tenant_id_id_idx" ON "drift_findings"("tenant_id", "id");
CREATE INDEX "reconciliation_runs_tenant_id_started_at_idx" ON "reconciliation_runs"("tenant_id", "started_at");

-- One open finding per check and subject: concurrent runs cannot open it twice.
CREATE UNIQUE INDEX "drift_findings_open_key" ON "drift_findings"("tenant_id", "check", "type", "subject") WHERE "status" = 'open';

-- The event index is append-only, like the audit trail.
CREATE TRIGGER "event_index_append_only" BEFORE UPDATE OR DELETE ON "event_index"
  FOR EACH ROW EXECUTE FUNCTION "svc_reject_mutation"();
CREATE TRIGGER "event_index_no_truncate" BEFORE TRUNCATE ON "event_index"
  FOR EACH STATEMENT EXECUTE FUNCTION "svc_reject_mutation"();

-- Routing rules and latency budgets ship as data; operators may change them.
INSERT INTO "event_routes" ("id", "pattern", "agent") VALUES
  ('rte_evidence', 'evidence.*', 'evidence-compiler'),
  ('rte_incident', 'incident.*', 'incident-reporter'),
  ('rte_dsar', 'dsar.*', 'dsar-handler'),
  ('rte_fria', 'fria.*', 'fria'),
  ('rte_drift', 'drift.*', 'analytics-insight'),
  ('rte_vendor', 'vendor.*', 'vendor-prefill-bot'),
  ('rte_policy', 'policy.*', 'policy-steward'),
  ('rte_risk', 'risk.*', 'risk-officer');

INSERT INTO "latency_budgets" ("pattern", "budget_ms") VALUES
  ('*', 5000),
  ('api.request', 1000),
  ('assessment.*', 2000),
  ('evidence.*', 2000),
  ('framework.*', 5000),
  ('webhook.delivery', 30000),
  ('incident.*', 1000),
  ('agent.*', 10000);
