-- The crosswalk graph: edges between requirements of different dictionaries, loaded from
-- content/crosswalks at start and replaced as a whole when the files' hash changes.
CREATE TABLE "crosswalk_edges" (
    "crosswalk_id" TEXT NOT NULL,
    "ord" INTEGER NOT NULL,
    "origin" TEXT NOT NULL,
    "from_dict" TEXT NOT NULL,
    "from_kind" TEXT NOT NULL,
    "from_ref" TEXT NOT NULL,
    "to_dict" TEXT NOT NULL,
    "to_kind" TEXT NOT NULL,
    "to_ref" TEXT NOT NULL,
    "relationship" TEXT NOT NULL,
    "rationale" TEXT NOT NULL,
    "strength" INTEGER NOT NULL,
    "note" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,

    CONSTRAINT "crosswalk_edges_pkey" PRIMARY KEY ("crosswalk_id","ord")
);

CREATE UNIQUE INDEX "crosswalk_edges_seq_key" ON "crosswalk_edges"("seq");
CREATE INDEX "crosswalk_edges_from_dict_from_ref_idx" ON "crosswalk_edges"("from_dict", "from_ref");
CREATE INDEX "crosswalk_edges_to_dict_to_ref_idx" ON "crosswalk_edges"("to_dict", "to_ref");
