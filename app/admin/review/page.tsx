import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { formatPercent } from "@/lib/format/numbers";
import { RaisedFlagsSummary } from "@/components/submissions/probe-flags-table";
import { isMaintainer } from "@/lib/auth/actor";
import { getActor } from "@/lib/auth/get-actor";
import { listReviewQueue, type ReviewQueueRow } from "@/lib/submissions/list-review-queue";

export const metadata: Metadata = { title: "Review queue" };
export const dynamic = "force-dynamic";

function QueueTable({ rows, caption }: { rows: ReviewQueueRow[]; caption: string }) {
  if (rows.length === 0) return <p className="text-muted">Nothing here.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full bg-white text-sm">
        <caption className="mb-1 text-left text-muted">{caption}</caption>
        <thead className="border-b border-line">
          <tr>
            <th scope="col">System</th>
            <th scope="col">Owner</th>
            <th scope="col">Split / track</th>
            <th scope="col">Status</th>
            <th scope="col" className="text-right">Primary (%)</th>
            <th scope="col">Publication</th>
            <th scope="col">Probe flags</th>
            <th scope="col">Date (UTC)</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="border-b border-line">
              <th scope="row">
                <Link href={`/submissions/${row.id}`}>{row.systemName ?? row.id}</Link>
                {row.isBaseline && <span className="ml-2 rounded bg-slate-200 px-1 text-xs">baseline</span>}
              </th>
              <td>{row.ownerName}</td>
              <td>
                {row.split} / {row.track}
              </td>
              <td>
                {row.status.toLowerCase()}
                {row.isStale && <span className="ml-1 rounded bg-amber-200 px-1 text-xs">stale</span>}
              </td>
              <td className="text-right">{formatPercent(row.primary)}</td>
              <td>{row.publication.toLowerCase()}</td>
              <td>{row.split === "test" ? <RaisedFlagsSummary flags={row.probe_flags} /> : ""}</td>
              <td>{(row.requestedAt ?? row.createdAt).slice(0, 16).replace("T", " ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default async function ReviewQueuePage() {
  const actor = await getActor();
  if (actor.kind === "anonymous") redirect("/sign-in?callbackUrl=%2Fadmin%2Freview");
  if (!isMaintainer(actor)) notFound();
  const { pending, recent } = await listReviewQueue(actor);
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold">Review queue</h1>
      <p>
        Open a submission to approve or reject its publication, hide it, re-score it or mark it as a baseline. Every action is recorded in
        the <Link href="/admin/audit">audit log</Link>. A test file with raised probe flags (signs of a file built to read the gold, see
        docs/integrity.md) can only be approved or made a baseline after you acknowledge each flag and give a reason.
      </p>
      <section className="space-y-2">
        <h2 className="text-xl font-semibold">Publication requests ({pending.length})</h2>
        <QueueTable rows={pending} caption="Oldest request first" />
      </section>
      <section className="space-y-2">
        <h2 className="text-xl font-semibold">Recent submissions</h2>
        <QueueTable rows={recent} caption="The latest 100 submissions of all participants" />
      </section>
    </div>
  );
}
