import { z } from "zod";
import { DOWNLOAD_NAMES } from "@/lib/core/dataset/download-format";
import { component } from "./registry";

export const sampleSplitSchema = component(
  "SampleSplit",
  z.object({ id: z.string(), split: z.enum(["train", "dev", "test"]), release: z.string().describe("release name and version") }),
);

const checkSchema = z.object({ ok: z.boolean(), latencyMs: z.number(), problem: z.string().optional() });

export const healthReportSchema = component(
  "HealthReport",
  z.object({
    status: z.enum(["ok", "degraded"]),
    checkedAt: z.string(),
    database: checkSchema,
    redis: checkSchema,
    queue: checkSchema.extend({
      waiting: z.number().int().optional(),
      active: z.number().int().optional(),
      delayed: z.number().int().optional(),
      failed: z.number().int().optional(),
    }),
    workers: checkSchema.extend({
      alive: z.number().int().optional(),
      lastHeartbeatAt: z.string().nullable().optional(),
      lastHeartbeatAgeSeconds: z.number().nullable().optional(),
    }),
    problems: z.array(z.string()),
  }),
);

/** The JSON Lines downloads of /dataset/download/{file}. */
export const downloadFileSchema = z.enum(DOWNLOAD_NAMES);
