import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { CiBarChart } from "@/components/charts/ci-bar-chart";
import { HitAtKChart } from "@/components/charts/hit-at-k-chart";
import { CollectionTable, ComparisonsTable, MetricsTable, TypeMatrix } from "@/components/leaderboard/entry-tables";
import { Badge } from "@/components/leaderboard/estimate-text";
import { FactSheetView } from "@/components/fact-sheet/fact-sheet-view";
import { TierBadge } from "@/components/provenance/tier-badge";
import { TIER_DESCRIPTIONS } from "@/lib/core/fact-sheet/tiers";
import { ExportLinks } from "@/components/leaderboard/export-links";
import { HubExportLinks } from "@/components/leaderboard/hub-export-links";
import { OPEN_METRIC_KEYS, PRIMARY_METRIC, metricKeysOf } from "@/lib/core/scoring/tracks";
import { describeBars, hitAtKPoints, metricBars, typeBars } from "@/lib/core/leaderboard/chart-data";
import { formatCount, formatEstimate, formatParameterCount } from "@/lib/core/format/numbers";
import { formatDate, formatDateTime } from "@/lib/core/format/dates";
import { formatScoreVersions, VERSIONS_EXPLANATION } from "@/lib/core/format/versions";
import {
  bootstrapIntervalShort,
  NO_GROUP_MRR_EXPLANATION,
  PERTURBATION_EXPLANATION,
  PUBLIC_INTERVAL_EXPLANATION,
  PUBLIC_INTERVAL_SHORT,
  roundingExplanation,
  sliceNExplanation,
} from "@/lib/core/format/explanations";
import { getLeaderboard } from "@/lib/domain/leaderboard/get-leaderboard";
import { findPublicEntry } from "@/lib/domain/leaderboard/get-public-entry";
import { listPublicEntries } from "@/lib/domain/leaderboard/list-public-entries";
import { safeExternalUrl } from "@/lib/core/leaderboard/public-entry";
import { entryIdSchema } from "@/lib/core/leaderboard/query-schemas";
import { METRIC_LABELS } from "@/lib/core/leaderboard/views";

export const dynamic = "force-dynamic";

type PageProps = { params: Promise<{ id: string }> };

type Comparable = { id: string; system: string; track: string; isBaseline: boolean };

/** Entries this one can be compared with: test entries come from the cached leaderboard, no extra query. */
async function comparableEntries(id: string, releaseId: string, split: "dev" | "test"): Promise<Comparable[]> {
  if (split === "test") {
    const snapshot = await getLeaderboard({ track: "unified", scope: "all" });
    if (snapshot === null || snapshot.view.release.id !== releaseId) return [];
    return snapshot.view.rows.flatMap((row) =>
      row.entryId === null || row.entryId === id ? [] : [{ id: row.entryId, system: row.system, track: row.track, isBaseline: row.kind === "baseline" }],
    );
  }
  const list = await listPublicEntries({ kind: "all", split });
  return list === null || list.release.id !== releaseId ? [] : list.entries;
}

async function loadEntry(id: string) {
  const parsed = entryIdSchema.safeParse(id);
  return parsed.success ? findPublicEntry(parsed.data) : null;
}

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const entry = await loadEntry((await params).id);
  return { title: entry === null ? "Entry not found" : entry.system };
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex gap-2">
      <dt className="w-36 shrink-0 font-medium">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

type PublicEntry = NonNullable<Awaited<ReturnType<typeof loadEntry>>>;
type EntryScoreOf = NonNullable<PublicEntry["score"]>;

/** The public page of one entry, one named section per heading. */
export default async function EntryPage({ params }: PageProps) {
  const entry = await loadEntry((await params).id);
  if (entry === null) {
    notFound();
  }
  const { score } = entry;
  const others = (await comparableEntries(entry.id, entry.release.id, entry.split)).filter((other) => other.id !== entry.id);
  const splitLabel = splitLabelOf(entry);

  return (
    <div className="space-y-10">
      <EntryHeader entry={entry} splitLabel={splitLabel} />
      <EntryAbout entry={entry} />
      {(!entry.isBaseline || entry.factSheet !== null) && <EntryFactSheet entry={entry} />}
      {score === null ? (
        <p>This entry has no score yet.</p>
      ) : (
        <>
          <EntryScores entry={entry} score={score} splitLabel={splitLabel} />
          <EntryByType entry={entry} score={score} />
          <EntryByCollection entry={entry} score={score} />
          <EntryComparisons entry={entry} others={others} />
          <EntryProvenance entry={entry} score={score} />
        </>
      )}
    </div>
  );
}

function splitLabelOf(entry: PublicEntry): string {
  return entry.split === "test"
    ? `ranking slice of the test split of ${entry.release.name} ${entry.release.version}`
    : `${entry.split} split of ${entry.release.name} ${entry.release.version}`;
}

function EntryHeader({ entry, splitLabel }: { entry: PublicEntry; splitLabel: string }) {
  const { score } = entry;
  const primary = PRIMARY_METRIC[entry.track];
  return (
    <header className="space-y-2">
      <p className="text-sm">
        <Link href={`/leaderboard?track=${entry.track}`}>← Leaderboard</Link> ·{" "}
        <Link href={`/changes?entry=${encodeURIComponent(entry.id)}`} data-testid="entry-history-link">
          history of this entry
        </Link>
      </p>
      <h1 className="text-3xl font-bold">
        {entry.system}
        {entry.isBaseline && <Badge tone="baseline">baseline</Badge>}
        <TierBadge tier={entry.provenance.tier} />
        <Badge tone="track">{entry.track === "open" ? "open-world" : "closed-world"}</Badge>
        {score?.isStale && (
          <Badge tone="stale" title="Scored with an older scorer version or gold; it will be re-scored">
            stale
          </Badge>
        )}
      </h1>
      <p className="text-muted">
        {entry.team}
        {entry.affiliation ? ` · ${entry.affiliation}` : ""} · {splitLabel}
      </p>
      {score && (
        <p className="text-lg">
          {METRIC_LABELS[primary]} (primary metric):{" "}
          <strong>{formatEstimate({ value: score.metrics[primary] ?? Number.NaN, ci95: score.ci95[primary] ?? null }, primary)}</strong>
        </p>
      )}
    </header>
  );
}

function EntryAbout({ entry }: { entry: PublicEntry }) {
  const paperUrl = safeExternalUrl(entry.paperUrl);
  const codeUrl = safeExternalUrl(entry.codeUrl);
  return (
    <section aria-labelledby="about" className="space-y-3">
      <h2 id="about" className="text-2xl font-semibold">
        About this entry
      </h2>
      {entry.description && <p className="max-w-3xl whitespace-pre-line">{entry.description}</p>}
      <dl className="space-y-1 text-sm">
        <Fact term="System">{entry.system}</Fact>
        <Fact term="Team">{entry.team}</Fact>
        {entry.affiliation && <Fact term="Affiliation">{entry.affiliation}</Fact>}
        <Fact term="Track">{entry.track === "open" ? "Open-world (free-text names)" : "Closed-world (ranked KB entities)"}</Fact>
        <Fact term="Parameters">{formatParameterCount(entry.parameterCount)}</Fact>
        <Fact term="Weights">{entry.isOpenWeights === null ? "not stated" : entry.isOpenWeights ? "open" : "closed"}</Fact>
        <Fact term="Provenance">
          <TierBadge tier={entry.provenance.tier} /> {TIER_DESCRIPTIONS[entry.provenance.tier]}
          {entry.provenance.reproducedAt && (
            <span data-testid="reproduced-by">
              {" "}
              Reproduced by {entry.provenance.reproducedBy ?? "a former maintainer"} on {formatDate(entry.provenance.reproducedAt)}.
            </span>
          )}
        </Fact>
        <Fact term="Paper">{paperUrl ? <a href={paperUrl} rel="noopener noreferrer nofollow" className="break-all">{paperUrl}</a> : "–"}</Fact>
        <Fact term="Code">{codeUrl ? <a href={codeUrl} rel="noopener noreferrer nofollow" className="break-all">{codeUrl}</a> : "–"}</Fact>
        <Fact term="Published">{entry.publishedAt ? formatDate(entry.publishedAt) : entry.isBaseline ? "baseline" : "–"}</Fact>
        <Fact term="Submitted">{formatDate(entry.createdAt)}</Fact>
      </dl>
    </section>
  );
}

function EntryFactSheet({ entry }: { entry: PublicEntry }) {
  return (
    <section aria-labelledby="fact-sheet-heading" className="space-y-3">
      <h2 id="fact-sheet-heading" className="text-2xl font-semibold">
        Fact sheet
      </h2>
      {entry.factSheet === null ? (
        <p>This entry has no fact sheet: it was published before fact sheets existed and gave no details.</p>
      ) : (
        <FactSheetView sheet={entry.factSheet} missing={entry.factSheetMissing} />
      )}
    </section>
  );
}

function EntryScores({ entry, score, splitLabel }: { entry: PublicEntry; score: EntryScoreOf; splitLabel: string }) {
  const keys = metricKeysOf(entry.track);
  const primary = PRIMARY_METRIC[entry.track];
  const typeChart = typeBars(score, primary);
  return (
    <section aria-labelledby="scores" className="space-y-4">
      <h2 id="scores" className="text-2xl font-semibold">
        Scores
      </h2>
      <MetricsTable
        score={score}
        keys={keys}
        caption={`Every metric on the ${formatCount(score.n)} samples of the ${splitLabel}, in percent (MRR as a decimal), with ${entry.split === "test" ? `95% intervals ${PUBLIC_INTERVAL_SHORT}` : bootstrapIntervalShort()}`}
      />
      {entry.split === "test" && (
        <ul className="max-w-3xl list-disc space-y-1 pl-6 text-sm" data-testid="entry-explanations">
          <li data-testid="interval-explanation">{PUBLIC_INTERVAL_EXPLANATION}</li>
          <li data-testid="explain-n">{sliceNExplanation({ rankingN: score.n })}</li>
          <li data-testid="explain-perturbation">{PERTURBATION_EXPLANATION}</li>
        </ul>
      )}
      {score.isStale ? (
        <p className="text-sm text-muted">Exports for other hubs are offered again once this entry is re-scored on the current gold.</p>
      ) : (
        <HubExportLinks entryId={entry.id} />
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        {entry.track === "open" ? (
          <CiBarChart
            bars={metricBars(score, OPEN_METRIC_KEYS)}
            title={`Cumulative accuracy by matching tier: ${describeBars(metricBars(score, OPEN_METRIC_KEYS), "alias")}`}
            valueLabel="Accuracy (%)"
            max={100}
            color="#0d9488"
          />
        ) : (
          <HitAtKChart points={hitAtKPoints(score)} title={`Hit@K curve: ${hitAtKPoints(score).map((point) => `Hit@${point.k} ${point.value}%`).join(", ")}`} />
        )}
        <CiBarChart
          bars={typeChart}
          title={`${METRIC_LABELS[primary]} per entity type with 95% intervals: ${describeBars(typeChart, primary)}`}
          valueLabel={`${METRIC_LABELS[primary]} (%)`}
          max={100}
        />
      </div>
    </section>
  );
}

function EntryByType({ entry, score }: { entry: PublicEntry; score: EntryScoreOf }) {
  const keys = metricKeysOf(entry.track);
  const exportBase = `/api/entries/${entry.id}/export`;
  return (
    <section aria-labelledby="by-type" className="space-y-3">
      <h2 id="by-type" className="text-2xl font-semibold">
        By entity type
      </h2>
      {score.minGroupN !== null && score.coarseBelowN !== null && (
        <p className="max-w-3xl text-sm text-muted" data-testid="group-disclosure-note">
          On the ranking slice. {roundingExplanation({ minGroupN: score.minGroupN, coarseBelowN: score.coarseBelowN })} {NO_GROUP_MRR_EXPLANATION} Small groups
          would give single hidden answers away (<Link href="/dataset#integrity">protocol §12</Link>).
        </p>
      )}
      <TypeMatrix
        score={score}
        keys={keys}
        track={entry.track}
        caption={`Entity types by ${entry.track === "open" ? "matching tier" : "metric"}, each with its ${
          entry.split === "test" ? `95% interval ${PUBLIC_INTERVAL_SHORT}, n the type's` : `${bootstrapIntervalShort()}, resampled within the type`
        }`}
      />
      <ExportLinks base={`${exportBase}?table=by-type`} label="Download this table" />
    </section>
  );
}

function EntryByCollection({ entry, score }: { entry: PublicEntry; score: EntryScoreOf }) {
  const keys = metricKeysOf(entry.track);
  const exportBase = `/api/entries/${entry.id}/export`;
  return (
    <section aria-labelledby="by-collection" className="space-y-3">
      <h2 id="by-collection" className="text-2xl font-semibold">
        By collection
      </h2>
      <CollectionTable score={score} keys={keys} caption="Scores per thematic collection, in percent (MRR as a decimal)" />
      <ExportLinks base={`${exportBase}?table=by-collection`} label="Download this table" />
    </section>
  );
}

function EntryComparisons({ entry, others }: { entry: PublicEntry; others: Comparable[] }) {
  return (
    <section aria-labelledby="comparisons" className="space-y-3">
      <h2 id="comparisons" className="text-2xl font-semibold">
        Comparisons with the baselines
      </h2>
      {entry.comparisons.length === 0 ? (
        <p>No baseline of this split is scored against the same gold yet.</p>
      ) : (
        <>
          <p className="max-w-3xl text-sm">
            {entry.split === "test" ? (
              <>
                The verdicts of the leaderboard&apos;s <strong>{entry.comparisons[0]?.view}</strong> view: McNemar&apos;s exact test of each pair on
                the ranking slice, Holm-adjusted among the view&apos;s entries (protocol §13), so each pair reads here as it reads on the
                leaderboard, the matrix and the compare page. The difference is of the shown values.
              </>
            ) : (
              <>McNemar&apos;s exact test of each pair on the dev split, Holm-adjusted across this track&apos;s baselines (protocol §9).</>
            )}
          </p>
          <ComparisonsTable comparisons={entry.comparisons} caption={`Against each baseline (${entry.track === "open" ? "alias" : "hit@1"})`} track={entry.track} />
        </>
      )}
      {others.length > 0 && (
        <form action="/compare" method="get" className="flex max-w-full flex-wrap items-end gap-2 text-sm">
          <input type="hidden" name="a" value={entry.id} />
          <label className="flex min-w-0 max-w-full flex-col gap-1">
            <span className="font-medium">Compare with another entry</span>
            <select name="b" className="w-full max-w-full rounded border border-line px-2 py-1 sm:w-auto">
              {others.map((other) => (
                <option key={other.id} value={other.id}>
                  {other.system} ({other.track}
                  {other.isBaseline ? ", baseline" : ""})
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="rounded border border-line bg-white px-3 py-1 hover:bg-slate-100">
            Compare
          </button>
        </form>
      )}
    </section>
  );
}

function EntryProvenance({ entry, score }: { entry: PublicEntry; score: EntryScoreOf }) {
  return (
    <section aria-labelledby="provenance" className="space-y-2">
      <h2 id="provenance" className="text-2xl font-semibold">
        Provenance
      </h2>
      <dl className="space-y-1 text-sm">
        <Fact term="Versions">
          <span data-testid="score-versions">{formatScoreVersions({ scorer: score.scorerVersion, platform: score.platformScoringVersion })}</span>
          {score.isStale && " (stale: awaiting re-scoring)"}
          <span className="block text-xs text-muted">{VERSIONS_EXPLANATION}</span>
        </Fact>
        <Fact term="Gold version">
          <code className="break-all text-xs">{score.goldVersion}</code>
        </Fact>
        <Fact term="Scored">{formatDateTime(score.computedAt)}</Fact>
        <Fact term="Release">
          {entry.release.name} {entry.release.version}, {entry.split} split
        </Fact>
        <Fact term="JSON">
          <a href={`/api/entries/${entry.id}`}>
            <code className="break-all">/api/entries/{entry.id}</code>
          </a>
        </Fact>
      </dl>
    </section>
  );
}
