-- Protocol §12: the publication guard compares a request with every file of the account that ever had
-- one, withdrawn ones included. A withdrawal used to clear "requestedAt" and now keeps it. Files withdrawn
-- before that (PRIVATE again, "requestedAt" cleared) get back the time of their withdrawal from the audit log.
UPDATE "Submission" AS s
SET "requestedAt" = w."withdrawnAt"
FROM (
  SELECT "targetId", MAX("createdAt") AS "withdrawnAt"
  FROM "AuditLog"
  WHERE "action" = 'submission.withdraw' AND "targetType" = 'Submission'
  GROUP BY "targetId"
) AS w
WHERE s."id" = w."targetId" AND s."requestedAt" IS NULL;
