import type { Metadata } from "next";
import Link from "next/link";
import { formatDate } from "@/lib/core/format/dates";
import { listReleaseChangelog } from "@/lib/domain/releases/release-history";
import { formatCount } from "@/lib/core/format/numbers";

export const metadata: Metadata = { title: "Releases" };
export const dynamic = "force-dynamic";

/** The changelog across releases: newest first, what changed from the one before, and each release's state. */
export default async function ReleasesPage() {
  const releases = await listReleaseChangelog();
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <p className="text-sm">
          <Link href="/dataset">← Dataset</Link>
        </p>
        <h1 className="text-3xl font-bold">Releases</h1>
        <p className="max-w-3xl text-muted">
          Every imported release of the dataset, newest first, with what changed from the one before. A superseded release keeps its leaderboard,
          labelled as such; the active release is the leaderboard&apos;s default.
        </p>
      </header>
      {releases.length === 0 ? (
        <p>No release has been imported yet.</p>
      ) : (
        <ol className="space-y-6" aria-label="Changelog">
          {releases.map((release) => (
            <li key={release.id} className="space-y-1 rounded border border-line bg-white p-4" data-testid="changelog-entry">
              <h2 className="text-xl font-semibold">
                <Link href={`/dataset/releases/${encodeURIComponent(release.version)}`}>
                  {release.name} {release.version}
                </Link>{" "}
                <span className="text-sm font-normal text-muted">
                  imported {formatDate(release.importedAt)} ·{" "}
                  {release.isActive ? "active" : release.supersededBy ? `superseded by ${release.supersededBy.version}` : "not active"}
                </span>
              </h2>
              <p className="text-sm">{release.description}</p>
              <p className="text-sm">
                {formatCount(release.stats.splits.train.samples)} train, {formatCount(release.stats.splits.dev.samples)} dev,{" "}
                {formatCount(release.stats.splits.test.samples)} test samples; {formatCount(release.stats.kbEntities)} KB entities
                {release.rescoreCount > 0 ? `; ${formatCount(release.rescoreCount)} re-scoring event${release.rescoreCount === 1 ? "" : "s"}` : ""}.
              </p>
              {release.changes.length > 0 ? (
                <ul className="list-disc pl-6 text-sm">
                  {release.changes.map((change) => (
                    <li key={change}>{change}</li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-muted">The first release.</p>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
