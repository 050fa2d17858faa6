import "server-only";
import type { Actor } from "@/lib/domain/accounts/actor";
import { parseQuery } from "@/lib/core/input/parse-input";
import { rowAt } from "@/lib/core/submissions/sample-rows";
import { sampleQuerySchema, type SamplePage, type SampleQuery } from "@/lib/core/submissions/sample-schemas";
import { selectSampleRows } from "./select-sample-rows";

/** A page's search params as the API's query string: the same strict parse and the same 422 sentences. */
export function parseSampleQuery(input: Record<string, string | string[] | undefined>): SampleQuery {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(key, item);
  }
  return parseQuery(sampleQuerySchema, params);
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
