import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { formatPercent } from "@/lib/core/format/numbers";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { formatDateTime } from "@/lib/core/format/dates";
import { listSubmissionsOf } from "@/lib/domain/submissions/list-submissions";
import { HIDDEN_CAPTION_CLASS, TableShell } from "@/components/ui/table-shell";

export const metadata: Metadata = { title: "My submissions" };
export const dynamic = "force-dynamic";

export default async function SubmissionsPage() {
  const actor = await getActor();
  if (actor.kind === "anonymous") redirect("/sign-in?callbackUrl=%2Fsubmissions");
  const submissions = await listSubmissionsOf(actor.userId);
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-2xl font-bold">My submissions</h1>
        <div className="flex items-center gap-4">
          <Link href="/runs">My runs: history, notes, compare</Link>
          <Link href="/submit" className="rounded bg-accent px-3 py-2 text-white! no-underline">
            New submission
          </Link>
        </div>
      </div>
      {submissions.length === 0 ? (
        <p>
          You have not submitted anything yet. <Link href="/submit">Submit dev or test predictions</Link>.
        </p>
      ) : (
        <TableShell
          caption="Your submissions, newest first"
          captionClassName={HIDDEN_CAPTION_CLASS}
          head={
            <>
              <th scope="col">File</th>
              <th scope="col">Split</th>
              <th scope="col">Track</th>
              <th scope="col">Status</th>
              <th scope="col" className="text-right">Primary metric (%)</th>
              <th scope="col">Publication</th>
              <th scope="col">Submitted</th>
            </>
          }
        >
          {submissions.map((row) => (
            <tr key={row.id} className="border-b border-line">
              <th scope="row">
                <Link href={`/submissions/${row.id}`}>{row.originalName}</Link>
              </th>
              <td>{row.split}</td>
              <td>{row.track}</td>
              <td>{row.status.toLowerCase()}</td>
              <td className="text-right">{formatPercent(row.primary)}</td>
              <td>
                {row.publication.toLowerCase()}
                {row.isPrimary && <span className="ml-1 rounded border border-accent px-1 text-xs text-accent">primary</span>}
              </td>
              <td className="whitespace-nowrap">{formatDateTime(row.createdAt)}</td>
            </tr>
          ))}
        </TableShell>
      )}
    </div>
  );
}
