-- The trust rail: certifications, sub-processors, the trust page and the NDA vault.
CREATE TABLE "trust_certifications" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "scope" TEXT,
    "valid_from" TIMESTAMP(3) NOT NULL,
    "valid_until" TIMESTAMP(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trust_certifications_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "trust_certifications_tenant_id_id_idx" ON "trust_certifications"("tenant_id", "id");

CREATE TABLE "trust_sub_processors" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trust_sub_processors_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "trust_sub_processors_tenant_id_id_idx" ON "trust_sub_processors"("tenant_id", "id");

CREATE TABLE "trust_pages" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "published" BOOLEAN NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trust_pages_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "trust_pages_tenant_id_key" ON "trust_pages"("tenant_id");
CREATE UNIQUE INDEX "trust_pages_slug_key" ON "trust_pages"("slug");
CREATE INDEX "trust_pages_tenant_id_id_idx" ON "trust_pages"("tenant_id", "id");

CREATE TABLE "trust_nda_documents" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "content_uri" TEXT NOT NULL,
    "sha256" TEXT,
    "media_type" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trust_nda_documents_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "trust_nda_documents_tenant_id_id_idx" ON "trust_nda_documents"("tenant_id", "id");

CREATE TABLE "trust_nda_requests" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "requester_email" TEXT NOT NULL,
    "requester_name" TEXT NOT NULL,
    "company" TEXT,
    "status" TEXT NOT NULL,
    "access_token_hash" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trust_nda_requests_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "trust_nda_requests_tenant_id_id_idx" ON "trust_nda_requests"("tenant_id", "id");
