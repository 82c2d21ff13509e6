-- The context rail: uploaded documents, their texts, and the stored mappings of their passages to controls.
CREATE TABLE "context_documents" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "media_type" TEXT NOT NULL,
    "source" TEXT,
    "metadata" JSONB NOT NULL,
    "sha256" TEXT NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "characters" INTEGER NOT NULL,
    "preview" TEXT NOT NULL,
    "document_type" TEXT,
    "frameworks" TEXT[],
    "classification" JSONB,
    "classified_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "context_documents_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "context_documents_tenant_id_id_idx" ON "context_documents"("tenant_id", "id");
CREATE INDEX "context_documents_tenant_id_sha256_idx" ON "context_documents"("tenant_id", "sha256");

CREATE TABLE "context_document_texts" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "context_document_texts_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "context_document_texts_tenant_id_id_idx" ON "context_document_texts"("tenant_id", "id");

CREATE TABLE "context_mappings" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "document_id" TEXT NOT NULL,
    "framework_id" TEXT NOT NULL,
    "version_key" TEXT NOT NULL,
    "control_ids" TEXT[],
    "mappings" JSONB NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "context_mappings_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "context_mappings_tenant_id_document_id_framework_id_key" ON "context_mappings"("tenant_id", "document_id", "framework_id");
CREATE INDEX "context_mappings_tenant_id_id_idx" ON "context_mappings"("tenant_id", "id");
CREATE INDEX "context_mappings_tenant_id_framework_id_idx" ON "context_mappings"("tenant_id", "framework_id");
