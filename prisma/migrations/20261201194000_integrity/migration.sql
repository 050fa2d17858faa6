-- AlterTable
ALTER TABLE "DatasetRelease" ADD COLUMN     "minGroupN" INTEGER NOT NULL DEFAULT 30;

-- AlterTable
ALTER TABLE "Score" ADD COLUMN     "probeFlags" JSONB;

-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "answerDigests" BYTEA;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "approvedAt" TIMESTAMP(3);
