import { formatCount, formatPercent } from "@/lib/core/format/numbers";
import type { ProbeFlags } from "@/lib/core/integrity/probe-flags-schema";

/** A test file's probe flags (docs/integrity.md) for maintainers: share, threshold, raised or not. */
export function ProbeFlagsTable({ flags }: { flags: ProbeFlags }) {
  return (
    <table className="min-w-full bg-white text-sm" data-testid="probe-flags">
      <caption className="mb-1 text-left text-muted">
        Signs of a file built to read the gold ({formatCount(flags.n)} samples); a flag is raised above its threshold
        {flags.version === 1 ? ". Computed before the flag for collections and answer types existed: re-score the file to see it." : ""}
      </caption>
      <thead className="border-b border-line">
        <tr>
          <th scope="col">Flag</th>
          <th scope="col" className="text-right">
            Share (%)
          </th>
          <th scope="col" className="text-right">
            Threshold (%)
          </th>
          <th scope="col">Raised</th>
        </tr>
      </thead>
      <tbody>
        {flags.flags.map((flag) => (
          <tr key={flag.id} className={`border-b border-line ${flag.raised ? "bg-red-50" : ""}`}>
            <th scope="row" className="font-normal">
              <code>{flag.id}</code>: {flag.label}
              {flag.groups && flag.groups.length > 0 && (
                <span className="block text-xs text-red-900">
                  {flag.groups.map((group) => `${group.kind} ${group.name} (${formatCount(group.n)})`).join("; ")}
                </span>
              )}
            </th>
            <td className="text-right">
              {formatPercent(flag.value)} ({flag.count})
            </td>
            <td className="text-right">{formatPercent(flag.threshold)}</td>
            <td>{flag.raised ? <strong className="text-red-800">raised</strong> : "no"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One cell's worth: the raised flags' ids, or a dash. */
export function RaisedFlagsSummary({ flags }: { flags: ProbeFlags | null }) {
  if (flags === null) return <span className="text-muted">–</span>;
  const raised = flags.flags.filter((flag) => flag.raised);
  if (raised.length === 0) return <span>none</span>;
  return (
    <span className="text-red-800">
      {raised.map((flag) => (
        <span key={flag.id} className="mr-1 inline-block rounded bg-red-100 px-1 text-xs" title={`${flag.label}: ${formatPercent(flag.value)}% > ${formatPercent(flag.threshold)}%`}>
          {flag.id} {formatPercent(flag.value)}%
        </span>
      ))}
    </span>
  );
}
