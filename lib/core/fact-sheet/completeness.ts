import type { FactSheet } from "./schema";

/**
 * Which answers a fact sheet leaves "not stated". A sheet is complete when
 * this list is empty; the paper URL is the one optional answer (not every
 * system has a paper), and a retriever or "other" system need not name a base
 * model or its cutoff.
 */

export const FACT_SHEET_FIELD_LABELS = {
  systemName: "System name",
  team: "Team",
  approach: "Approach",
  baseModel: "Base model",
  knowledgeCutoff: "Knowledge cutoff",
  parameters: "Parameters",
  openWeights: "Open weights",
  "dataUsed.train": "Used the IRC-Bench train split",
  "dataUsed.dev": "Used the IRC-Bench dev split",
  "dataUsed.sourceCollections": "Used data from the source oral-history collections",
  "dataUsed.wikiBeyondKb": "Used Wikidata or Wikipedia beyond the KB",
  "dataUsed.details": "Other data (details)",
  configuration: "Prompts or configuration",
  "configuration.text": "Prompts or configuration (text)",
  "configuration.url": "Prompts or configuration (link)",
  compute: "Compute",
  codeUrl: "Code URL",
  paperUrl: "Paper URL",
  "protocol.noTestTuning": "No tuning on the test split",
  "protocol.runs": "Single run or best of N",
  "protocol.bestOfN": "Best of how many runs",
  "protocol.seeds": "Seeds",
} as const;
export type FactSheetField = keyof typeof FACT_SHEET_FIELD_LABELS;

const NEEDS_BASE_MODEL = new Set(["prompted-llm", "fine-tuned-llm", "hybrid"]);

/** The fields a complete sheet would answer and this one does not, in form order. */
export function missingFactSheetFields(sheet: FactSheet): FactSheetField[] {
  const missing: FactSheetField[] = [];
  if (sheet.team === "") missing.push("team");
  if (sheet.approach === null) missing.push("approach");
  if (sheet.approach === null || NEEDS_BASE_MODEL.has(sheet.approach)) {
    if (sheet.baseModel === null) missing.push("baseModel");
    if (sheet.knowledgeCutoff === null) missing.push("knowledgeCutoff");
  }
  if (sheet.parameters === null) missing.push("parameters");
  if (sheet.openWeights === null) missing.push("openWeights");
  if (sheet.dataUsed.train === null) missing.push("dataUsed.train");
  if (sheet.dataUsed.dev === null) missing.push("dataUsed.dev");
  if (sheet.dataUsed.sourceCollections === null) missing.push("dataUsed.sourceCollections");
  if (sheet.dataUsed.wikiBeyondKb === null) missing.push("dataUsed.wikiBeyondKb");
  if (!hasConfiguration(sheet)) missing.push("configuration");
  if (sheet.compute === "") missing.push("compute");
  if (sheet.codeUrl === null) missing.push("codeUrl");
  if (sheet.protocol.noTestTuning === null) missing.push("protocol.noTestTuning");
  if (sheet.protocol.runs === null) missing.push("protocol.runs");
  if (sheet.protocol.seeds === "") missing.push("protocol.seeds");
  return missing;
}

export function hasConfiguration(sheet: FactSheet): boolean {
  return sheet.configuration.text !== "" || sheet.configuration.url !== null;
}

export function isFactSheetComplete(sheet: FactSheet): boolean {
  return missingFactSheetFields(sheet).length === 0;
}
