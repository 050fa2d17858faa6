import { formatParameterCountForEditing, parseParameterCount } from "@/lib/core/format/numbers";
import { FACT_SHEET_VERSION, type FactSheet } from "./schema";

/**
 * The publication form's inputs are named by the fact sheet's paths
 * ("dataUsed.train"); this turns the submitted values into the JSON the API
 * reads, and a stored sheet back into the form's initial values. Yes/no
 * answers are selects with "" for "not stated". Nothing is validated here:
 * the server's schema does that and names the field; a count that is not a
 * number is sent as typed, so the answer says so.
 */

export type FormValues = Record<string, string>;

function flag(value: string | undefined): boolean | null {
  if (value === "yes") return true;
  if (value === "no") return false;
  return null;
}

function textOrNull(value: string | undefined): string | null {
  const trimmed = (value ?? "").trim();
  return trimmed === "" ? null : trimmed;
}

function count(value: string | undefined): number | string | null {
  const trimmed = (value ?? "").trim().replaceAll(/[,_\s]/g, "");
  if (trimmed === "") return null;
  const number = Number(trimmed);
  return Number.isFinite(number) && /^[0-9.e+]+$/i.test(trimmed) ? number : (value ?? "");
}

/** A parameter count as the leaderboard's size filter reads it ("1.3B", "350M", "8000000000"); anything else as typed. */
function parameterCount(value: string | undefined): number | string | null {
  if ((value ?? "").trim() === "") return null;
  return parseParameterCount(value ?? "") ?? (value ?? "");
}

/** The fact sheet JSON of a submitted form (unvalidated). */
export function factSheetFromForm(values: FormValues): Record<string, unknown> {
  const runs = textOrNull(values["protocol.runs"]);
  return {
    version: FACT_SHEET_VERSION,
    systemName: values.systemName ?? "",
    team: values.team ?? "",
    approach: textOrNull(values.approach),
    baseModel: textOrNull(values.baseModel),
    knowledgeCutoff: textOrNull(values.knowledgeCutoff),
    parameters: parameterCount(values.parameters),
    openWeights: flag(values.openWeights),
    dataUsed: {
      train: flag(values["dataUsed.train"]),
      dev: flag(values["dataUsed.dev"]),
      sourceCollections: flag(values["dataUsed.sourceCollections"]),
      wikiBeyondKb: flag(values["dataUsed.wikiBeyondKb"]),
      details: values["dataUsed.details"] ?? "",
    },
    configuration: { text: values["configuration.text"] ?? "", url: textOrNull(values["configuration.url"]) },
    compute: values.compute ?? "",
    codeUrl: textOrNull(values.codeUrl),
    paperUrl: textOrNull(values.paperUrl),
    protocol: {
      noTestTuning: flag(values["protocol.noTestTuning"]),
      runs,
      bestOfN: runs === "best-of-n" ? count(values["protocol.bestOfN"]) : null,
      seeds: values["protocol.seeds"] ?? "",
    },
  };
}

const flagText = (value: boolean | null) => (value === null ? "" : value ? "yes" : "no");

/** The form's initial values for a stored sheet (or an empty form). */
export function formValuesOf(sheet: FactSheet | null, fallbackName = ""): FormValues {
  if (sheet === null) return { systemName: fallbackName };
  return {
    systemName: sheet.systemName,
    team: sheet.team,
    approach: sheet.approach ?? "",
    baseModel: sheet.baseModel ?? "",
    knowledgeCutoff: sheet.knowledgeCutoff ?? "",
    parameters: sheet.parameters === null ? "" : formatParameterCountForEditing(sheet.parameters),
    openWeights: flagText(sheet.openWeights),
    "dataUsed.train": flagText(sheet.dataUsed.train),
    "dataUsed.dev": flagText(sheet.dataUsed.dev),
    "dataUsed.sourceCollections": flagText(sheet.dataUsed.sourceCollections),
    "dataUsed.wikiBeyondKb": flagText(sheet.dataUsed.wikiBeyondKb),
    "dataUsed.details": sheet.dataUsed.details,
    "configuration.text": sheet.configuration.text,
    "configuration.url": sheet.configuration.url ?? "",
    compute: sheet.compute,
    codeUrl: sheet.codeUrl ?? "",
    paperUrl: sheet.paperUrl ?? "",
    "protocol.noTestTuning": flagText(sheet.protocol.noTestTuning),
    "protocol.runs": sheet.protocol.runs ?? "",
    "protocol.bestOfN": sheet.protocol.bestOfN === null ? "" : String(sheet.protocol.bestOfN),
    "protocol.seeds": sheet.protocol.seeds,
  };
}
