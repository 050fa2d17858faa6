import "server-only";
import type { Actor } from "@/lib/domain/accounts/actor";
import { rowAt, rowsToCsv, rowsToJsonl } from "@/lib/core/submissions/sample-rows";
import type { SampleQuery } from "@/lib/core/submissions/sample-schemas";
import { selectSampleRows } from "./select-sample-rows";

type SampleExport = { format: "csv" | "jsonl"; body: string; filename: string };

/** Every row the query's filters keep (all pages, in the asked order), as CSV or JSON Lines. */
export async function exportSamples(actor: Actor, submissionId: string, query: SampleQuery & { format: "csv" | "jsonl" }): Promise<SampleExport> {
  const selection = await selectSampleRows(actor, submissionId, query);
  const rows = selection.indices.map((index) => rowAt(selection.samples[index]!, selection.run, selection.other));
  const suffix = selection.other ? `-vs-${selection.other.run.submissionId}` : "";
  return {
    format: query.format,
    body: query.format === "csv" ? rowsToCsv(rows, selection.other !== null) : rowsToJsonl(rows),
    filename: `samples-${submissionId}${suffix}.${query.format}`,
  };
}
