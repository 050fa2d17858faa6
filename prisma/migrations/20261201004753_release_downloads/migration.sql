/*
  Warnings:

  - Added the required column `downloads` to the `DatasetRelease` table without a default value. This is not possible if the table is not empty.

*/
-- AlterTable
ALTER TABLE "DatasetRelease" ADD COLUMN     "downloads" JSONB NOT NULL;
