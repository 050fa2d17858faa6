-- Protocol §12 (differencing): answer digests are now made only of what could score on the
-- test split (lib/core/integrity/answer-digests.ts, ANSWER_KEY_VERSION 2). Digests of another
-- version are never compared: the rows stored before this column (NULL) are recomputed from
-- their stored file the first time they are compared.
ALTER TABLE "Submission" ADD COLUMN "answerDigestsVersion" INTEGER;
