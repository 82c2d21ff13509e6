-- The metadata rail: labels (`key=value`) a tenant attaches to its own records of any kind.
CREATE TABLE "metadata_labels" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "resource_type" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "metadata_labels_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "metadata_labels_tenant_resource_key_value_key" ON "metadata_labels"("tenant_id", "resource_type", "resource_id", "key", "value");
CREATE INDEX "metadata_labels_tenant_id_id_idx" ON "metadata_labels"("tenant_id", "id");
CREATE INDEX "metadata_labels_tenant_id_key_value_idx" ON "metadata_labels"("tenant_id", "key", "value");
