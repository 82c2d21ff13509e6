-- The stakeholders rail's RACI assignments, and the governance rail: decision rights, approvals,
-- board meetings and their decisions, delegations, conflicts of interest and snapshots.
CREATE TABLE "stakeholder_assignments" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "role_id" TEXT NOT NULL,
    "raci" TEXT NOT NULL,
    "system_id" TEXT,
    "control" TEXT,
    "status" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stakeholder_assignments_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "stakeholder_assignments_tenant_id_id_idx" ON "stakeholder_assignments"("tenant_id", "id");
CREATE INDEX "stakeholder_assignments_tenant_id_system_id_idx" ON "stakeholder_assignments"("tenant_id", "system_id");
-- At most one active accountable per (system, control) of a tenant; null stands for "every".
CREATE UNIQUE INDEX "stakeholder_assignments_one_accountable" ON "stakeholder_assignments"("tenant_id", (COALESCE("system_id", '')), (COALESCE("control", '')))
    WHERE "raci" = 'accountable' AND "status" = 'active';

CREATE TABLE "governance_decision_rights" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "decision_type" TEXT NOT NULL,
    "description" TEXT,
    "role_id" TEXT,
    "person_id" TEXT,
    "max_amount_eur" DOUBLE PRECISION,
    "status" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "governance_decision_rights_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "governance_decision_rights_tenant_id_id_idx" ON "governance_decision_rights"("tenant_id", "id");

CREATE TABLE "governance_approvals" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "chain_id" TEXT NOT NULL,
    "approver_ids" TEXT[],
    "current_step" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "steps" JSONB NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "governance_approvals_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "governance_approvals_tenant_id_id_idx" ON "governance_approvals"("tenant_id", "id");

CREATE TABLE "governance_board_meetings" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "scheduled_for" TIMESTAMP(3) NOT NULL,
    "attendee_ids" TEXT[],
    "status" TEXT NOT NULL,
    "minutes" TEXT,
    "minutes_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "governance_board_meetings_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "governance_board_meetings_tenant_id_id_idx" ON "governance_board_meetings"("tenant_id", "id");

CREATE TABLE "governance_board_decisions" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "meeting_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "decision_type" TEXT,
    "outcome" TEXT NOT NULL,
    "votes_for" INTEGER,
    "votes_against" INTEGER,
    "abstentions" INTEGER,
    "notes" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "governance_board_decisions_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "governance_board_decisions_tenant_id_id_idx" ON "governance_board_decisions"("tenant_id", "id");
CREATE INDEX "governance_board_decisions_tenant_id_meeting_id_idx" ON "governance_board_decisions"("tenant_id", "meeting_id");

CREATE TABLE "governance_delegations" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "from_person_id" TEXT NOT NULL,
    "to_person_id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "valid_from" TIMESTAMP(3) NOT NULL,
    "valid_until" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "governance_delegations_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "governance_delegations_tenant_id_id_idx" ON "governance_delegations"("tenant_id", "id");

CREATE TABLE "governance_conflicts" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "description" TEXT,
    "status" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "governance_conflicts_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "governance_conflicts_tenant_id_id_idx" ON "governance_conflicts"("tenant_id", "id");

CREATE TABLE "governance_snapshots" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "previous_hash" TEXT,
    "state" JSONB NOT NULL,
    "note" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "governance_snapshots_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "governance_snapshots_tenant_id_version_key" ON "governance_snapshots"("tenant_id", "version");
CREATE INDEX "governance_snapshots_tenant_id_id_idx" ON "governance_snapshots"("tenant_id", "id");
