-- CreateEnum
CREATE TYPE "EntityType" AS ENUM ('Place', 'Organization', 'Person', 'Event', 'Work', 'Military Unit', 'Other');

-- CreateEnum
CREATE TYPE "Split" AS ENUM ('train', 'dev', 'test');

-- CreateEnum
CREATE TYPE "Track" AS ENUM ('open', 'closed');

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('PARTICIPANT', 'MAINTAINER');

-- CreateEnum
CREATE TYPE "SubmissionStatus" AS ENUM ('QUEUED', 'SCORING', 'SCORED', 'FAILED');

-- CreateEnum
CREATE TYPE "FailureKind" AS ENUM ('INVALID', 'INTERNAL');

-- CreateEnum
CREATE TYPE "PublicationStatus" AS ENUM ('PRIVATE', 'PENDING', 'PUBLISHED', 'REJECTED', 'HIDDEN');

-- CreateTable
CREATE TABLE "DatasetRelease" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT false,
    "files" JSONB NOT NULL,
    "goldSha256" JSONB NOT NULL,
    "stats" JSONB NOT NULL,
    "leakage" JSONB NOT NULL,
    "importedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DatasetRelease_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Entity" (
    "id" SERIAL NOT NULL,
    "releaseId" TEXT NOT NULL,
    "qid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" "EntityType" NOT NULL,
    "aliases" TEXT[],
    "description" TEXT NOT NULL,
    "descriptionWiki" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,

    CONSTRAINT "Entity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Sample" (
    "id" SERIAL NOT NULL,
    "releaseId" TEXT NOT NULL,
    "sampleId" TEXT NOT NULL,
    "split" "Split" NOT NULL,
    "collection" TEXT NOT NULL,
    "implicitText" TEXT NOT NULL,
    "explicitText" TEXT NOT NULL,
    "entityId" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,

    CONSTRAINT "Sample_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "affiliation" TEXT NOT NULL DEFAULT '',
    "passwordHash" TEXT,
    "role" "Role" NOT NULL DEFAULT 'PARTICIPANT',
    "isSystem" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OAuthAccount" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "providerAccountId" TEXT NOT NULL,

    CONSTRAINT "OAuthAccount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Submission" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "releaseId" TEXT NOT NULL,
    "split" "Split" NOT NULL,
    "track" "Track" NOT NULL,
    "status" "SubmissionStatus" NOT NULL DEFAULT 'QUEUED',
    "fileSha256" TEXT NOT NULL,
    "fileBytes" INTEGER NOT NULL,
    "originalName" TEXT NOT NULL,
    "sampleCount" INTEGER NOT NULL,
    "countsToQuota" BOOLEAN NOT NULL DEFAULT true,
    "isBaseline" BOOLEAN NOT NULL DEFAULT false,
    "baselineLabel" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "queuedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "failureKind" "FailureKind",
    "failureReason" TEXT,
    "publication" "PublicationStatus" NOT NULL DEFAULT 'PRIVATE',
    "systemName" TEXT,
    "methodDescription" TEXT,
    "paperUrl" TEXT,
    "codeUrl" TEXT,
    "parameterCount" BIGINT,
    "isOpenWeights" BOOLEAN,
    "externalData" TEXT,
    "reviewReason" TEXT,
    "requestedAt" TIMESTAMP(3),
    "publishedAt" TIMESTAMP(3),

    CONSTRAINT "Submission_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Score" (
    "submissionId" TEXT NOT NULL,
    "scorerVersion" TEXT NOT NULL,
    "goldSha256" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "report" JSONB NOT NULL,
    "outcomes" BYTEA NOT NULL,
    "primary" DOUBLE PRECISION NOT NULL,
    "unified" DOUBLE PRECISION NOT NULL,
    "computedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Score_pkey" PRIMARY KEY ("submissionId")
);

-- CreateTable
CREATE TABLE "Comparison" (
    "entryId" TEXT NOT NULL,
    "baselineId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "b" INTEGER NOT NULL,
    "c" INTEGER NOT NULL,
    "chi2" DOUBLE PRECISION NOT NULL,
    "p" DOUBLE PRECISION NOT NULL,
    "pExact" DOUBLE PRECISION NOT NULL,
    "pHolm" DOUBLE PRECISION NOT NULL,
    "computedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Comparison_pkey" PRIMARY KEY ("entryId","baselineId")
);

-- CreateTable
CREATE TABLE "ReportedResult" (
    "id" TEXT NOT NULL,
    "releaseId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "track" "Track" NOT NULL,
    "split" "Split" NOT NULL,
    "metrics" JSONB NOT NULL,
    "byType" JSONB,
    "source" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReportedResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" TEXT NOT NULL,
    "actorId" TEXT,
    "action" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "reason" TEXT,
    "details" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "DatasetRelease_name_version_key" ON "DatasetRelease"("name", "version");

-- CreateIndex
CREATE INDEX "Entity_releaseId_ordinal_idx" ON "Entity"("releaseId", "ordinal");

-- CreateIndex
CREATE INDEX "Entity_releaseId_type_idx" ON "Entity"("releaseId", "type");

-- CreateIndex
CREATE UNIQUE INDEX "Entity_releaseId_qid_key" ON "Entity"("releaseId", "qid");

-- CreateIndex
CREATE INDEX "Sample_releaseId_split_ordinal_idx" ON "Sample"("releaseId", "split", "ordinal");

-- CreateIndex
CREATE UNIQUE INDEX "Sample_releaseId_sampleId_key" ON "Sample"("releaseId", "sampleId");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "OAuthAccount_provider_providerAccountId_key" ON "OAuthAccount"("provider", "providerAccountId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");

-- CreateIndex
CREATE INDEX "Submission_userId_split_createdAt_idx" ON "Submission"("userId", "split", "createdAt");

-- CreateIndex
CREATE INDEX "Submission_releaseId_split_status_idx" ON "Submission"("releaseId", "split", "status");

-- CreateIndex
CREATE INDEX "Submission_releaseId_publication_idx" ON "Submission"("releaseId", "publication");

-- CreateIndex
CREATE UNIQUE INDEX "ReportedResult_releaseId_name_track_split_key" ON "ReportedResult"("releaseId", "name", "track", "split");

-- CreateIndex
CREATE INDEX "AuditLog_createdAt_idx" ON "AuditLog"("createdAt");

-- AddForeignKey
ALTER TABLE "Entity" ADD CONSTRAINT "Entity_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "DatasetRelease"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Sample" ADD CONSTRAINT "Sample_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "DatasetRelease"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Sample" ADD CONSTRAINT "Sample_entityId_fkey" FOREIGN KEY ("entityId") REFERENCES "Entity"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthAccount" ADD CONSTRAINT "OAuthAccount_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Submission" ADD CONSTRAINT "Submission_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Submission" ADD CONSTRAINT "Submission_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "DatasetRelease"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Score" ADD CONSTRAINT "Score_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comparison" ADD CONSTRAINT "Comparison_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comparison" ADD CONSTRAINT "Comparison_baselineId_fkey" FOREIGN KEY ("baselineId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReportedResult" ADD CONSTRAINT "ReportedResult_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "DatasetRelease"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
