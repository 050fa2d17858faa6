"use client";

import { useState } from "react";
import type { SubmissionView } from "@/lib/submissions/get-submission-view";

type Action = "approve" | "reject" | "hide" | "rescore" | "mark-baseline" | "unmark-baseline";

/** A maintainer's actions on one submission; every one lands in the audit log. */
export function ReviewPanel({ view, onDone }: { view: SubmissionView; onDone: () => void }) {
  const [reason, setReason] = useState("");
  const [message, setMessage] = useState<string | null>(null);

  async function act(action: Action) {
    setMessage(null);
    const response = await fetch(`/api/admin/submissions/${view.id}/review`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ action, reason: reason || undefined }),
    }).catch(() => null);
    if (response?.ok) {
      setMessage(`Done: ${action}.`);
      setReason("");
      onDone();
      return;
    }
    const body = response ? ((await response.json().catch(() => null)) as { error?: { message: string } } | null) : null;
    setMessage(body?.error?.message ?? "The request failed; try again.");
  }

  const button = "rounded border border-line bg-white px-3 py-1 text-sm hover:bg-slate-50";
  return (
    <section aria-labelledby="review-heading" className="space-y-2 rounded border border-amber-300 bg-amber-50 p-4">
      <h2 id="review-heading" className="text-lg font-semibold">
        Maintainer review
      </h2>
      <p className="text-sm">
        Publication: <strong>{view.publication.toLowerCase()}</strong>
        {view.isBaseline ? " · baseline" : ""}
      </p>
      <label className="block text-sm">
        Reason (shown to the owner; required to reject)
        <textarea value={reason} onChange={(event) => setReason(event.target.value)} rows={2} className="mt-1 w-full rounded border border-line px-2 py-1" />
      </label>
      <div className="flex flex-wrap gap-2">
        {(view.publication === "PENDING" || view.publication === "HIDDEN") && (
          <button type="button" className={button} onClick={() => act("approve")}>
            Approve
          </button>
        )}
        {view.publication === "PENDING" && (
          <button type="button" className={button} onClick={() => act("reject")}>
            Reject
          </button>
        )}
        {view.publication === "PUBLISHED" && (
          <button type="button" className={button} onClick={() => act("hide")}>
            Hide
          </button>
        )}
        <button type="button" className={button} onClick={() => act("rescore")}>
          Re-score
        </button>
        {view.status === "SCORED" &&
          (view.isBaseline ? (
            <button type="button" className={button} onClick={() => act("unmark-baseline")}>
              Unmark baseline
            </button>
          ) : (
            <button type="button" className={button} onClick={() => act("mark-baseline")}>
              Mark as baseline
            </button>
          ))}
      </div>
      {message && <p role="status">{message}</p>}
    </section>
  );
}
