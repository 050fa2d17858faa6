-- The quota ledger (QuotaLedgerEntry) is the one record of what a submission cost: a charge, a
-- refund with its reason. The flag it was derived from at upload time contradicted it after a
-- refund ("counts toward your test quota"), so it goes.
ALTER TABLE "Submission" DROP COLUMN "countsToQuota";
