-- The quota ledger: every charge, refund and grant of a participant's test budget, the one source
-- of truth of lib/domain/quotas/quota.ts.
CREATE TYPE "QuotaEntryKind" AS ENUM ('CHARGE', 'REFUND', 'GRANT');

CREATE TABLE "QuotaLedgerEntry" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "releaseId" TEXT NOT NULL,
    "kind" "QuotaEntryKind" NOT NULL,
    "amount" INTEGER NOT NULL,
    "windowAt" TIMESTAMP(3) NOT NULL,
    "submissionId" TEXT,
    "clientAddress" TEXT,
    "reason" TEXT,
    "actorId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "QuotaLedgerEntry_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "QuotaLedgerEntry_submissionId_kind_key" ON "QuotaLedgerEntry"("submissionId", "kind");
CREATE INDEX "QuotaLedgerEntry_userId_releaseId_windowAt_idx" ON "QuotaLedgerEntry"("userId", "releaseId", "windowAt");
CREATE INDEX "QuotaLedgerEntry_clientAddress_releaseId_windowAt_idx" ON "QuotaLedgerEntry"("clientAddress", "releaseId", "windowAt");

ALTER TABLE "QuotaLedgerEntry" ADD CONSTRAINT "QuotaLedgerEntry_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "QuotaLedgerEntry" ADD CONSTRAINT "QuotaLedgerEntry_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "QuotaLedgerEntry" ADD CONSTRAINT "QuotaLedgerEntry_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "DatasetRelease"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "QuotaLedgerEntry" ADD CONSTRAINT "QuotaLedgerEntry_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- What was charged before the ledger: every test submission that counted toward the quota, at its
-- upload time. One the platform failed to score (an internal failure) is refunded, as it would be now.
INSERT INTO "QuotaLedgerEntry" ("id", "userId", "releaseId", "kind", "amount", "windowAt", "submissionId", "clientAddress", "createdAt")
SELECT 'qc' || md5("id"), "userId", "releaseId", 'CHARGE', 1, "createdAt", "id", "clientAddress", "createdAt"
FROM "Submission"
WHERE "split" = 'test' AND "countsToQuota";

INSERT INTO "QuotaLedgerEntry" ("id", "userId", "releaseId", "kind", "amount", "windowAt", "submissionId", "clientAddress", "reason", "createdAt")
SELECT 'qr' || md5("id"), "userId", "releaseId", 'REFUND', -1, "createdAt", "id", "clientAddress",
       'Scoring failed on the platform''s side: ' || COALESCE("failureReason", 'no reason was recorded'), COALESCE("finishedAt", CURRENT_TIMESTAMP)
FROM "Submission"
WHERE "split" = 'test' AND "countsToQuota" AND "status" = 'FAILED' AND "failureKind" = 'INTERNAL';
