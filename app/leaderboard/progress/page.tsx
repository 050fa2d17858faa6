import type { Metadata } from "next";
import Link from "next/link";
import { ProgressSection } from "@/components/leaderboard/progress-section";
import { getProgress } from "@/lib/domain/leaderboard/get-progress";
import { firstValues, progressPageQuerySchema } from "@/lib/core/leaderboard/query-schemas";
import { leaderboardViewHref } from "@/lib/core/leaderboard/view-links";

export const metadata: Metadata = { title: "Progress over time" };
export const dynamic = "force-dynamic";

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ProgressPage({ searchParams }: PageProps) {
  const query = progressPageQuerySchema.parse(firstValues(await searchParams));
  const view = await getProgress({ track: query.track, type: query.type ?? null });
  if (view === null) {
    return (
      <div className="space-y-4">
        <h1 className="text-3xl font-bold">Progress over time</h1>
        <p>No dataset release is active yet, so there is no timeline. A maintainer imports one first.</p>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-3xl font-bold">Progress over time</h1>
        <p className="max-w-3xl text-muted">
          The best published score on the test split of {view.release.name} {view.release.version}, by publication date. Back to the{" "}
          <Link href={leaderboardViewHref(view.track, view.type)}>leaderboard of this view</Link>.
        </p>
      </header>
      <ProgressSection view={view} />
    </div>
  );
}
