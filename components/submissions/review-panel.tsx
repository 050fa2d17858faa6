"use client";

import { useEffect, useRef, useState } from "react";
import { ProbeFlagsTable } from "@/components/submissions/probe-flags-table";
import type { ProbeFlagId } from "@/lib/core/integrity/probe-flags-schema";
import type { SubmissionView } from "@/lib/domain/submissions/get-submission-view";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { REVIEW_DONE_TEXT, type ReviewAction } from "@/lib/core/submissions/review-done";
import { BASELINE_LABEL_MAX, REJECT_REASON_MIN } from "@/lib/core/submissions/schemas";

/** A maintainer's actions on one submission; every one lands in the audit log. */
// eslint-disable-next-line max-lines-per-function -- the review's summary, flags and decision form share one state; to split (issue 33 follow-up)
export function ReviewPanel({ view, onDone }: { view: SubmissionView; onDone: (action: ReviewAction) => void }) {
  const [reason, setReason] = useState("");
  const [baselineLabel, setBaselineLabel] = useState("");
  const [acknowledged, setAcknowledged] = useState<ReadonlySet<ProbeFlagId>>(new Set());
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  // The result of an action takes focus, so a keyboard or screen-reader user lands on it.
  useEffect(() => {
    if (message !== null) messageRef.current?.focus();
  }, [message]);
  useEffect(() => {
    if (reasonError !== null) reasonRef.current?.focus();
  }, [reasonError]);

  const reasonProblem = () =>
    reason.trim().length < REJECT_REASON_MIN ? `Write the reason for the rejection (at least ${REJECT_REASON_MIN} characters): the owner reads it.` : null;
  /** Reject asks for its confirm only once a reason is written. */
  const canAskReject = () => {
    const problem = reasonProblem();
    setReasonError(problem);
    return problem === null;
  };
  const flags = view.probe_flags ?? null;
  const raised = flags ? flags.flags.filter((flag) => flag.raised) : [];

  function toggle(id: ProbeFlagId, isChecked: boolean) {
    setAcknowledged((current) => {
      const next = new Set(current);
      if (isChecked) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  async function act(action: ReviewAction) {
    setMessage(null);
    setReasonError(null);
    const problem = action === "reject" ? reasonProblem() : null;
    if (problem !== null) {
      setReasonError(problem);
      return;
    }
    const body = {
      action,
      reason: reason || undefined,
      ...(action === "mark-baseline" ? { baselineLabel } : {}),
      ...(action === "approve" || action === "mark-baseline" ? { acknowledge: [...acknowledged] } : {}),
    };
    const response = await fetch(`/api/admin/submissions/${view.id}/review`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).catch(() => null);
    if (response?.ok) {
      setMessage({ tone: "ok", text: REVIEW_DONE_TEXT[action] });
      setReason("");
      setBaselineLabel("");
      setAcknowledged(new Set());
      onDone(action);
      return;
    }
    const error = response ? ((await response.json().catch(() => null)) as { error?: { message: string } } | null) : null;
    const text = error?.error?.message ?? "The request failed; try again.";
    if (/^reason: /i.test(text)) {
      setReasonError(`Reason: ${text.slice("reason: ".length)}`);
      return;
    }
    setMessage({ tone: "error", text });
  }

  const button = "rounded border border-line bg-white px-3 py-1 text-sm text-ink hover:bg-slate-50";
  const name = view.systemName ?? view.baselineLabel ?? view.originalName;
  return (
    <section aria-labelledby="review-heading" className="space-y-2 rounded border border-amber-300 bg-amber-50 p-4">
      <h2 id="review-heading" className="text-lg font-semibold">
        Maintainer review
      </h2>
      <p className="text-sm">
        Publication: <strong>{view.publication.toLowerCase()}</strong>
        {view.isBaseline ? ` · baseline "${view.baselineLabel ?? ""}"` : ""}
      </p>
      {view.split === "test" && view.status === "SCORED" && (
        <div className="space-y-2">
          <h3 className="font-semibold">Probe flags</h3>
          {flags ? (
            <div tabIndex={0} className="relative overflow-x-auto">
              <ProbeFlagsTable flags={flags} />
            </div>
          ) : (
            <p className="text-sm text-amber-900">No probe flags for this score (scored before they existed): re-score it before approving.</p>
          )}
          {raised.length > 0 && (
            <fieldset className="space-y-1 text-sm">
              <legend className="font-semibold">Before approving or marking as a baseline, acknowledge each raised flag</legend>
              {raised.map((flag) => (
                <label key={flag.id} className="flex items-center gap-2">
                  <input type="checkbox" checked={acknowledged.has(flag.id)} onChange={(event) => toggle(flag.id, event.target.checked)} />
                  I looked at <code>{flag.id}</code> ({flag.label}) and vouch for this file anyway
                </label>
              ))}
              <p className="text-muted">Give a reason below: it goes to the audit log with the acknowledgements.</p>
            </fieldset>
          )}
        </div>
      )}
      <label className="block text-sm">
        Reason (shown to the owner; required to reject)
        <textarea
          ref={reasonRef}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          rows={2}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? `reason-error-${view.id}` : undefined}
          className={`mt-1 w-full rounded border px-2 py-1 ${reasonError ? "border-red-700" : "border-line"}`}
        />
      </label>
      {reasonError && (
        <p id={`reason-error-${view.id}`} role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900">
          {reasonError}
        </p>
      )}
      {view.status === "SCORED" && !view.isBaseline && (
        <label className="block text-sm">
          Baseline label (the public name; required to mark as a baseline)
          <input
            value={baselineLabel}
            onChange={(event) => setBaselineLabel(event.target.value)}
            maxLength={BASELINE_LABEL_MAX}
            className="mt-1 w-full rounded border border-line px-2 py-1"
          />
        </label>
      )}
      <div className="flex flex-wrap gap-2">
        {(view.publication === "PENDING" || view.publication === "HIDDEN") && (
          <ConfirmButton
            label="Approve"
            question={`Publish "${name}" on the public leaderboard now?`}
            confirmLabel="Yes, publish it"
            tone="neutral"
            onConfirm={() => act("approve")}
          />
        )}
        {view.publication === "PENDING" && (
          <ConfirmButton label="Reject" question={`Reject the request for "${name}"? The owner reads your reason.`} confirmLabel="Yes, reject it" canAsk={canAskReject} onConfirm={() => act("reject")} />
        )}
        {view.publication === "PUBLISHED" && (
          <ConfirmButton label="Hide" question={`Take "${name}" off the public leaderboard now?`} confirmLabel="Yes, hide it" onConfirm={() => act("hide")} />
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
      {message && (
        <p ref={messageRef} tabIndex={-1} role={message.tone === "error" ? "alert" : "status"} className={message.tone === "error" ? "rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900" : "text-sm text-green-800"}>
          {message.text}
        </p>
      )}
    </section>
  );
}
