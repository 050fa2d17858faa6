-- AlterTable
ALTER TABLE "Comparison" DROP CONSTRAINT "Comparison_pkey",
ADD COLUMN     "family" TEXT NOT NULL DEFAULT 'track',
ADD COLUMN     "identicalTo" TEXT,
ADD CONSTRAINT "Comparison_pkey" PRIMARY KEY ("entryId", "baselineId", "family");
