-- Protocol v1.3 §12: a refused publication request stays in the account's request history (and later
-- requests are compared with its file), and approved accounts of one person or lab share one entries budget.
CREATE TYPE "RefusalReason" AS ENUM ('TOO_CLOSE', 'ENTRIES_CAP');

CREATE TABLE "PublicationRefusal" (
    "id" TEXT NOT NULL,
    "submissionId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "reason" "RefusalReason" NOT NULL,
    "tooCloseToId" TEXT,
    "rule" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PublicationRefusal_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "PublicationRefusal_submissionId_idx" ON "PublicationRefusal"("submissionId");
CREATE INDEX "PublicationRefusal_userId_createdAt_idx" ON "PublicationRefusal"("userId", "createdAt");

ALTER TABLE "PublicationRefusal" ADD CONSTRAINT "PublicationRefusal_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "PublicationRefusal" ADD CONSTRAINT "PublicationRefusal_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "BudgetGroup" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BudgetGroup_pkey" PRIMARY KEY ("id")
);

ALTER TABLE "User" ADD COLUMN "budgetGroupId" TEXT;
CREATE INDEX "User_budgetGroupId_idx" ON "User"("budgetGroupId");
ALTER TABLE "User" ADD CONSTRAINT "User_budgetGroupId_fkey" FOREIGN KEY ("budgetGroupId") REFERENCES "BudgetGroup"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Refusals made before this table were kept only in the audit log: they join the history.
INSERT INTO "PublicationRefusal" ("id", "submissionId", "userId", "reason", "tooCloseToId", "rule", "createdAt")
SELECT 'pr' || md5(a."id"), a."targetId", s."userId",
       CASE WHEN a."details"->>'refusal' = 'entries-cap' THEN 'ENTRIES_CAP'::"RefusalReason" ELSE 'TOO_CLOSE'::"RefusalReason" END,
       a."details"->>'tooCloseTo', a."details"->>'rule', a."createdAt"
FROM "AuditLog" AS a
JOIN "Submission" AS s ON s."id" = a."targetId"
WHERE a."action" = 'submission.publication-refused' AND a."targetType" = 'Submission';
