import "server-only";
import { db } from "@/lib/platform/db";
import type { Split } from "@/lib/core/dataset/release-schema";
import { fromDbEntityType } from "@/lib/domain/releases/entity-type";
import { downloadSplit, formatEntityLine, formatGoldSampleLine, formatPublicTestLine, type DownloadName } from "@/lib/core/dataset/download-format";

const BATCH = 2000;

/**
 * Streams one download of a release from the database in file order, a batch
 * at a time, so no whole file is ever held in memory. The bytes are those
 * hashed at import (see release-summary.ts).
 */
export function streamDownload(releaseId: string, name: DownloadName): ReadableStream<Uint8Array> {
  const split = downloadSplit(name);
  const encoder = new TextEncoder();
  let lastOrdinal = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const text = split === null ? await nextEntityBatch(releaseId, lastOrdinal) : await nextSampleBatch(releaseId, split, lastOrdinal);
      if (text.lines.length === 0) {
        controller.close();
        return;
      }
      lastOrdinal = text.lastOrdinal;
      controller.enqueue(encoder.encode(text.lines.join("")));
    },
  });
}

type Batch = { lines: string[]; lastOrdinal: number };

async function nextEntityBatch(releaseId: string, afterOrdinal: number): Promise<Batch> {
  const rows = await db.entity.findMany({
    where: { releaseId, ordinal: { gt: afterOrdinal } },
    orderBy: { ordinal: "asc" },
    take: BATCH,
  });
  return {
    lines: rows.map((row) =>
      formatEntityLine({
        qid: row.qid,
        name: row.name,
        type: fromDbEntityType(row.type),
        aliases: row.aliases,
        description: row.description,
        description_wiki: row.descriptionWiki,
      }),
    ),
    lastOrdinal: rows.at(-1)?.ordinal ?? afterOrdinal,
  };
}

async function nextSampleBatch(releaseId: string, split: Split, afterOrdinal: number): Promise<Batch> {
  const isTest = split === "test";
  const rows = await db.sample.findMany({
    where: { releaseId, split, ordinal: { gt: afterOrdinal } },
    orderBy: { ordinal: "asc" },
    take: BATCH,
    // The test split's gold is never read for a download.
    include: { entity: !isTest },
  });
  const lines = rows.map((row) => {
    if (isTest) return formatPublicTestLine({ id: row.sampleId, collection: row.collection, implicit_text: row.implicitText });
    if (!row.entity) throw new Error(`sample ${row.sampleId} has no entity`);
    const entity = { qid: row.entity.qid, name: row.entity.name, type: fromDbEntityType(row.entity.type), aliases: row.entity.aliases };
    const sample = { id: row.sampleId, qid: entity.qid, collection: row.collection, implicit_text: row.implicitText, explicit_text: row.explicitText };
    return formatGoldSampleLine(sample, entity);
  });
  return { lines, lastOrdinal: rows.at(-1)?.ordinal ?? afterOrdinal };
}
