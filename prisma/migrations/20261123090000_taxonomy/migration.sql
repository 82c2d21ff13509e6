-- The taxonomy rail: the tenant's pin of the content bundle (hash, versions it names, pinnedAt,
-- pinnedBy) and the history of its pins; the highest seq is the current pin.
CREATE TABLE "taxonomy_pins" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "versions" JSONB NOT NULL,
    "components" JSONB NOT NULL,
    "previous_hash" TEXT,
    "pinned_by" TEXT NOT NULL,
    "reason" TEXT,
    "pinned_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "taxonomy_pins_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "taxonomy_pins_tenant_id_seq_key" ON "taxonomy_pins"("tenant_id", "seq");
CREATE INDEX "taxonomy_pins_tenant_id_id_idx" ON "taxonomy_pins"("tenant_id", "id");
