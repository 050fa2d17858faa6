import "server-only";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import type { DatasetRelease } from "@/lib/platform/generated/prisma";

/** The active release, or null when nothing has been imported yet. */
export async function findActiveRelease(): Promise<DatasetRelease | null> {
  return db.datasetRelease.findFirst({ where: { isActive: true } });
}

export async function getActiveRelease(): Promise<DatasetRelease> {
  const release = await findActiveRelease();
  if (!release) {
    throw new AppError("not_found", "No dataset release is active yet. A maintainer imports one with npm run dataset:import.");
  }
  return release;
}
