-- Participant controls over their entries (issue 15): a primary entry per track, and hiding by the owner.
-- "At most one primary per owner, release and track" is kept by lib/domain/publication/set-primary-entry.ts under a row lock
-- (a partial unique index would be drift to Prisma, which has no partial indexes).
ALTER TABLE "Submission" ADD COLUMN "isPrimary" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "hiddenByOwner" BOOLEAN NOT NULL DEFAULT false;
