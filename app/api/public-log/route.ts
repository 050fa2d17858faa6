import { createHash } from "node:crypto";
import { LOG_API } from "@/lib/web/api/operations/public-log";
import { route } from "@/lib/web/http/route";
import { recordLine } from "@/lib/core/public-log/public-log-record";
import { listPublicLog } from "@/lib/domain/public-log/read-public-log";
import { db } from "@/lib/platform/db";

export const dynamic = "force-dynamic";

/**
 * GET /api/public-log[?after=SEQ][&release=NAME@VERSION][&entry=ID]: the public log as JSON Lines
 * (docs/public-log.md), with a strong ETag of the body and the whole log's head.
 */
export const GET = route(LOG_API.getPublicLog.input, async ({ request, query }) => {
  // The head first, then the records up to it: the header names the log the body was read from.
  const last = await db.publicLogRecord.findFirst({ orderBy: { seq: "desc" }, select: { seq: true, hash: true } });
  const records = await listPublicLog({ after: query.after, upTo: last?.seq ?? 0, release: query.release, entry: query.entry });
  const body = records.map((record) => `${recordLine(record)}\n`).join("");
  const etag = `"${createHash("sha256").update(body).digest("hex")}"`;
  const headers = {
    "Content-Type": "application/jsonl; charset=utf-8",
    ETag: etag,
    "Cache-Control": "no-cache",
    "Irc-Log-Head": last === null ? `0 ${"0".repeat(64)}` : `${last.seq} ${last.hash}`,
  };
  if (request.headers.get("if-none-match")?.split(",").some((tag) => tag.trim() === etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers });
});
