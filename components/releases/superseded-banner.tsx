import { formatDate } from "@/lib/core/format/dates";
import Link from "next/link";

/** The banner of a superseded release's pages and leaderboard: readable, labelled, with the way to its successor. */
export function SupersededBanner({ version, supersededBy, supersededAt }: { version: string; supersededBy: { version: string } | null; supersededAt: string | null }) {
  if (supersededBy === null) return null;
  return (
    <p role="note" data-testid="superseded-banner" className="max-w-3xl rounded border border-amber-300 bg-amber-50 p-3 text-amber-900">
      Release {version} is <strong>superseded by {supersededBy.version}</strong>
      {supersededAt === null ? "" : ` (since ${formatDate(supersededAt)})`}. Its results stay readable as they were; new work belongs on{" "}
      <Link href={`/dataset/releases/${encodeURIComponent(supersededBy.version)}`}>release {supersededBy.version}</Link>.
    </p>
  );
}
