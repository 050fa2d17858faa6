import type { Metadata } from "next";
import { LeaderboardViewSection } from "@/components/leaderboard/leaderboard-view-section";
import { cohortOfPageFilters } from "@/lib/leaderboard/cohort-filters";
import { getLeaderboard } from "@/lib/leaderboard/get-leaderboard";
import { firstValues, pageTrack } from "@/lib/leaderboard/query-schemas";
import { tableQuerySchema } from "@/lib/leaderboard/table-query";

export const metadata: Metadata = { title: "Leaderboard" };
export const dynamic = "force-dynamic";

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function LeaderboardPage({ searchParams }: PageProps) {
  const params = firstValues(await searchParams);
  const track = pageTrack(params);
  const query = tableQuerySchema.parse(params);
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
        <p className="max-w-3xl text-muted">
          Published entries and baselines on the test split of {view.release.name} {view.release.version}. The test
          gold never leaves the server: every number here is an aggregate over samples.
        </p>
      </header>
      <LeaderboardViewSection view={view} query={query} />
    </div>
  );
}
