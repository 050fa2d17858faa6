import { formatDateTime } from "@/lib/core/format/dates";
import type { Metadata } from "next";
import Link from "next/link";
import { RetrySubmissionForm } from "@/components/admin/retry-submission-form";
import { requirePageMaintainer } from "@/lib/domain/accounts/page-guards";
import { formatAge } from "@/lib/core/format/format-age";
import { getQueueOverview, type QueueOverview } from "@/lib/domain/scoring/get-queue-overview";
import { retrySubmissionAction } from "./actions";

export const metadata: Metadata = { title: "Scoring queue" };
export const dynamic = "force-dynamic";

function SubmissionLink({ id }: { id: string }) {
  return (
    <Link href={`/submissions/${id}`} className="font-mono text-xs">
      {id}
    </Link>
  );
}

function Owner({ name, email }: { name: string; email: string | null }) {
  return (
    <>
      {name}
      {email && <span className="block text-xs text-muted">{email}</span>}
    </>
  );
}

function Summary({ overview }: { overview: QueueOverview }) {
  const alive = overview.workers.filter((worker) => worker.isAlive).length;
  const items: [string, number][] = [
    ["waiting", overview.counts.waiting],
    ["being scored", overview.counts.active],
    ["waiting to retry", overview.counts.delayed],
    ["failed jobs", overview.counts.failed],
    ["workers alive", alive],
  ];
  return (
    <dl className="flex flex-wrap gap-6" data-testid="queue-summary">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt className="text-sm text-muted">{label}</dt>
          <dd className="text-2xl font-semibold">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default async function QueuePage() {
  const actor = await requirePageMaintainer("/admin/queue");
  const now = new Date();
  const overview = await getQueueOverview(actor, now);
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold">Scoring queue</h1>
      {overview.queueProblem && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-red-900">
          {overview.queueProblem}
        </p>
      )}
      {overview.isPaused && (
        <p role="status" className="rounded border border-amber-300 bg-amber-50 p-3 text-amber-900">
          The scoring queue is paused: workers take no new job until it is resumed.
        </p>
      )}
      <Summary overview={overview} />

      <WorkersSection overview={overview} now={now} />

      <JobsSection overview={overview} now={now} />

      <FailedSection overview={overview} now={now} />
    </div>
  );
}

function WorkersSection({ overview, now }: { overview: QueueOverview; now: Date }) {
  return (
    <section aria-labelledby="workers-heading" className="space-y-2">
      <h2 id="workers-heading" className="text-xl font-semibold">
        Workers
      </h2>
      {overview.workers.length === 0 ? (
        <p className="text-muted">No worker has sent a heartbeat in the last 24 hours: start one with npm run worker.</p>
      ) : (
        <table className="min-w-full bg-white text-sm">
          <caption className="mb-1 text-left text-muted">Every worker heard from in the last 24 hours; alive means a heartbeat in the last 30 s</caption>
          <thead className="border-b border-line">
            <tr>
              <th scope="col">Worker (host:pid)</th>
              <th scope="col">Last heartbeat</th>
              <th scope="col">Age</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {overview.workers.map((worker) => (
              <tr key={worker.name} className="border-b border-line">
                <td className="font-mono text-xs">{worker.name}</td>
                <td>{formatDateTime(worker.lastHeartbeatAt)}</td>
                <td>{formatAge(worker.lastHeartbeatAt, now)}</td>
                <td className={worker.isAlive ? "text-green-900" : "text-red-800"}>{worker.isAlive ? "alive" : "gone"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function JobsSection({ overview, now }: { overview: QueueOverview; now: Date }) {
  return (
    <section aria-labelledby="jobs-heading" className="space-y-2">
      <h2 id="jobs-heading" className="text-xl font-semibold">
        Jobs
      </h2>
      {overview.jobs.length === 0 ? (
        <p className="text-muted">No job is waiting or being scored.</p>
      ) : (
        <table className="min-w-full bg-white text-sm" aria-label="Jobs">
          <caption className="mb-1 text-left text-muted">Being scored, then waiting in the order workers take them, then waiting to retry (first 100 of each)</caption>
          <thead className="border-b border-line">
            <tr>
              <th scope="col">State</th>
              <th scope="col">Submission</th>
              <th scope="col">Owner</th>
              <th scope="col">Split / track</th>
              <th scope="col">Age</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last error</th>
            </tr>
          </thead>
          <tbody>
            {overview.jobs.map((job) => (
              <tr key={job.jobId} className="border-b border-line align-top">
                <td>{job.state === "active" ? "being scored" : job.state === "delayed" ? "waiting to retry" : "waiting"}</td>
                <td>
                  <SubmissionLink id={job.submissionId} />
                </td>
                <td>
                  <Owner name={job.ownerName} email={job.ownerEmail} />
                </td>
                <td>{job.split ? `${job.split} / ${job.track}` : "–"}</td>
                <td>{formatAge(job.queuedAt, now)}</td>
                <td>{job.attempts ?? "–"}</td>
                <td className="max-w-md break-words">{job.lastError ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function FailedSection({ overview, now }: { overview: QueueOverview; now: Date }) {
  return (
    <section aria-labelledby="failed-heading" className="space-y-2">
      <h2 id="failed-heading" className="text-xl font-semibold">
        Failed submissions
      </h2>
      {overview.failed.length === 0 ? (
        <p className="text-muted">No submission has failed.</p>
      ) : (
        <table className="min-w-full bg-white text-sm" aria-label="Failed submissions">
          <caption className="mb-1 text-left text-muted">
            Newest first (50). Retry scores one again with its attempts counted from 0; it is written to the audit log.
          </caption>
          <thead className="border-b border-line">
            <tr>
              <th scope="col">Submission</th>
              <th scope="col">Owner</th>
              <th scope="col">Split / track</th>
              <th scope="col">Failed</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last error</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {overview.failed.map((row) => (
              <tr key={row.submissionId} className="border-b border-line align-top" data-testid={`failed-${row.submissionId}`}>
                <td>
                  <SubmissionLink id={row.submissionId} />
                </td>
                <td>
                  <Owner name={row.ownerName} email={row.ownerEmail} />
                </td>
                <td>{row.split ? `${row.split} / ${row.track}` : "–"}</td>
                <td>{row.failedAt ? `${formatAge(row.failedAt, now)} ago` : "–"}</td>
                <td>{row.attempts ?? "–"}</td>
                <td className="max-w-md break-words">
                  {row.failureKind && <span className="font-semibold">{row.failureKind === "INVALID" ? "invalid file: " : "internal: "}</span>}
                  {row.failureReason}
                  {row.lastJobError && row.lastJobError !== row.failureReason && (
                    <span className="mt-1 block text-xs text-muted">
                      job {row.lastJobId}: {row.lastJobError}
                    </span>
                  )}
                </td>
                <td>
                  <RetrySubmissionForm action={retrySubmissionAction} submissionId={row.submissionId} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
