import { z } from "zod";

/**
 * The public log's query (GET /api/public-log, the /changes page): the records
 * after a seq, of one release ("name@version") or one entry (its id).
 */
export const publicLogQuerySchema = z
  .object({
    after: z.coerce
      .number({ message: "must be a number" })
      .int({ message: "must be a whole number" })
      .min(0, { message: "must be at least 0" })
      .max(2_147_483_647, { message: "must be at most 2147483647" })
      .optional()
      .describe("only records whose seq is greater (default 0: the whole log)"),
    release: z.string().min(1).max(200).optional().describe('only records of this release, "name@version"'),
    entry: z.string().min(1).max(64).optional().describe("only records of this entry (its id)"),
  })
  .strict();
export type PublicLogQuery = z.infer<typeof publicLogQuerySchema>;

/** GET /api/public-log/head and /api/public-log/key take no query parameter. */
export const NO_LOG_QUERY = z.object({}).strict();
