import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LeaderboardViewSection } from "@/components/leaderboard/leaderboard-view-section";
import { SupersededBanner } from "@/components/releases/superseded-banner";
import { cohortOfPageFilters } from "@/lib/core/leaderboard/cohort-filters";
import { getLeaderboard } from "@/lib/domain/leaderboard/get-leaderboard";
import { getReleaseLeaderboard } from "@/lib/domain/leaderboard/get-release-leaderboard";
import { firstValues, pageTrack } from "@/lib/core/leaderboard/query-schemas";
import { tableQuerySchema } from "@/lib/core/leaderboard/table-query";
import { findReleaseByVersion } from "@/lib/domain/releases/release-history";
import { releaseVersionSchema } from "@/lib/core/accounts/release-form-schemas";

export const metadata: Metadata = { title: "Leaderboard" };
export const dynamic = "force-dynamic";

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function LeaderboardPage({ searchParams }: PageProps) {
  const params = firstValues(await searchParams);
  const track = pageTrack(params);
  const query = tableQuerySchema.parse(params);
  // ?release=VERSION: an earlier or superseded release's board stays readable (the active one is the default).
  if (params.release !== undefined) {
    const version = releaseVersionSchema.safeParse(params.release);
    const release = version.success ? await findReleaseByVersion(version.data) : null;
    if (release === null) notFound();
    if (!release.isActive) {
      const view = await getReleaseLeaderboard({ releaseId: release.id, track, scope: query.scope, cohort: cohortOfPageFilters(query) });
      if (view === null) notFound();
      return (
        <div className="space-y-6">
          <header className="space-y-2">
            <h1 className="text-3xl font-bold">
              Leaderboard of release {release.version}
            </h1>
            <p className="max-w-3xl text-muted">
              Published entries and baselines on the test split of {release.name} {release.version}, which is not the active release.{" "}
              <Link href={`/dataset/releases/${encodeURIComponent(release.version)}`}>About this release</Link> ·{" "}
              <Link href="/leaderboard">the active release&apos;s leaderboard</Link>.
            </p>
            <SupersededBanner version={release.version} supersededBy={release.supersededBy} supersededAt={release.supersededAt} />
          </header>
          <LeaderboardViewSection view={view} query={query} archivedVersion={release.version} />
        </div>
      );
    }
  }
  const snapshot = await getLeaderboard({ track, scope: query.scope, cohort: cohortOfPageFilters(query) });
  if (snapshot === null) {
    return (
      <div className="space-y-4">
        <h1 className="text-3xl font-bold">Leaderboard</h1>
        <p>No dataset release is active yet, so there is nothing to rank. A maintainer imports one first.</p>
      </div>
    );
  }
  const { view } = snapshot;
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-3xl font-bold">Leaderboard</h1>
        <p className="hidden max-w-3xl text-muted sm:block">
          Published entries and baselines on the test split of {view.release.name} {view.release.version}. The test
          gold never leaves the server: every number here is an aggregate over samples.{" "}
          <Link href="/dataset/releases">Other releases</Link>.
        </p>
      </header>
      <LeaderboardViewSection view={view} query={query} />
    </div>
  );
}
