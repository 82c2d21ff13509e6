-- An assessment's question set is stored once per distinct set (content-addressed) instead of in
-- every assessment row: a FRIA's set is about 10 kB, a gap analysis of a large framework far more.
CREATE TABLE "assessment_question_sets" (
  "id" TEXT NOT NULL,
  "questions" JSONB NOT NULL,
  "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "assessment_question_sets_pkey" PRIMARY KEY ("id")
);

ALTER TABLE "assessments" ADD COLUMN "question_set" TEXT;

-- The sets already stored in rows move to the shared table, keyed by the SHA-256 of their text.
INSERT INTO "assessment_question_sets" ("id", "questions")
  SELECT DISTINCT encode(sha256(convert_to("questions"::text, 'UTF8')), 'hex'), "questions"
  FROM "assessments" WHERE jsonb_typeof("questions") = 'object'
  ON CONFLICT ("id") DO NOTHING;
UPDATE "assessments" SET "question_set" = encode(sha256(convert_to("questions"::text, 'UTF8')), 'hex')
  WHERE jsonb_typeof("questions") = 'object';

ALTER TABLE "assessments" DROP COLUMN "questions";
