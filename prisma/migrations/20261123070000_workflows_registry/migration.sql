-- CreateTable
CREATE TABLE "workflow_snapshots" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "catalogue_version" TEXT NOT NULL,
    "workflow_count" INTEGER NOT NULL,
    "workflows" JSONB NOT NULL,
    "changes" JSONB NOT NULL,
    "note" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workflow_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "workflow_snapshots_tenant_id_version_key" ON "workflow_snapshots"("tenant_id", "version");
CREATE INDEX "workflow_snapshots_tenant_id_id_idx" ON "workflow_snapshots"("tenant_id", "id");
