-- Prediction files in PostgreSQL (content-addressed, chunked bytea) and the uploader's Idempotency-Key.
-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "idempotencyKey" TEXT;

-- CreateTable
CREATE TABLE "StoredFile" (
    "sha256" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "chunkCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StoredFile_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "StoredFileChunk" (
    "sha256" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "StoredFileChunk_pkey" PRIMARY KEY ("sha256","index")
);

-- CreateIndex
CREATE UNIQUE INDEX "Submission_userId_idempotencyKey_key" ON "Submission"("userId", "idempotencyKey");

-- AddForeignKey
ALTER TABLE "StoredFileChunk" ADD CONSTRAINT "StoredFileChunk_sha256_fkey" FOREIGN KEY ("sha256") REFERENCES "StoredFile"("sha256") ON DELETE CASCADE ON UPDATE CASCADE;

