import { emptyFactSheet, factSheetSchema, type FactSheet } from "./schema";

type Overrides = Partial<Omit<FactSheet, "version" | "dataUsed" | "configuration" | "protocol">> & {
  dataUsed?: Partial<FactSheet["dataUsed"]>;
  configuration?: Partial<FactSheet["configuration"]>;
  protocol?: Partial<FactSheet["protocol"]>;
};

/**
 * A fact sheet from an empty one ("not stated" everywhere) and the answers
 * given, checked by the schema: for seed data, demo entries and tests.
 */
export function buildFactSheet(systemName: string, overrides: Overrides = {}): FactSheet {
  const empty = emptyFactSheet(systemName);
  return factSheetSchema.parse({
    ...empty,
    ...overrides,
    dataUsed: { ...empty.dataUsed, ...overrides.dataUsed },
    configuration: { ...empty.configuration, ...overrides.configuration },
    protocol: { ...empty.protocol, ...overrides.protocol },
  });
}

/** Every answer given (a complete sheet with code and configuration linked: the "documented" tier once scored). */
export function completeFactSheet(systemName: string, overrides: Overrides = {}): FactSheet {
  const slug = systemName.toLowerCase().replaceAll(/[^a-z0-9]+/g, "-");
  return buildFactSheet(systemName, {
    team: "A team",
    approach: "fine-tuned-llm",
    baseModel: "Open-8B",
    knowledgeCutoff: "2023-12",
    parameters: 8_000_000_000,
    openWeights: true,
    compute: "1 GPU, 4 hours",
    codeUrl: `https://example.org/${slug}`,
    paperUrl: null,
    ...overrides,
    dataUsed: { train: true, dev: true, sourceCollections: false, wikiBeyondKb: false, ...overrides.dataUsed },
    configuration: { url: `https://example.org/${slug}/config.yaml`, ...overrides.configuration },
    protocol: { noTestTuning: true, runs: "single-run", seeds: "42", ...overrides.protocol },
  });
}
