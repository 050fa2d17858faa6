-- Protocol v1.3 section 12: slices are keyed by the gold entity and the slice family
-- (the release name unless dataset.json sets slice_family). Scores stored before this
-- migration carry platform scoring 1.2.0 and stay stale until re-scored (1.3.0).
-- (No semicolon in these comments: the migration engine splits the file on them.)
ALTER TABLE "DatasetRelease" ADD COLUMN "sliceFamily" TEXT;
UPDATE "DatasetRelease" SET "sliceFamily" = "name";
ALTER TABLE "DatasetRelease" ALTER COLUMN "sliceFamily" SET NOT NULL;
