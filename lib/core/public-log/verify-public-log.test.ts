import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GENESIS_HASH, hashRecord, recordLine, type PublicLogRecord, type UnhashedRecord } from "./public-log-record";
import { findRewrittenRecord, parsePublicLog, verifyChain } from "./verify-public-log";
import { describeLogKey, isHeadSignedBy, signHead, signingKeyFromSeed } from "./signed-head";

function chain(contents: Array<Omit<UnhashedRecord, "seq" | "prev">>): PublicLogRecord[] {
  const records: PublicLogRecord[] = [];
  for (const content of contents) {
    const unhashed: UnhashedRecord = { ...content, seq: records.length + 1, prev: records.at(-1)?.hash ?? GENESIS_HASH };
    records.push({ ...unhashed, hash: hashRecord(unhashed) });
  }
  return records;
}

const FIRST: Omit<UnhashedRecord, "seq" | "prev"> = { at: "2026-12-07T10:00:00.000Z", kind: "entry.published", release: "irc-bench@1.0", entry: "e1", summary: "Alpha published", data: { track: "open", n: 3 } };

describe("the public log's records", () => {
  it("hash the canonical JSON written out by hand", () => {
    const [record] = chain([FIRST]);
    const canonical =
      '{"at":"2026-12-07T10:00:00.000Z","data":{"n":3,"track":"open"},"entry":"e1","kind":"entry.published","prev":"' +
      GENESIS_HASH +
      '","release":"irc-bench@1.0","seq":1,"summary":"Alpha published"}';
    expect(record?.hash).toBe(createHash("sha256").update(canonical).digest("hex"));
    const hash = record?.hash ?? "";
    expect(recordLine(record as PublicLogRecord)).toBe(canonical.replace('"entry":"e1",', `"entry":"e1","hash":"${hash}",`));
  });

  it("verify as a chain, and name the record that was changed, removed or rewritten", () => {
    const records = chain([FIRST, { ...FIRST, kind: "entry.hidden", summary: "Alpha hidden" }, { ...FIRST, kind: "entry.unhidden", summary: "Alpha shown" }]);
    const text = records.map((record) => `${recordLine(record)}\n`).join("");
    const parsed = parsePublicLog(text);
    expect(parsed.ok).toBe(true);
    expect(verifyChain(records)).toEqual({ ok: true, head: { seq: 3, hash: records[2]?.hash } });

    const edited = records.map((record) => (record.seq === 2 ? { ...record, summary: "Alpha was never hidden" } : record));
    expect(verifyChain(edited)).toMatchObject({ ok: false, problem: { seq: 2 } });
    expect(verifyChain([records[0], records[2]] as PublicLogRecord[])).toMatchObject({ ok: false, problem: { seq: 3 } });

    const rewritten = chain([FIRST, { ...FIRST, kind: "entry.hidden", summary: "Alpha hidden by mistake" }, { ...FIRST, summary: "x" }]);
    expect(verifyChain(rewritten).ok).toBe(true);
    const seen = records.slice(0, 3).map((record) => record.hash);
    expect(findRewrittenRecord(rewritten, seen)).toMatchObject({ seq: 2 });
    expect(findRewrittenRecord(records, seen.slice(0, 2))).toBeNull();
    expect(findRewrittenRecord(records.slice(0, 1), seen)).toMatchObject({ seq: 2 });
  });

  it("refuse a line with a fraction or an unknown member", () => {
    const [record] = chain([FIRST]);
    const line = JSON.parse(recordLine(record as PublicLogRecord)) as Record<string, unknown>;
    expect(parsePublicLog(JSON.stringify({ ...line, data: { value: 0.5 } }))).toMatchObject({ ok: false });
    expect(parsePublicLog(JSON.stringify({ ...line, extra: "x" }))).toMatchObject({ ok: false });
  });
});

describe("the signed head", () => {
  // RFC 8032 section 7.1, TEST 1: this seed's public key.
  const seed = Buffer.from("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "hex").toString("base64");
  const key = signingKeyFromSeed(seed);

  it("has the RFC 8032 public key and verifies only for the signed seq and hash", () => {
    const described = describeLogKey(key);
    expect(Buffer.from(described.publicKey, "base64").toString("hex")).toBe("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
    const head = signHead(key, { seq: 4, hash: "a".repeat(64), at: "2026-12-07T10:00:00.000Z" });
    expect(isHeadSignedBy(head, described.publicKey)).toBe(true);
    expect(isHeadSignedBy({ ...head, seq: 5 }, described.publicKey)).toBe(false);
    expect(isHeadSignedBy({ ...head, hash: "b".repeat(64) }, described.publicKey)).toBe(false);
  });

  it("refuses a seed that is not 32 bytes", () => {
    expect(() => signingKeyFromSeed(Buffer.alloc(31).toString("base64"))).toThrow(/32 bytes/);
  });
});
