-- The public log (docs/public-log.md): a hash-chained record of every change to what readers see,
-- appended in the transaction of the change under an advisory lock (seq and prev never fork).
CREATE TABLE "PublicLogRecord" (
    "seq" INTEGER NOT NULL,
    "at" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "release" TEXT NOT NULL,
    "releaseId" TEXT NOT NULL,
    "entry" TEXT,
    "summary" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "prev" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "PublicLogRecord_pkey" PRIMARY KEY ("seq")
);

CREATE UNIQUE INDEX "PublicLogRecord_hash_key" ON "PublicLogRecord"("hash");
CREATE INDEX "PublicLogRecord_release_seq_idx" ON "PublicLogRecord"("release", "seq");
CREATE INDEX "PublicLogRecord_entry_seq_idx" ON "PublicLogRecord"("entry", "seq");

-- What the public views of a release last showed: the re-score errata are the differences from it.
CREATE TABLE "PublicLogViewState" (
    "releaseId" TEXT NOT NULL,
    "state" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PublicLogViewState_pkey" PRIMARY KEY ("releaseId")
);
