import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { rowAt } from "./sample-rows";
import { describeQueryIssues, sampleQuerySchema, type SamplePage, type SampleQuery } from "./schemas";
import { selectSampleRows } from "./select-sample-rows";

/** Parses the instance browser's query string; every problem is named by its parameter (422). */
export function parseSampleQuery(input: Record<string, string | string[] | undefined>): SampleQuery {
  const flat = Object.fromEntries(Object.entries(input).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]));
  const parsed = sampleQuerySchema.safeParse(flat);
  if (!parsed.success) throw new AppError("validation", `Invalid query: ${describeQueryIssues(parsed.error)}.`);
  return parsed.data;
}

/** One page of the instance browser of a dev run (owner or maintainer; test runs are refused). */
export async function getSamplePage(actor: Actor, submissionId: string, query: SampleQuery): Promise<SamplePage> {
  const selection = await selectSampleRows(actor, submissionId, query);
  const start = (query.page - 1) * query.pageSize;
  const pageIndices = selection.indices.slice(start, start + query.pageSize);
  return {
    submissionId,
    track: selection.run.track,
    against: selection.other?.run.submissionId ?? null,
    total: selection.indices.length,
    page: query.page,
    pageSize: query.pageSize,
    rows: pageIndices.map((index) => rowAt(selection.samples[index]!, selection.run, selection.other)),
    collections: [...new Set(selection.samples.map((sample) => sample.collection))].sort(),
  };
}
