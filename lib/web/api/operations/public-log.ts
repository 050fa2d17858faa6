import { publicLogQuerySchema, NO_LOG_QUERY } from "@/lib/core/api-schemas/public-log";
import { logKeySchema, signedHeadSchema } from "@/lib/core/public-log/signed-head";
import { INVALID, type ApiOperation } from "./shared";

const LOG_HEADERS = {
  ETag: "strong ETag: SHA-256 of the body (send If-None-Match for a 304)",
  "Irc-Log-Head": "the whole log's head when the body was made: SEQ HASH (verify it against GET /api/public-log/head)",
};

/** The public, hash-chained log of every change to what readers see (docs/public-log.md; lib/web/api/operations.ts lists every group). */
export const LOG_API = {
  getPublicLog: {
    method: "get",
    path: "/api/public-log",
    tag: "Leaderboard",
    summary: "The public log: every change to what readers see, one JSON record per line, hash-chained",
    description:
      "Each line is one record in RFC 8785 canonical JSON: seq, at, kind, release, entry, summary, data, prev, hash; hash is the SHA-256 of the record " +
      "without hash (docs/public-log.md). With after=SEQ only later records; release and entry filter (a filtered log is not a chain: verify the whole one).",
    input: { auth: "public", query: publicLogQuerySchema },
    responses: {
      200: { description: "JSON Lines, oldest first", contentType: "application/jsonl; charset=utf-8", headers: LOG_HEADERS },
      304: { description: "Not modified (If-None-Match matched)" },
      422: INVALID,
    },
  },
  getPublicLogHead: {
    method: "get",
    path: "/api/public-log/head",
    tag: "Leaderboard",
    summary: "The public log's head (last seq and hash), signed with the operator's Ed25519 key",
    description: 'The signature is over the RFC 8785 canonical JSON of {"hash":HASH,"log":"irc-bench-public-log","seq":SEQ}; an empty log\'s head is seq 0 and 64 zeros.',
    input: { auth: "public", query: NO_LOG_QUERY },
    responses: { 200: { description: "The signed head", schema: signedHeadSchema }, 422: INVALID },
  },
  getPublicLogKey: {
    method: "get",
    path: "/api/public-log/key",
    tag: "Leaderboard",
    summary: "The public key that verifies the public log's signed heads (also on the dataset page)",
    input: { auth: "public", query: NO_LOG_QUERY },
    responses: { 200: { description: "The Ed25519 public key", schema: logKeySchema }, 422: INVALID },
  },
} as const satisfies Record<string, ApiOperation>;
