import { readFile } from "node:fs/promises";
import { factSheetSavedSchema, publicationAcceptedSchema } from "@/lib/api/schemas/submissions";
import { FACT_SHEET_TEMPLATE } from "@/lib/fact-sheet/template";
import { ApiRefusal, explainRefusal } from "../api-client";
import { ClientError } from "../client-error";
import { writeJson, type CommandContext } from "./context";

/**
 * `publish ID --fact-sheet FILE --description TEXT`, `fact-sheet template` and
 * `fact-sheet edit ID FILE`: the fact sheet (lib/fact-sheet/schema.ts) from the
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
      "Start from: irc-bench-client fact-sheet template > sheet.json",
    ]);
  }
}

/** A 422's problems, one per line, naming the file and the field; other refusals as usual. */
function explainSheetRefusal(error: unknown, file: string, context: CommandContext, id: string): unknown {
  if (!(error instanceof ApiRefusal)) return error;
  if (error.status === 404) return new ClientError(2, [`No submission ${id} of yours on ${context.api.baseUrl}. List yours with: irc-bench-client list`]);
  if (error.status === 422) {
    const lines = error.problems.length > 0 ? error.problems.map((problem) => `${file}: ${problem.message}`) : [`${file}: ${error.serverMessage}`];
    return new ClientError(1, [...lines, "Fix the fact sheet and run the command again (the template: irc-bench-client fact-sheet template)."]);
  }
  if (error.status === 409) return new ClientError(2, [error.serverMessage]);
  return explainRefusal(error, context.api.baseUrl, context.now());
}

export function runFactSheetTemplate(context: CommandContext): 0 {
  writeJson(context, FACT_SHEET_TEMPLATE);
  return 0;
}

export async function runPublish(context: CommandContext, options: { id: string; file: string; description: string }): Promise<0> {
  const factSheet = await readSheetFile(options.file);
  const path = `/api/submissions/${encodeURIComponent(options.id)}/publication`;
  try {
    const answer = await context.api.json(path, publicationAcceptedSchema, {
      method: "POST",
      body: JSON.stringify({ methodDescription: options.description, factSheet }),
    });
    if (context.isJson) writeJson(context, answer);
    else context.stdout.write(`Publication of ${answer.id} requested with its fact sheet; a maintainer reviews it. You can edit the sheet until then: irc-bench-client fact-sheet edit ${answer.id} ${options.file}\n`);
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
