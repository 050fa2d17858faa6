import { createHash } from "node:crypto";
import { canonicalJson, type CanonicalValue } from "./canonical-json";

/**
 * The public log (docs/public-log.md): one record per change to what readers
 * see, each chained to the one before by its hash, so a record can be neither
 * changed nor removed nor inserted without every later hash changing.
 *
 *   hash = lowercase hex SHA-256 of the UTF-8 bytes of RFC 8785 canonical JSON
 *          of the record without its "hash" member
 *
 * The first record's `prev` is GENESIS_HASH (64 zeros).
 */

export const GENESIS_HASH = "0".repeat(64);

/** What kinds of change the log records, with the words the /changes page uses. */
export const PUBLIC_LOG_KINDS = {
  "release.activated": "release activated",
  "release.superseded": "release marked superseded",
  "release.unsuperseded": "release's superseded mark taken back",
  "entry.published": "entry published",
  "entry.hidden": "entry hidden",
  "entry.unhidden": "entry shown again",
  "entry.fact-sheet-changed": "fact sheet changed",
  "entry.rescored": "entry re-scored (errata)",
  "baseline.marked": "baseline marked",
  "baseline.unmarked": "baseline unmarked",
  "reported.added": "reported result added",
  "reported.edited": "reported result edited",
  "reported.removed": "reported result removed",
} as const;

export type PublicLogKind = keyof typeof PUBLIC_LOG_KINDS;

/** A record's data: integers and strings, in objects and arrays (never a fraction: public numbers are the strings pages show). */
export type PublicLogData = { readonly [key: string]: PublicLogValue };
type PublicLogValue = string | number | readonly PublicLogValue[] | { readonly [key: string]: PublicLogValue };

export type PublicLogRecord = {
  seq: number;
  /** UTC, ISO 8601 with milliseconds: 2026-12-07T16:46:34.123Z */
  at: string;
  kind: PublicLogKind;
  /** The release as "name@version". */
  release: string;
  /** The entry's id, or null for a change of the release or of a reported result. */
  entry: string | null;
  /** One line, in the words of the page. */
  summary: string;
  data: PublicLogData;
  prev: string;
  hash: string;
};

export type UnhashedRecord = Omit<PublicLogRecord, "hash">;

function asCanonical(record: UnhashedRecord): CanonicalValue {
  const { seq, at, kind, release, entry, summary, data, prev } = record;
  return { seq, at, kind, release, entry, summary, data: data as CanonicalValue, prev };
}

export function hashRecord(record: UnhashedRecord): string {
  return createHash("sha256").update(canonicalJson(asCanonical(record)), "utf8").digest("hex");
}

/** The line /api/public-log serves for a record: its canonical JSON with the hash. */
export function recordLine(record: PublicLogRecord): string {
  return canonicalJson({ ...(asCanonical(record) as { [key: string]: CanonicalValue }), hash: record.hash });
}

export function isPublicLogKind(value: string): value is PublicLogKind {
  return Object.hasOwn(PUBLIC_LOG_KINDS, value);
}

/** The release label records carry: "irc-bench@1.0". */
export function releaseLabel(release: { name: string; version: string }): string {
  return `${release.name}@${release.version}`;
}
