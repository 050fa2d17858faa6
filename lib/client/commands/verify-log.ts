import { ClientError } from "@/lib/client/client-error";
import { headsPath, readHeads, writeHeads } from "@/lib/client/log-heads-file";
import { logKeySchema, signedHeadSchema, isHeadSignedBy } from "@/lib/core/public-log/signed-head";
import { findRewrittenRecord, parsePublicLog, verifyChain } from "@/lib/core/public-log/verify-public-log";
import { writeJson, type CommandContext } from "./context";

/**
 * `verify-log`: fetches the server's public log, its signed head and its key
 * (docs/public-log.md), checks every record's hash and link, that the head is
 * the last record and is signed by the key, and that the log extends what this
 * machine verified before from that server (the same key, the same hash at
 * every seq seen). Prints the head and remembers it. Exit 1 when the log fails
 * any check, naming the first record that does.
 */
export async function runVerifyLog(context: CommandContext, options: { configFile: string }): Promise<0> {
  const { api } = context;
  const server = api.baseUrl;
  const key = await api.json("/api/public-log/key", logKeySchema);
  const head = await api.json("/api/public-log/head", signedHeadSchema);
  const text = await (await api.fetch("/api/public-log", { isLong: true, headers: { Accept: "application/jsonl" } })).text();

  const fail = (lines: string[]): never => {
    throw new ClientError(1, [`The public log of ${server} does NOT verify:`, ...lines]);
  };
  const parsed = parsePublicLog(text);
  if (!parsed.ok) fail([parsed.problem.message]);
  const served = parsed.ok ? parsed.records : [];
  const chain = verifyChain(served);
  if (!chain.ok) fail([chain.problem.message]);
  // The head is read before the log: records appended in between are checked as links but only the signed part is remembered.
  const records = served.slice(0, head.seq);
  const last = { seq: head.seq, hash: head.hash };
  const headRecord = head.seq === 0 ? { hash: "0".repeat(64) } : records[head.seq - 1];
  if (headRecord === undefined || headRecord.hash !== head.hash) fail([`the signed head (record ${head.seq}, ${head.hash.slice(0, 16)}...) is not a record of the log served`]);
  if (!isHeadSignedBy(head, key.publicKey)) fail([`the head's signature does not verify with the server's key ${key.keyId}`]);

  const headsFile = headsPath(options.configFile);
  const heads = await readHeads(headsFile);
  const seen = heads.servers[server];
  if (seen !== undefined) {
    if (seen.publicKey !== key.publicKey) {
      fail([
        `the server signs with another key (${key.keyId}) than the one verified before from it; if the operator announced a new key, remove "${server}" from ${headsFile} to trust it`,
      ]);
    }
    const rewritten = findRewrittenRecord(records, seen.hashes);
    if (rewritten !== null) fail([rewritten.message, `(verified before up to record ${seen.seq}, ${seen.hash.slice(0, 16)}..., on ${seen.verifiedAt})`]);
  }
  const verifiedAt = context.now().toISOString();
  heads.servers[server] = { publicKey: key.publicKey, seq: last.seq, hash: last.hash, hashes: records.map((record) => record.hash), verifiedAt };
  await writeHeads(headsFile, heads);

  const result = { server, seq: last.seq, hash: last.hash, keyId: key.keyId, extends: seen === undefined ? null : { seq: seen.seq, hash: seen.hash } };
  if (context.isJson) writeJson(context, result);
  else {
    context.stdout.write(`The public log of ${server} verifies: ${last.seq} record(s), chain and signature (key ${key.keyId}).\n`);
    context.stdout.write(`head: record ${last.seq} ${last.hash}\n`);
    context.stdout.write(seen === undefined ? "First verification from this server: its head is remembered.\n" : `It extends the head verified on ${seen.verifiedAt} (record ${seen.seq}).\n`);
  }
  return 0;
}
