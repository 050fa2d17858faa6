import type { Metadata } from "next";
import { PROTECTED_TEST_SIZE } from "@/lib/core/disclosure/disclose";
import Link from "next/link";
import { notFound } from "next/navigation";
import { SupersedeForm } from "@/components/releases/supersede-form";
import { SupersededBanner } from "@/components/releases/superseded-banner";
import { isMaintainer } from "@/lib/domain/accounts/actor";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { formatBytes } from "@/lib/core/format/bytes";
import { formatDate, formatDateTime } from "@/lib/core/format/dates";
import { formatCount, formatPercent } from "@/lib/core/format/numbers";
import { getReleaseDetail } from "@/lib/domain/releases/release-history";
import { PLATFORM_SCORING_VERSION, SCORER_VERSION } from "@/lib/core/scoring/score-report";
import { TableShell } from "@/components/ui/table-shell";
import { supersedeReleaseAction } from "./actions";

export const dynamic = "force-dynamic";


type PageProps = { params: Promise<{ version: string }> };

function decodeVersion(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  return { title: `Release ${decodeVersion((await params).version).slice(0, 64)}` };
}

function leaderboardHref(version: string, isActive: boolean): string {
  return isActive ? "/leaderboard" : `/leaderboard?release=${encodeURIComponent(version)}`;
}

/** A primary metric (alias or hit@1: both rates) as the leaderboard shows it. */
function RescoreValue({ value, entryId }: { value: number | null; entryId: string }) {
  return value === null ? <Link href={`/changes?entry=${encodeURIComponent(entryId)}`}>change log</Link> : <>{formatPercent(value)}</>;
}

type ReleaseDetail = NonNullable<Awaited<ReturnType<typeof getReleaseDetail>>>;

/** One release's page, one named section per heading. */
export default async function ReleasePage({ params }: PageProps) {
  const version = decodeVersion((await params).version);
  const release = version.length <= 64 ? await getReleaseDetail(version) : null;
  if (release === null) notFound();
  const actor = await getActor();

  return (
    <div className="space-y-10">
      <ReleaseHeader release={release} />
      <ReleaseCard release={release} />
      <ReleaseFiles release={release} />
      <ReleaseScorerVersions release={release} />
      <ReleaseRescores release={release} />
      {isMaintainer(actor) && <ReleaseMaintainers release={release} />}
    </div>
  );
}

function ReleaseHeader({ release }: { release: ReleaseDetail }) {
  return (
    <header className="space-y-2">
      <p className="text-sm">
        <Link href="/dataset/releases">← All releases</Link>
      </p>
      <h1 className="text-3xl font-bold">
        Release {release.name} {release.version}
      </h1>
      <p className="max-w-3xl text-muted">{release.description}</p>
      <SupersededBanner version={release.version} supersededBy={release.supersededBy} supersededAt={release.supersededAt} />
    </header>
  );
}

function ReleaseCard({ release }: { release: ReleaseDetail }) {
  const { stats } = release;
  const status = release.isActive ? "active (the leaderboard's default)" : release.supersededBy ? `superseded by ${release.supersededBy.version}` : "not active";
  return (
    <section aria-labelledby="card" className="space-y-3">
      <h2 id="card" className="text-2xl font-semibold">
        Card
      </h2>
      <dl className="grid max-w-2xl grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="font-medium">Status</dt>
        <dd data-testid="release-status">{status}</dd>
        <dt className="font-medium">Imported</dt>
        <dd>{formatDateTime(release.importedAt)}</dd>
        <dt className="font-medium">Samples</dt>
        <dd>
          train {formatCount(stats.splits.train.samples)}, dev {formatCount(stats.splits.dev.samples)}, test{" "}
          {formatCount(stats.splits.test.samples)}
        </dd>
        <dt className="font-medium">Knowledge base</dt>
        <dd>{formatCount(stats.kbEntities)} entities</dd>
        <dt className="font-medium">Smallest group shown</dt>
        <dd>{release.minGroupN} test samples (protocol §12)</dd>
        <dt className="font-medium">Leaderboard</dt>
        <dd>
          <Link href={leaderboardHref(release.version, release.isActive)}>Leaderboard of release {release.version}</Link>
        </dd>
      </dl>
      {stats.splits.test.samples < PROTECTED_TEST_SIZE && (
        <p role="note" className="max-w-3xl text-sm">
          The test split has fewer than {formatCount(PROTECTED_TEST_SIZE)} samples: its gold is illustrative, not protected (protocol §12).
        </p>
      )}
    </section>
  );
}

function ReleaseFiles({ release }: { release: ReleaseDetail }) {
  return (
    <section aria-labelledby="files" className="space-y-3">
      <h2 id="files" className="text-2xl font-semibold">
        Files
      </h2>
      <TableShell
        caption="The exact bytes served, with their size and SHA-256 (check with sha256sum)"
        head={
          <>
            <th scope="col" className="text-left">File</th>
            <th scope="col" className="text-right">Size</th>
            <th scope="col" className="text-left">SHA-256</th>
          </>
        }
      >
        {release.files.map((file) => (
          <tr key={file.name} className="border-b border-line">
            <th scope="row" className="text-left">
              <a href={`/dataset/download/${file.name}?release=${encodeURIComponent(release.id)}`} download>
                {release.name}-{release.version}-{file.name}
              </a>
            </th>
            <td className="text-right whitespace-nowrap">{formatBytes(file.digest.bytes)}</td>
            <td>
              <code className="break-all text-xs">{file.digest.sha256}</code>
            </td>
          </tr>
        ))}
      </TableShell>
    </section>
  );
}

function ReleaseScorerVersions({ release }: { release: ReleaseDetail }) {
  return (
    <section aria-labelledby="scorers" className="space-y-3">
      <h2 id="scorers" className="text-2xl font-semibold">
        Platform scoring versions
      </h2>
      {release.scorerVersions.length === 0 ? (
        <p>Nothing has been scored on this release yet.</p>
      ) : (
        <table className="bg-white text-sm">
          <caption className="mb-1 text-left text-muted">Stored scores of this release by the platform scoring version they were stored under (this server runs platform scoring{" "}
            {PLATFORM_SCORING_VERSION}, with scorer {SCORER_VERSION}, the version irc-bench-score.mjs prints)</caption>
          <thead className="border-b border-line">
            <tr>
              <th scope="col" className="text-left">Platform scoring</th>
              <th scope="col" className="text-left">Split</th>
              <th scope="col" className="text-right">Scores</th>
            </tr>
          </thead>
          <tbody>
            {release.scorerVersions.map((row) => (
              <tr key={`${row.scorerVersion}|${row.split}`} className="border-b border-line">
                <td>
                  {row.scorerVersion}
                  {row.isCurrent ? " (current)" : " (stale until re-scored)"}
                </td>
                <td>{row.split}</td>
                <td className="text-right">{formatCount(row.scores)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ReleaseRescores({ release }: { release: ReleaseDetail }) {
  return (
    <section aria-labelledby="rescores" className="space-y-3">
      <h2 id="rescores" className="text-2xl font-semibold">
        Re-scoring events
      </h2>
      {release.publicRescores.length === 0 && release.privateRescores.length === 0 ? (
        <p>No score of this release has been re-made with a different result, scorer or gold.</p>
      ) : (
        <>
          {release.publicRescores.length > 0 && (
            <TableShell
              caption={
                <>
                  Public entries and baselines whose score was re-made: the primary metric before and after on dev; a test entry&apos;s public
                  numbers before and after (perturbed, protocol §12) are in <Link href="/changes">the change log</Link>
                </>
              }
              head={
                <>
                  <th scope="col" className="text-left">When</th>
                  <th scope="col" className="text-left">Entry</th>
                  <th scope="col" className="text-left">Split</th>
                  <th scope="col" className="text-left">Platform scoring</th>
                  <th scope="col" className="text-left">Gold</th>
                  <th scope="col" className="text-right">Before</th>
                  <th scope="col" className="text-right">After</th>
                </>
              }
            >
              {release.publicRescores.map((rescore) => (
                <tr key={`${rescore.entryId}|${rescore.at}`} className="border-b border-line" data-testid="public-rescore">
                  <td className="whitespace-nowrap">{formatDate(rescore.at)}</td>
                  <td>
                    <Link href={`/entries/${rescore.entryId}`}>{rescore.system}</Link> ({rescore.track}-world, {rescore.metric})
                  </td>
                  <td>{rescore.split}</td>
                  <td>{rescore.beforeScorerVersion === rescore.afterScorerVersion ? rescore.afterScorerVersion : `${rescore.beforeScorerVersion} → ${rescore.afterScorerVersion}`}</td>
                  <td>{rescore.beforeGoldVersion === rescore.afterGoldVersion ? "unchanged" : `${rescore.beforeGoldVersion} → ${rescore.afterGoldVersion}`}</td>
                  <td className="text-right tabular-nums">
                    <RescoreValue value={rescore.before} entryId={rescore.entryId} />
                  </td>
                  <td className="text-right tabular-nums">
                    <RescoreValue value={rescore.after} entryId={rescore.entryId} />
                  </td>
                </tr>
              ))}
            </TableShell>
          )}
          {release.privateRescores.length > 0 && (
            <ul className="list-disc pl-6 text-sm">
              {release.privateRescores.map((group) => (
                <li key={`${group.split}|${group.beforeScorerVersion}|${group.afterScorerVersion}|${group.isGoldChanged}`}>
                  {formatCount(group.count)} unpublished {group.split} submission{group.count === 1 ? "" : "s"} re-scored (scorer {group.beforeScorerVersion} →{" "}
                  {group.afterScorerVersion}
                  {group.isGoldChanged ? ", new gold" : ""}); their numbers are their owners'.
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function ReleaseMaintainers({ release }: { release: ReleaseDetail }) {
  return (
    <section aria-labelledby="maintain" className="space-y-3">
      <h2 id="maintain" className="text-2xl font-semibold">
        Maintainers
      </h2>
      {release.isActive ? (
        <p className="text-sm">This is the active release: activate its successor first, then mark this one superseded.</p>
      ) : (
        <SupersedeForm
          action={supersedeReleaseAction}
          version={release.version}
          candidates={release.otherReleases.map((other) => other.version)}
          supersededBy={release.supersededBy?.version ?? null}
        />
      )}
    </section>
  );
}
