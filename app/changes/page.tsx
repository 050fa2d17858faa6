import type { Metadata } from "next";
import Link from "next/link";
import { parseQuery } from "@/lib/core/input/parse-input";
import { isAppError } from "@/lib/core/errors";
import { publicLogQuerySchema, type PublicLogQuery } from "@/lib/core/api-schemas/public-log";
import { PUBLIC_LOG_KINDS, isPublicLogKind, type PublicLogRecord } from "@/lib/core/public-log/public-log-record";
import { getSignedHead, listLoggedReleases, listPublicLog } from "@/lib/domain/public-log/read-public-log";

export const metadata: Metadata = { title: "Changes" };

export const dynamic = "force-dynamic";

/** The newest records shown at once; older ones through ?after=SEQ or the JSON Lines. */
const PAGE_RECORDS = 500;

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function readQuery(raw: Record<string, string | string[] | undefined>): { query: PublicLogQuery; problem: string | null } {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === "string" && value !== "") params.set(key, value);
  }
  try {
    return { query: parseQuery(publicLogQuerySchema, params), problem: null };
  } catch (error) {
    return { query: {}, problem: isAppError(error) ? error.message : "Invalid query." };
  }
}

/**
 * /changes: the public log as a page (docs/public-log.md), newest first, filterable by release and entry
 * with a plain form (no JavaScript needed). Each record shows what it says and its errata in full.
 */
export default async function ChangesPage({ searchParams }: PageProps) {
  const { query, problem } = readQuery(await searchParams);
  const [records, releases, head] = await Promise.all([
    listPublicLog({ ...query, newestFirst: true, limit: PAGE_RECORDS }),
    listLoggedReleases(),
    getSignedHead(),
  ]);
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-3xl font-bold">Changes</h1>
        <p className="max-w-3xl text-muted">
          Every change to what readers see, newest first: releases activated or superseded, entries published, hidden
          or shown again, baselines, reported results, fact sheets, and re-scores with the verdicts and rank intervals
          they changed. Each record carries the hash of the one before; the operator signs the head (record {head.seq},{" "}
          <code className="break-all text-xs">{head.hash}</code>). Verify it with <code>irc-bench-client verify-log</code>{" "}
          (<Link href="/dataset#public-log">the key</Link>, <a href="/api/public-log">the log as JSON Lines</a>, its
          format in docs/public-log.md).
        </p>
      </header>
      <form method="get" action="/changes" className="flex flex-wrap items-end gap-4" aria-label="Filter the changes">
        <label className="flex flex-col text-sm">
          Release
          <select name="release" defaultValue={query.release ?? ""} className="rounded border border-line px-2 py-1">
            <option value="">every release</option>
            {releases.map((release) => (
              <option key={release} value={release}>
                {release}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm">
          Entry id
          <input name="entry" defaultValue={query.entry ?? ""} className="rounded border border-line px-2 py-1" size={28} />
        </label>
        <button type="submit" className="rounded border border-line px-3 py-1">
          Show
        </button>
        {(query.release !== undefined || query.entry !== undefined) && <Link href="/changes">all changes</Link>}
      </form>
      {problem !== null && <p role="alert">{problem}</p>}
      {records.length === 0 ? (
        <p data-testid="changes-empty">No change is recorded{query.entry || query.release ? " for this filter" : ""} yet.</p>
      ) : (
        <ol className="space-y-4" data-testid="changes-list">
          {records.map((record) => (
            <ChangeRecord key={record.seq} record={record} />
          ))}
        </ol>
      )}
      {records.length === PAGE_RECORDS && (
        <p className="text-sm text-muted">The {PAGE_RECORDS} newest records are shown; the whole log is at /api/public-log.</p>
      )}
    </div>
  );
}

function ChangeRecord({ record }: { record: PublicLogRecord }) {
  const verdicts = listOf(record.data.verdicts);
  const ranks = listOf(record.data.ranks);
  const values = listOf(record.data.values);
  return (
    <li className="rounded border border-line bg-white p-3" id={`seq-${record.seq}`} data-testid="change-record" data-kind={record.kind}>
      <p className="text-sm text-muted">
        <a href={`#seq-${record.seq}`}>#{record.seq}</a> · <time dateTime={record.at}>{record.at.replace("T", " ").replace(/\.\d+Z$/, " UTC")}</time> ·{" "}
        {isPublicLogKind(record.kind) ? PUBLIC_LOG_KINDS[record.kind] : record.kind} · {record.release}
        {record.entry !== null && (
          <>
            {" "}
            · <Link href={`/entries/${encodeURIComponent(record.entry)}`}>entry page</Link> ·{" "}
            <Link href={`/changes?entry=${encodeURIComponent(record.entry)}`}>its history</Link>
          </>
        )}
      </p>
      <p className="font-medium">{record.summary}</p>
      <ErrataList title="Errata: verdicts changed" changes={verdicts} line={(change) => `${change.view}: ${change.system} against ${change.other_system}: ${change.before} → ${change.after}`} />
      <ErrataList title="Rank intervals changed" changes={ranks} line={(change) => `${change.view}: ${change.system}: ${change.before} → ${change.after}`} />
      <ErrataList title="Shown values changed" changes={values} line={(change) => `${change.view}: ${change.system} (${change.metric}): ${change.before} → ${change.after}`} />
      <p className="text-xs text-muted">
        hash <code className="break-all">{record.hash}</code>
      </p>
    </li>
  );
}

/** One kind of a record's errata, a line each; nothing when it has none. */
function ErrataList({ title, changes, line }: { title: string; changes: Record<string, string>[]; line: (change: Record<string, string>) => string }) {
  if (changes.length === 0) return null;
  return (
    <div>
      <p className="text-sm font-semibold">{title}</p>
      <ul className="list-disc pl-6 text-sm">
        {changes.map((change, index) => (
          <li key={index}>{line(change)}</li>
        ))}
      </ul>
    </div>
  );
}

/** An errata list of a record's data: objects of strings. */
function listOf(value: unknown): Record<string, string>[] {
  return Array.isArray(value) ? (value.filter((item) => typeof item === "object" && item !== null) as Record<string, string>[]) : [];
}
