import Link from "next/link";
import { getExampleSampleId } from "@/lib/domain/releases/get-example-pair";
import { findActiveRelease } from "@/lib/domain/releases/get-release";
import { CLI_TOOLS } from "@/lib/domain/releases/cli-downloads";
import { readReleaseStats } from "@/lib/core/dataset/release-json";
import { MAIN_NAV } from "@/components/site-nav";

export const dynamic = "force-dynamic";

type ActiveRelease = Awaited<ReturnType<typeof findActiveRelease>>;
type ReleaseStats = ReturnType<typeof readReleaseStats>;

export default async function HomePage() {
  const sections = MAIN_NAV.filter((link) => link.href !== "/");
  const release = await findActiveRelease();
  const stats = release ? readReleaseStats(release.stats) : null;
  // The examples use an id of the active release, so they match the files participants download.
  const exampleId = (release ? await getExampleSampleId(release.id) : null) ?? "<id from dev.jsonl>";
  return (
    <div className="space-y-10">
      <HomeIntro release={release} stats={stats} />

      <HomeTracks exampleId={exampleId} />

      <HomeOffline />

      {sections.length > 0 && <HomeExplore sections={sections} />}
    </div>
  );
}

function HomeIntro({ release, stats }: { release: ActiveRelease; stats: ReleaseStats | null }) {
  return (
    <section className="space-y-4">
      <h1 className="text-3xl font-bold">IRC-Bench: recognising entities from contextual cues</h1>
      <p className="max-w-3xl text-lg text-muted">
        IRC-Bench is a benchmark of implicit entity recognition. Each sample is a first-person reminiscence, an
        oral-history narrative, from which one entity (a place, person, organization, event, work or military unit)
        has been elided. A system must recover it from the cues that remain: dates, places, roles and related events.
      </p>
      <p className="max-w-3xl">
        This site is the benchmark&apos;s home: participants download the data, score development predictions offline
        with the same code the server runs, and submit test predictions whose gold labels never leave the server;
        readers compare systems with confidence intervals and significance tests against baselines.
      </p>
      {release && stats && (
        <p className="rounded border border-line bg-white p-3" data-testid="active-release">
          Active release: <Link href="/dataset">{release.name} {release.version}</Link> ·{" "}
          {stats.splits.train.samples + stats.splits.dev.samples + stats.splits.test.samples} samples ·{" "}
          {stats.kbEntities} knowledge-base entities · <Link href="/leaderboard">see the leaderboard</Link>
        </p>
      )}
    </section>
  );
}

function HomeTracks({ exampleId }: { exampleId: string }) {
  return (
    <section aria-labelledby="tracks" className="grid gap-6 md:grid-cols-2">
      <h2 id="tracks" className="sr-only">
        Tracks
      </h2>
      <div className="min-w-0 rounded border border-line bg-white p-5">
        <h3 className="mb-2 text-xl font-semibold">Open-world track</h3>
        <p>
          Name the entity in free text. Answers are matched against the gold entity in four cumulative tiers: exact
          name, alias, containment and token Jaccard of at least 0.5. The primary metric is alias-aware accuracy.
        </p>
        <pre className="mt-3 overflow-x-auto rounded bg-slate-100 p-3 text-sm">
          {`{"id": "${exampleId}", "prediction": "Attack on Pearl Harbor"}`}
        </pre>
      </div>
      <div className="min-w-0 rounded border border-line bg-white p-5">
        <h3 className="mb-2 text-xl font-semibold">Closed-world track</h3>
        <p>
          Rank up to 100 Wikidata entities from the knowledge base, best first. Scored by Hit@1, Hit@3, Hit@5,
          Hit@10, MRR and alias-aware Hit@1; the primary metric is Hit@1.
        </p>
        <pre className="mt-3 overflow-x-auto rounded bg-slate-100 p-3 text-sm">
          {`{"id": "${exampleId}", "ranking": ["Q52418", "Q3046"]}`}
        </pre>
      </div>
    </section>
  );
}

function HomeOffline() {
  return (
    <section aria-labelledby="offline" className="space-y-3">
      <h2 id="offline" className="text-2xl font-semibold">
        Score your development predictions offline
      </h2>
      <p>
        The command-line scorer runs exactly the code the scoring worker runs, so its numbers are the site&apos;s numbers. Download{" "}
        <a href={CLI_TOOLS.scorer.downloadPath}>{CLI_TOOLS.scorer.fileName}</a> (one file, plain Node 20 or later) and the release from the{" "}
        <Link href="/dataset">dataset page</Link>, then run in that folder:
      </p>
      <pre className="overflow-x-auto rounded bg-slate-900 p-4 text-sm text-slate-100" data-testid="home-score-command">
        {`node ${CLI_TOOLS.scorer.fileName} --release FOLDER --split dev --predictions preds.jsonl`}
      </pre>
    </section>
  );
}

function HomeExplore({ sections }: { sections: (typeof MAIN_NAV)[number][] }) {
  return (
    <section aria-labelledby="explore" className="space-y-3">
      <h2 id="explore" className="text-2xl font-semibold">
        Explore
      </h2>
      <ul className="list-disc pl-6">
        {sections.map((link) => (
          <li key={link.href}>
            <Link href={link.href}>{link.label}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
