-- The glossary: terms of every framework dictionary and the edges between them, loaded from
-- content/glossary at start and replaced as a whole when the files' hash changes.
CREATE TABLE "content_bundles" (
    "kind" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "loaded_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "content_bundles_pkey" PRIMARY KEY ("kind")
);

CREATE TABLE "glossary_terms" (
    "id" TEXT NOT NULL,
    "dictionary_id" TEXT NOT NULL,
    "term" TEXT NOT NULL,
    "definition" TEXT NOT NULL,
    "clause_ref" TEXT,
    "clause_title" TEXT,
    "synonyms" TEXT[],
    "search_text" TEXT NOT NULL,
    "ord" INTEGER NOT NULL,

    CONSTRAINT "glossary_terms_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "glossary_terms_ord_key" ON "glossary_terms"("ord");
CREATE INDEX "glossary_terms_dictionary_id_ord_idx" ON "glossary_terms"("dictionary_id", "ord");

CREATE TABLE "glossary_links" (
    "from_term" TEXT NOT NULL,
    "to_term" TEXT NOT NULL,
    "relation" TEXT NOT NULL,
    "origin" TEXT NOT NULL,

    CONSTRAINT "glossary_links_pkey" PRIMARY KEY ("from_term","to_term")
);
