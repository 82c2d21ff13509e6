-- Dictionary versions built from changesets: each later version keeps the changelog it was built
-- from (the amending act and every change with its source), and repealed provisions stay in the
-- versions after their repeal with the day they stopped applying and what replaced them, so the
-- law can be read as of any day.
ALTER TABLE "framework_versions" ADD COLUMN "based_on" TEXT;
ALTER TABLE "framework_versions" ADD COLUMN "changelog" JSONB;

ALTER TABLE "framework_clauses" ADD COLUMN "applicable_from" TIMESTAMP(3);
ALTER TABLE "framework_clauses" ADD COLUMN "applicable_until" TIMESTAMP(3);
ALTER TABLE "framework_clauses" ADD COLUMN "replaced_by" TEXT[] DEFAULT ARRAY[]::TEXT[];

ALTER TABLE "framework_obligations" ADD COLUMN "applicable_until" TIMESTAMP(3);
ALTER TABLE "framework_obligations" ADD COLUMN "replaced_by" TEXT[] DEFAULT ARRAY[]::TEXT[];
