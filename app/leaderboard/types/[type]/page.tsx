import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { LeaderboardViewSection } from "@/components/leaderboard/leaderboard-view-section";
import { cohortOfPageFilters } from "@/lib/core/leaderboard/cohort-filters";
import { getLeaderboard } from "@/lib/domain/leaderboard/get-leaderboard";
import { firstValues, pageTrack } from "@/lib/core/leaderboard/query-schemas";
import { tableQuerySchema } from "@/lib/core/leaderboard/table-query";
import { typeFromSlug } from "@/lib/core/leaderboard/views";

export const dynamic = "force-dynamic";

type PageProps = {
  params: Promise<{ type: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

function decodeSlug(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const type = typeFromSlug(decodeSlug((await params).type));
  return { title: type === null ? "Leaderboard" : `Leaderboard: ${type}` };
}

export default async function TypeLeaderboardPage({ params, searchParams }: PageProps) {
  const type = typeFromSlug(decodeSlug((await params).type));
  if (type === null) {
    notFound();
  }
  const query = firstValues(await searchParams);
  const tableQuery = tableQuerySchema.parse(query);
  const snapshot = await getLeaderboard({ track: pageTrack(query), type, scope: tableQuery.scope, cohort: cohortOfPageFilters(tableQuery) });
  if (snapshot === null) {
    return (
      <div className="space-y-4">
        <h1 className="text-3xl font-bold">Leaderboard: {type}</h1>
        <p>No dataset release is active yet, so there is nothing to rank.</p>
      </div>
    );
  }
  const { view } = snapshot;
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-3xl font-bold">Leaderboard: {type} entities</h1>
        <p className="max-w-3xl text-muted">
          Entries ranked on the {type} samples of the test split of {view.release.name} {view.release.version}.
        </p>
      </header>
      <LeaderboardViewSection view={view} query={tableQuery} />
    </div>
  );
}
