-- Issue 16 (fact sheet and provenance tiers): the free-text publication metadata becomes one
-- validated, versioned fact sheet (lib/core/fact-sheet/schema.ts), and entries can be marked reproduced.

ALTER TABLE "Submission"
  ADD COLUMN "factSheet" JSONB,
  ADD COLUMN "reproducedAt" TIMESTAMP(3),
  ADD COLUMN "reproducedById" TEXT,
  ADD COLUMN "reproductionId" TEXT;

-- Every participant's entry that was ever described keeps what it said, as a version 1 sheet;
-- what the old form never asked is null ("not stated"), so these sheets are incomplete until edited.
UPDATE "Submission" s
   SET "factSheet" = jsonb_build_object(
         'version', 1,
         'systemName', s."systemName",
         'team', u."displayName",
         'approach', NULL,
         'baseModel', NULL,
         'knowledgeCutoff', NULL,
         'parameters', s."parameterCount",
         'openWeights', s."isOpenWeights",
         'dataUsed', jsonb_build_object('train', NULL, 'dev', NULL, 'sourceCollections', NULL, 'wikiBeyondKb', NULL,
                                        'details', coalesce(s."externalData", '')),
         'configuration', jsonb_build_object('text', '', 'url', NULL),
         'compute', '',
         'codeUrl', s."codeUrl",
         'paperUrl', s."paperUrl",
         'protocol', jsonb_build_object('noTestTuning', NULL, 'runs', NULL, 'bestOfN', NULL, 'seeds', ''))
  FROM "User" u
 WHERE u."id" = s."userId" AND NOT s."isBaseline" AND s."systemName" IS NOT NULL;

ALTER TABLE "Submission"
  DROP COLUMN "paperUrl",
  DROP COLUMN "codeUrl",
  DROP COLUMN "parameterCount",
  DROP COLUMN "isOpenWeights",
  DROP COLUMN "externalData";

ALTER TABLE "Submission" ADD CONSTRAINT "Submission_reproducedById_fkey"
  FOREIGN KEY ("reproducedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
