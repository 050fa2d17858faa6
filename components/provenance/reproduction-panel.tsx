"use client";

import { formatDate } from "@/lib/core/format/dates";
import Link from "next/link";
import { useEffect, useState } from "react";
import type { SubmissionView } from "@/lib/domain/submissions/get-submission-view";

type Candidate = { id: string; originalName: string; split: string; track: string; status: string; createdAt: string };
type ErrorBody = { error: { message: string } };

/**
 * The maintainer's reproduction check of one entry (provenance tier
 * "reproduced"): pick the scored test submission holding the re-run's
 * predictions (one of your own uploads, or any submission id), and the
 * server compares per-sample outcomes. The answer is "reproduced" or how many
 * samples differ, never which. A reproduced entry can be revoked with a reason.
 */
// eslint-disable-next-line max-lines-per-function -- one form with its state, result and revocation; to split (issue 33 follow-up)
export function ReproductionPanel({ view, onDone }: { view: SubmissionView; onDone: () => void }) {
  const [candidates, setCandidates] = useState<Candidate[]>([]);
  const [reproductionId, setReproductionId] = useState("");
  const [reason, setReason] = useState("");
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const isReproduced = view.provenance.tier === "reproduced";

  useEffect(() => {
    let isCurrent = true;
    void fetch("/api/submissions")
      .then((response) => (response.ok ? (response.json() as Promise<{ submissions: Candidate[] }>) : { submissions: [] }))
      .then((body) => {
        if (!isCurrent) return;
        setCandidates(body.submissions.filter((row) => row.id !== view.id && row.split === "test" && row.track === view.track && row.status === "SCORED"));
      })
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [view.id, view.track]);

  async function send(method: "POST" | "DELETE") {
    setMessage(null);
    const body = method === "POST" ? { reproductionId: reproductionId.trim(), ...(reason ? { reason } : {}) } : { reason };
    const response = await fetch(`/api/admin/submissions/${view.id}/reproduction`, {
      method,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).catch(() => null);
    if (response?.ok) {
      setMessage({ tone: "ok", text: method === "POST" ? "Reproduced: every per-sample outcome matches. The entry now shows the reproduced tier." : "The reproduced tier is revoked." });
      setReason("");
      onDone();
      return;
    }
    const problem = response ? ((await response.json().catch(() => null)) as ErrorBody | null) : null;
    setMessage({ tone: "error", text: problem?.error.message ?? "The request did not reach the server; try again." });
  }

  return (
    <section aria-labelledby="reproduction-heading" className="space-y-3 rounded border border-line bg-white p-4" data-testid="reproduction-panel">
      <h2 id="reproduction-heading" className="text-lg font-semibold">
        Reproduction (provenance tier)
      </h2>
      <p className="text-sm">
        Current tier: <strong data-testid="current-tier">{view.provenance.tier}</strong>
        {view.provenance.reproducedAt && ` — reproduced by ${view.provenance.reproducedBy ?? "a former maintainer"} on ${formatDate(view.provenance.reproducedAt)}`}.
      </p>
      <p className="text-sm text-muted">
        Re-run the entry&apos;s code, <Link href="/submit">upload its predictions</Link> as a test submission of the same track, wait until it is
        scored, then pick it here. The server compares the two sets of per-sample outcomes and tells you only how many samples differ.
      </p>
      <div className="flex flex-wrap items-end gap-3 text-sm">
        <label className="flex flex-col gap-1">
          Your scored test submissions
          <select value={candidates.some((row) => row.id === reproductionId) ? reproductionId : ""} onChange={(event) => setReproductionId(event.target.value)} className="rounded border border-line px-2 py-1">
            <option value="">choose one…</option>
            {candidates.map((row) => (
              <option key={row.id} value={row.id}>
                {row.originalName} ({row.id}, {formatDate(row.createdAt)})
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          or a submission id
          <input name="reproductionId" value={reproductionId} onChange={(event) => setReproductionId(event.target.value)} className="w-64 rounded border border-line px-2 py-1" />
        </label>
        <label className="flex flex-col gap-1">
          Reason or note (audit log)
          <input name="reproductionReason" value={reason} onChange={(event) => setReason(event.target.value)} className="w-64 rounded border border-line px-2 py-1" />
        </label>
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="button" disabled={reproductionId.trim() === ""} onClick={() => void send("POST")} className="rounded bg-accent px-3 py-1 font-semibold text-white disabled:opacity-50">
          Check the reproduction
        </button>
        {isReproduced && (
          <button type="button" onClick={() => void send("DELETE")} className="rounded border border-red-700 px-3 py-1 text-red-800">
            Revoke the reproduced tier
          </button>
        )}
      </div>
      {message && (
        <p role={message.tone === "error" ? "alert" : "status"} className={message.tone === "error" ? "text-red-800" : "text-green-900"} data-testid="reproduction-message">
          {message.text}
        </p>
      )}
    </section>
  );
}
