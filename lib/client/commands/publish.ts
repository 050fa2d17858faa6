import { CLIENT_COMMAND } from "../command-name";
import { readFile } from "node:fs/promises";
import { factSheetSavedSchema, publicationAcceptedSchema } from "@/lib/core/api-schemas/submissions";
import { FACT_SHEET_TEMPLATE } from "@/lib/core/fact-sheet/template";
import { ApiRefusal, explainRefusal } from "@/lib/client/api-client";
import { ClientError } from "@/lib/client/client-error";
import { writeJson, type CommandContext } from "./context";
import { fetchSubmission } from "./status";

/**
 * `publish ID --fact-sheet FILE --description TEXT`, `fact-sheet template` and
 * `fact-sheet edit ID FILE`: the fact sheet (lib/core/fact-sheet/schema.ts) from the
 * command line. The file is sent as it is; the server validates it with the
 * same schema as the site's form and names each field at fault.
 */

async function readSheetFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ClientError(2, [`${file}: cannot read the fact sheet (${code === "ENOENT" ? "no such file" : (code ?? "unreadable")}).`]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ClientError(2, [
      `${file}: not JSON (${error instanceof Error ? error.message : String(error)}).`,
      `Start from: ${CLIENT_COMMAND} fact-sheet template > sheet.json`,
    ]);
  }
}

/**
 * A 422 with problems names fields of the fact sheet: one line each, naming the
 * file. Exit 2, as every refusal that is not about the predictions (exit 1 is
 * theirs alone); a 422 without problems is about the submission, not the file.
 */
function explainSheetRefusal(error: unknown, file: string, context: CommandContext, id: string): unknown {
  if (!(error instanceof ApiRefusal)) return error;
  if (error.status === 404) return new ClientError(2, [`No submission ${id} of yours on ${context.api.baseUrl}. List yours with: ${CLIENT_COMMAND} list`]);
  if (error.status === 422 && error.problems.length > 0) {
    const lines = error.problems.map((problem) => `${file}: ${problem.message}`);
    return new ClientError(2, [...lines, `Fix the fact sheet and run the command again (the template: ${CLIENT_COMMAND} fact-sheet template).`]);
  }
  if (error.status === 422) return new ClientError(2, [`Submission ${id}: ${error.serverMessage}`]);
  if (error.status === 409) return new ClientError(2, [error.serverMessage]);
  return explainRefusal(error, context.api.baseUrl, context.now());
}

export function runFactSheetTemplate(context: CommandContext): 0 {
  writeJson(context, FACT_SHEET_TEMPLATE);
  return 0;
}

/** Only a scored test submission can be published: said before the fact sheet is read or sent (a usage error, exit 2). */
async function assertPublishable(context: CommandContext, id: string): Promise<void> {
  const view = await fetchSubmission(context, id);
  if (view.split !== "test") {
    throw new ClientError(2, [
      `Submission ${id} is a ${view.split} submission: a ${view.split} file cannot be published. Only test submissions are (dev scores are for your own use).`,
      `Submit your predictions for the test split (${CLIENT_COMMAND} submit FILE --split test --wait), then publish that submission.`,
    ]);
  }
  if (view.status !== "SCORED") {
    throw new ClientError(2, [`Submission ${id} is ${view.status}: it can be published once it is SCORED. Follow it with: ${CLIENT_COMMAND} status ${id}`]);
  }
}

export async function runPublish(context: CommandContext, options: { id: string; file: string; description: string }): Promise<0> {
  await assertPublishable(context, options.id);
  const factSheet = await readSheetFile(options.file);
  const path = `/api/submissions/${encodeURIComponent(options.id)}/publication`;
  try {
    const answer = await context.api.json(path, publicationAcceptedSchema, {
      method: "POST",
      body: JSON.stringify({ methodDescription: options.description, factSheet }),
    });
    if (context.isJson) writeJson(context, answer);
    else context.stdout.write(`Publication of ${answer.id} requested with its fact sheet; a maintainer reviews it. You can edit the sheet until then: ${CLIENT_COMMAND} fact-sheet edit ${answer.id} ${options.file}\n`);
    return 0;
  } catch (error) {
    throw explainSheetRefusal(error, options.file, context, options.id);
  }
}

export async function runFactSheetEdit(context: CommandContext, options: { id: string; file: string }): Promise<0> {
  const factSheet = await readSheetFile(options.file);
  const path = `/api/submissions/${encodeURIComponent(options.id)}/fact-sheet`;
  try {
    const answer = await context.api.json(path, factSheetSavedSchema, { method: "PATCH", body: JSON.stringify({ factSheet }) });
    if (context.isJson) writeJson(context, answer);
    else context.stdout.write(`Fact sheet of ${answer.submissionId} saved (version ${answer.factSheet.version}).\n`);
    return 0;
  } catch (error) {
    throw explainSheetRefusal(error, options.file, context, options.id);
  }
}
