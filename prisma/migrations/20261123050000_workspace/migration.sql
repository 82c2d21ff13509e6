-- The workspace rail: workspaces, the principals given a role in each, and teams of principals.
CREATE TABLE "workspaces" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "status" TEXT NOT NULL,
    "archived_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "workspaces_tenant_id_id_idx" ON "workspaces"("tenant_id", "id");

CREATE TABLE "workspace_principals" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "display_name" TEXT,
    "role" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "revoked_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspace_principals_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "workspace_principals_tenant_id_id_idx" ON "workspace_principals"("tenant_id", "id");
CREATE INDEX "workspace_principals_tenant_id_workspace_id_id_idx" ON "workspace_principals"("tenant_id", "workspace_id", "id");
-- One active grant per subject and workspace; revoked grants stay as history.
CREATE UNIQUE INDEX "workspace_principals_active_subject_key" ON "workspace_principals"("tenant_id", "workspace_id", "kind", "subject")
    WHERE "status" = 'active';

CREATE TABLE "workspace_teams" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "member_ids" TEXT[],
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspace_teams_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "workspace_teams_tenant_id_workspace_id_name_key" ON "workspace_teams"("tenant_id", "workspace_id", "name");
CREATE INDEX "workspace_teams_tenant_id_id_idx" ON "workspace_teams"("tenant_id", "id");
CREATE INDEX "workspace_teams_tenant_id_workspace_id_id_idx" ON "workspace_teams"("tenant_id", "workspace_id", "id");
