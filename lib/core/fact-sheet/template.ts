import { factSheetSchema, type FactSheet } from "./schema";

/**
 * A complete, valid example sheet: what `npm run client -- fact-sheet
 * template` prints for participants to fill in. Parsed once through the
 * schema, so the template can never drift from what the server accepts.
 */
export const FACT_SHEET_TEMPLATE: FactSheet = factSheetSchema.parse({
  version: 1,
  systemName: "My reranker",
  team: "My lab",
  approach: "hybrid",
  baseModel: "Llama-3.1-8B",
  knowledgeCutoff: "2023-12",
  parameters: 8_000_000_000,
  openWeights: true,
  dataUsed: {
    train: true,
    dev: true,
    sourceCollections: false,
    wikiBeyondKb: false,
    details: "Only the release's KB descriptions; no other data.",
  },
  configuration: { text: "", url: "https://example.org/my-reranker/config.yaml" },
  compute: "1 x A100 80GB, 6 GPU-hours for fine-tuning, 20 minutes for inference",
  codeUrl: "https://example.org/my-reranker",
  paperUrl: null,
  protocol: { noTestTuning: true, runs: "single-run", bestOfN: null, seeds: "42" },
});
