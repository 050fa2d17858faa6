-- Protocol v1.2 section 12: the test split's feedback and ranking slices.
-- Scores stored before this migration have no slice reports. They carry scorer
-- version 1.1.0 and are stale until re-scored (platform scoring 1.2.0).
ALTER TABLE "DatasetRelease" ADD COLUMN "feedbackFraction" DOUBLE PRECISION NOT NULL DEFAULT 0.25;
ALTER TABLE "DatasetRelease" ADD COLUMN "maxEntriesPerAccount" INTEGER NOT NULL DEFAULT 3;
ALTER TABLE "Score" ADD COLUMN "feedbackReport" JSONB;
ALTER TABLE "Score" ADD COLUMN "rankingReport" JSONB;
ALTER TABLE "Score" ADD COLUMN "feedbackPrimary" DOUBLE PRECISION;
ALTER TABLE "Score" ADD COLUMN "rankingPrimary" DOUBLE PRECISION;
ALTER TABLE "Score" ADD COLUMN "rankingUnified" DOUBLE PRECISION;
