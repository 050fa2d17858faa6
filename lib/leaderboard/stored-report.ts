import { z } from "zod";
import { isEntityType, type EntityType } from "@/lib/dataset/release-schema";
import type { Interval, TypeGroupScore } from "./leaderboard-types";

/**
 * Reads the parts of a stored score report (protocol section 11) the
 * leaderboard shows. Lenient on purpose: the report was validated when it was
 * written, and a key this build does not know is skipped rather than hiding
 * the entry.
 */

const intervalSchema = z.tuple([z.number(), z.number()]);

const typeGroupSchema = z.object({
  n: z.number().int().nonnegative(),
  metrics: z.record(z.string(), z.number().nullable()),
  ci95: z.record(z.string(), intervalSchema.nullable()),
});

export const storedMetricsSchema = z.record(z.string(), z.number());
export const storedIntervalsSchema = z.record(z.string(), intervalSchema);
export const storedByTypeSchema = z.record(z.string(), typeGroupSchema);
export const storedByCollectionSchema = z.record(
  z.string(),
  z.object({ n: z.number().int().nonnegative(), metrics: z.record(z.string(), z.number()) }),
);

export function parseStoredMetrics(value: unknown): Partial<Record<string, number>> {
  const parsed = storedMetricsSchema.safeParse(value);
  return parsed.success ? parsed.data : {};
}

export function parseStoredIntervals(value: unknown): Partial<Record<string, Interval>> {
  const parsed = storedIntervalsSchema.safeParse(value);
  return parsed.success ? parsed.data : {};
}

export function parseStoredByType(value: unknown): Partial<Record<EntityType, TypeGroupScore>> {
  const parsed = storedByTypeSchema.safeParse(value);
  const out: Partial<Record<EntityType, TypeGroupScore>> = {};
  if (!parsed.success) return out;
  for (const [type, group] of Object.entries(parsed.data)) {
    if (isEntityType(type)) out[type] = group;
  }
  return out;
}

export function parseStoredByCollection(value: unknown): Record<string, { n: number; metrics: Partial<Record<string, number>> }> {
  const parsed = storedByCollectionSchema.safeParse(value);
  return parsed.success ? parsed.data : {};
}
