import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { isMaintainer } from "@/lib/domain/accounts/actor";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { formatDateTime } from "@/lib/core/format/dates";
import { describeAuditAction } from "@/lib/platform/audit/record-audit";
import { listAuditLog } from "@/lib/domain/publication/list-review-queue";
import { TableShell } from "@/components/ui/table-shell";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

export default async function AuditLogPage() {
  const actor = await getActor();
  if (actor.kind === "anonymous") redirect("/sign-in?callbackUrl=%2Fadmin%2Faudit");
  if (!isMaintainer(actor)) notFound();
  const rows = await listAuditLog(actor);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">Audit log</h1>
      <TableShell
        caption="Maintainer and owner actions, newest first (who, what, when and why)"
        head={
          <>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Target</th>
            <th scope="col">Why</th>
          </>
        }
      >
        {rows.map((row) => (
          <tr key={row.id} className="border-b border-line">
            <td className="whitespace-nowrap">{formatDateTime(row.createdAt)}</td>
            <td>{row.actorName}</td>
            <td>
              {describeAuditAction(row.action)} <code className="text-xs text-muted">{row.action}</code>
            </td>
            <td data-testid="audit-target" className="break-words">
              {row.target.href ? <Link href={row.target.href}>{row.target.label}</Link> : row.target.label}
            </td>
            <td>{row.reason ?? ""}</td>
          </tr>
        ))}
      </TableShell>
    </div>
  );
}
