-- Issue 14: the participant's workbench. A note per submission (My runs) and
-- the stored error classes and parsed answers of scored submissions.
ALTER TABLE "Submission" ADD COLUMN "note" TEXT NOT NULL DEFAULT '';

CREATE TABLE "SampleAnalysis" (
    "submissionId" TEXT NOT NULL,
    "scorerVersion" TEXT NOT NULL,
    "classes" BYTEA,
    "answerTypes" BYTEA,
    "answers" BYTEA,
    "summary" JSONB NOT NULL,
    "computedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SampleAnalysis_pkey" PRIMARY KEY ("submissionId")
);

ALTER TABLE "SampleAnalysis" ADD CONSTRAINT "SampleAnalysis_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;
