-- Assessments become work: the question set drawn at creation, the pinned dictionary version,
-- revisions, review and approval; per-question state and every version of every answer.
ALTER TABLE "assessments"
  ADD COLUMN "questions" JSONB NOT NULL DEFAULT '[]',
  ADD COLUMN "framework" TEXT,
  ADD COLUMN "dictionary_version" TEXT,
  ADD COLUMN "recipe_version" TEXT,
  ADD COLUMN "revision" INTEGER NOT NULL DEFAULT 1,
  ADD COLUMN "previous_id" TEXT,
  ADD COLUMN "submitted_at" TIMESTAMP(3),
  ADD COLUMN "submitted_by" TEXT,
  ADD COLUMN "approved_at" TIMESTAMP(3),
  ADD COLUMN "approved_by" TEXT,
  ADD COLUMN "answers_hash" TEXT;

-- `completed` was a status set without any answer; such an assessment is in progress again.
UPDATE "assessments" SET "status" = 'in_progress' WHERE "status" = 'completed';

CREATE TABLE "assessment_items" (
  "tenant_id" TEXT NOT NULL,
  "assessment_id" TEXT NOT NULL,
  "question_key" TEXT NOT NULL,
  "value" JSONB,
  "notes" TEXT,
  "evidence_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
  "version" INTEGER NOT NULL DEFAULT 0,
  "answered_by" TEXT,
  "answered_at" TIMESTAMP(3),
  "assignee_id" TEXT,
  "due_date" TIMESTAMP(3),
  "assigned_by" TEXT,
  "assigned_at" TIMESTAMP(3),
  "review_comment" TEXT,
  "review_by" TEXT,
  "review_at" TIMESTAMP(3),
  "finding_id" TEXT,
  "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "assessment_items_pkey" PRIMARY KEY ("tenant_id", "assessment_id", "question_key")
);
CREATE INDEX "assessment_items_tenant_id_assignee_id_idx" ON "assessment_items"("tenant_id", "assignee_id");

CREATE TABLE "assessment_answer_versions" (
  "tenant_id" TEXT NOT NULL,
  "assessment_id" TEXT NOT NULL,
  "question_key" TEXT NOT NULL,
  "version" INTEGER NOT NULL,
  "action" TEXT NOT NULL,
  "value" JSONB,
  "notes" TEXT,
  "evidence_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
  "actor" TEXT NOT NULL,
  "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "assessment_answer_versions_pkey" PRIMARY KEY ("tenant_id", "assessment_id", "question_key", "version")
);
