-- Issue 16 (history): superseded releases, paper dates of reported results, and re-scoring events.
-- AlterTable
ALTER TABLE "DatasetRelease" ADD COLUMN     "supersededAt" TIMESTAMP(3),
ADD COLUMN     "supersededById" TEXT;

-- AlterTable
ALTER TABLE "ReportedResult" ADD COLUMN     "publishedOn" DATE;

-- CreateTable
CREATE TABLE "RescoreEvent" (
    "id" TEXT NOT NULL,
    "releaseId" TEXT NOT NULL,
    "submissionId" TEXT NOT NULL,
    "split" "Split" NOT NULL,
    "track" "Track" NOT NULL,
    "beforeScorerVersion" TEXT NOT NULL,
    "afterScorerVersion" TEXT NOT NULL,
    "beforeGoldSha256" TEXT NOT NULL,
    "afterGoldSha256" TEXT NOT NULL,
    "beforeMetrics" JSONB NOT NULL,
    "afterMetrics" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RescoreEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RescoreEvent_releaseId_createdAt_idx" ON "RescoreEvent"("releaseId", "createdAt");

-- CreateIndex
CREATE INDEX "RescoreEvent_submissionId_idx" ON "RescoreEvent"("submissionId");

-- AddForeignKey
ALTER TABLE "DatasetRelease" ADD CONSTRAINT "DatasetRelease_supersededById_fkey" FOREIGN KEY ("supersededById") REFERENCES "DatasetRelease"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RescoreEvent" ADD CONSTRAINT "RescoreEvent_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "DatasetRelease"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RescoreEvent" ADD CONSTRAINT "RescoreEvent_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;
