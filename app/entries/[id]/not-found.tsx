import Link from "next/link";

export default function EntryNotFound() {
  return (
    <div className="space-y-4">
      <h1 className="text-3xl font-bold">Entry not found</h1>
      <p>No public entry has this id. Entries appear here once they are published on the test split, and baselines always do.</p>
      <p>
        <Link href="/leaderboard">Back to the leaderboard</Link>
      </p>
    </div>
  );
}
