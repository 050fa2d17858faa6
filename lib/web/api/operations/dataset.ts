import { downloadFileSchema, healthReportSchema, sampleSplitSchema } from "@/lib/core/api-schemas/dataset";
import { downloadQuerySchema, sampleSplitQuerySchema, INVALID, DOWNLOAD_HEADERS, type ApiOperation } from "./shared";

/** The dataset, the downloads, health and this document (lib/web/api/all-operations.ts lists every group). */
export const DATASET_API = {
  getSampleSplit: {
    method: "get",
    path: "/api/dataset/sample-split",
    tag: "Dataset",
    summary: "Which split of the active release a sample id belongs to",
    input: { auth: "public", query: sampleSplitQuerySchema },
    responses: { 200: { description: "The split", schema: sampleSplitSchema }, 404: { description: "Not a sample id of the active release" }, 422: INVALID },
  },
  downloadDataset: {
    method: "get",
    path: "/dataset/download/{file}",
    tag: "Dataset",
    summary: "A file of the release: train.jsonl, dev.jsonl (with gold), test.jsonl (without gold), kb.jsonl",
    input: { auth: "public", params: ["file"] },
    paramDocs: { file: downloadFileSchema },
    queryDocs: downloadQuerySchema,
    responses: {
      200: { description: "JSON Lines, the bytes hashed at import", contentType: "text/plain; charset=utf-8", headers: DOWNLOAD_HEADERS },
      304: { description: "Not modified (If-None-Match matched)" },
      404: { description: "No such file or release" },
    },
  },
  downloadScorer: {
    method: "get",
    path: "/dataset/download/irc-bench-score.mjs",
    tag: "Dataset",
    summary: "The offline scorer: one file for Node.js 20 or later",
    input: { auth: "public" },
    responses: {
      200: { description: "The scorer", contentType: "text/javascript; charset=utf-8", headers: DOWNLOAD_HEADERS },
      304: { description: "Not modified" },
      404: { description: "Not built on this server" },
    },
  },
  downloadClient: {
    method: "get",
    path: "/dataset/download/irc-bench-client.mjs",
    tag: "Dataset",
    summary: "The command-line client (login, submit, status, list, quota, download): one file for Node.js 20 or later",
    input: { auth: "public" },
    responses: {
      200: { description: "The client", contentType: "text/javascript; charset=utf-8", headers: DOWNLOAD_HEADERS },
      304: { description: "Not modified" },
      404: { description: "Not built on this server" },
    },
  },
  getHealth: {
    method: "get",
    path: "/api/health",
    tag: "Operations",
    summary: "Whether this deployment works: database, Redis, queue depth, worker heartbeats",
    input: { auth: "public" },
    responses: {
      200: { description: "Healthy", schema: healthReportSchema },
      503: { description: "Degraded; `problems` names what is wrong", schema: healthReportSchema },
    },
  },
  getOpenApiDocument: {
    method: "get",
    path: "/api/openapi.json",
    tag: "Operations",
    summary: "This document",
    input: { auth: "public" },
    responses: { 200: { description: "The OpenAPI 3.1 document of the public and token API", contentType: "application/json" } },
  },
} as const satisfies Record<string, ApiOperation>;
