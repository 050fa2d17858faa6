-- A submission may be charged more than once: a maintainer's retry of a refunded submission charges
-- it again (lib/domain/scoring/retry-submission.ts). Each charge has its round (0: the upload's, then
-- 1, 2, ...) and at most one refund of the same round, however often a failure is recorded.
ALTER TABLE "QuotaLedgerEntry" ADD COLUMN "round" INTEGER NOT NULL DEFAULT 0;

DROP INDEX "QuotaLedgerEntry_submissionId_kind_key";
CREATE UNIQUE INDEX "QuotaLedgerEntry_submissionId_kind_round_key" ON "QuotaLedgerEntry"("submissionId", "kind", "round");
