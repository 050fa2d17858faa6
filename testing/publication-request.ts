import { buildFactSheet } from "@/lib/core/fact-sheet/build-fact-sheet";
import type { FactSheet } from "@/lib/core/fact-sheet/schema";

/**
 * A valid publication request body (POST /api/submissions/:id/publication)
 * for tests: the method in words and a fact sheet with the answers given,
 * the rest "not stated".
 */
export function publicationRequest(systemName: string, options: { methodDescription?: string; factSheet?: Parameters<typeof buildFactSheet>[1] } = {}): {
  methodDescription: string;
  factSheet: FactSheet;
} {
  return {
    methodDescription: options.methodDescription ?? `${systemName}: BM25 over entity names, then a reranker on descriptions.`,
    factSheet: buildFactSheet(systemName, options.factSheet),
  };
}
