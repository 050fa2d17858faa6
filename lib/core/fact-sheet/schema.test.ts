import { describe, expect, it } from "vitest";
import { describeIssue } from "@/lib/core/input/describe-issue";
import { missingFactSheetFields } from "./completeness";
import { factSheetFromForm, formValuesOf } from "./form-fields";
import { cutoffLastDay, cutoffSide } from "./knowledge-cutoff";
import { emptyFactSheet, factSheetSchema, readStoredFactSheet } from "./schema";
import { FACT_SHEET_TEMPLATE } from "./template";

const messagesOf = (input: unknown) => {
  const parsed = factSheetSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => describeIssue(issue));
};

describe("fact sheet schema (version 1)", () => {
  it("round-trips the template through JSON, as the client sends it and the database stores it", () => {
    const sent = JSON.parse(JSON.stringify(FACT_SHEET_TEMPLATE)) as unknown;
    expect(factSheetSchema.parse(sent)).toEqual(FACT_SHEET_TEMPLATE);
    expect(readStoredFactSheet(sent)).toEqual(FACT_SHEET_TEMPLATE);
    expect(FACT_SHEET_TEMPLATE.version).toBe(1);
  });

  it("round-trips the site form: stored sheet -> form values -> submitted JSON -> the same sheet", () => {
    const values = formValuesOf(FACT_SHEET_TEMPLATE);
    expect(values["dataUsed.sourceCollections"]).toBe("no");
    expect(values.parameters).toBe("8B");
    for (const [typed, count] of [["1.3B", 1_300_000_000], ["350M", 350_000_000], ["70B", 70_000_000_000], ["8,000,000,000", 8e9]] as const) {
      expect(factSheetSchema.parse(factSheetFromForm({ ...values, parameters: typed })).parameters).toBe(count);
      expect(factSheetSchema.parse({ ...FACT_SHEET_TEMPLATE, parameters: typed }).parameters).toBe(count);
    }
    expect(factSheetSchema.parse(factSheetFromForm(values))).toEqual(FACT_SHEET_TEMPLATE);
    const bestOf = { ...FACT_SHEET_TEMPLATE, protocol: { ...FACT_SHEET_TEMPLATE.protocol, runs: "best-of-n" as const, bestOfN: 5 } };
    expect(factSheetSchema.parse(factSheetFromForm(formValuesOf(bestOf)))).toEqual(bestOf);
  });

  it("reads an empty form as a valid sheet where everything but the name is not stated", () => {
    const sheet = factSheetSchema.parse(factSheetFromForm({ systemName: "Bare system" }));
    expect(sheet).toEqual(emptyFactSheet("Bare system"));
    expect(missingFactSheetFields(sheet)).toEqual([
      "team",
      "approach",
      "baseModel",
      "knowledgeCutoff",
      "parameters",
      "openWeights",
      "dataUsed.train",
      "dataUsed.dev",
      "dataUsed.sourceCollections",
      "dataUsed.wikiBeyondKb",
      "configuration",
      "compute",
      "codeUrl",
      "protocol.noTestTuning",
      "protocol.runs",
      "protocol.seeds",
    ]);
    expect(missingFactSheetFields(FACT_SHEET_TEMPLATE)).toEqual([]);
  });

  it("names each field at fault in a sentence", () => {
    expect(messagesOf({ ...FACT_SHEET_TEMPLATE, knowledgeCutoff: "June 2024" })).toEqual([
      'field "knowledgeCutoff" must be an ISO month (2024-06) or date (2024-06-30)',
    ]);
    expect(messagesOf({ ...FACT_SHEET_TEMPLATE, knowledgeCutoff: "2023-02-30" })).toEqual([
      'field "knowledgeCutoff" must be an ISO month (2024-06) or date (2024-06-30)',
    ]);
    expect(messagesOf({ ...FACT_SHEET_TEMPLATE, approach: "magic" })).toEqual([
      'field "approach" must be one of prompted-llm, fine-tuned-llm, retriever, hybrid, other or null',
    ]);
    expect(messagesOf({ ...FACT_SHEET_TEMPLATE, dataUsed: { ...FACT_SHEET_TEMPLATE.dataUsed, train: "yes" } })).toEqual([
      'field "dataUsed.train" must be true, false or null (not stated)',
    ]);
    expect(messagesOf({ ...FACT_SHEET_TEMPLATE, codeUrl: "ftp://example.org/x" })).toEqual(['field "codeUrl" must be an http(s) URL']);
    expect(messagesOf({ ...FACT_SHEET_TEMPLATE, parameters: 1.5 })).toEqual(['field "parameters" must be a whole number']);
    expect(messagesOf({ ...FACT_SHEET_TEMPLATE, parameters: "eight billion" })).toEqual(['field "parameters" must be a number, or a count like "1.3B", "350M" or "8000000000"']);
    expect(messagesOf({ ...FACT_SHEET_TEMPLATE, version: 2 })).toEqual(['field "version" must be 1 (the fact sheet version this server reads)']);
    expect(messagesOf({ ...FACT_SHEET_TEMPLATE, protocol: { ...FACT_SHEET_TEMPLATE.protocol, runs: "best-of-n" } })).toEqual([
      'field "protocol.bestOfN" is needed when runs is "best-of-n": of how many runs is this the best?',
    ]);
    expect(messagesOf({ ...FACT_SHEET_TEMPLATE, extra: 1 })).toEqual(['unknown field "extra"']);
  });

  it("does not read a stored sheet of another version or shape", () => {
    expect(readStoredFactSheet(null)).toBeNull();
    expect(readStoredFactSheet({ ...FACT_SHEET_TEMPLATE, version: 2 })).toBeNull();
  });

  it("needs no base model or cutoff from a retriever", () => {
    const retriever = { ...FACT_SHEET_TEMPLATE, approach: "retriever" as const, baseModel: null, knowledgeCutoff: null };
    expect(missingFactSheetFields(retriever)).toEqual([]);
    expect(missingFactSheetFields({ ...retriever, approach: "hybrid" })).toEqual(["baseModel", "knowledgeCutoff"]);
  });
});

describe("knowledge cutoff against the release date", () => {
  it("takes a month cutoff as its last day", () => {
    expect(cutoffLastDay("2024-02")).toBe("2024-02-29");
    expect(cutoffLastDay("2023-12")).toBe("2023-12-31");
    expect(cutoffLastDay("2024-06-15")).toBe("2024-06-15");
  });

  it("is before only when the cutoff's last day is strictly before the release day", () => {
    expect(cutoffSide("2026-11", "2026-12-01")).toBe("before");
    expect(cutoffSide("2026-12", "2026-12-01")).toBe("after");
    expect(cutoffSide("2026-12-01", "2026-12-01")).toBe("after");
    expect(cutoffSide("2026-11-30", "2026-12-01")).toBe("before");
  });
});
