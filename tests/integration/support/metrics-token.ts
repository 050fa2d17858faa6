/**
 * Imported first by tests of GET /metrics: the token must be in the
 * environment before anything reads (and caches) lib/platform/env.ts.
 */
export const TEST_METRICS_TOKEN = "integration-metrics-token-0123456789";
process.env.METRICS_TOKEN = TEST_METRICS_TOKEN;
