"use client";

import { useEffect, useRef, useState } from "react";
import { BUTTON, ConfirmButton } from "@/components/ui/confirm-button";
import type { SubmissionView } from "@/lib/domain/submissions/get-submission-view";

type ErrorBody = { error?: { message?: string } };

/**
 * The owner's controls over a test entry, no maintainer needed: withdraw a
 * pending publication request, hide a published entry or show it again, and
 * choose the primary entry of the track (the one the leaderboard shows by
 * default). Each change is recorded in the audit log.
 */
// eslint-disable-next-line max-lines-per-function -- the owner's actions share one pending state; to split (issue 33 follow-up)
export function OwnerControls({ view, onDone }: { view: SubmissionView; onDone: () => void }) {
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [isSending, setIsSending] = useState(false);
  const messageRef = useRef<HTMLParagraphElement>(null);
  // The result of an action takes focus (the button that started it may be gone).
  useEffect(() => {
    if (message !== null) messageRef.current?.focus();
  }, [message]);

  async function send(path: string, method: "PATCH" | "DELETE", body: unknown, done: string) {
    setIsSending(true);
    setMessage(null);
    const response = await fetch(`/api/submissions/${view.id}/${path}`, {
      method,
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch(() => null);
    setIsSending(false);
    if (response?.ok) {
      setMessage({ tone: "ok", text: done });
      onDone();
      return;
    }
    const error = response ? ((await response.json().catch(() => null)) as ErrorBody | null) : null;
    setMessage({ tone: "error", text: error?.error?.message ?? "The request did not reach the server; try again." });
  }

  const canBePrimary = view.publication === "PUBLISHED" || view.publication === "PENDING";
  const canUnhide = view.publication === "HIDDEN" && view.hiddenByOwner;
  const hasControls = view.publication === "PENDING" || view.publication === "PUBLISHED" || canUnhide || view.isPrimary;
  // The result of the last action stays readable after the refresh that may leave no control to show.
  if (!hasControls && message === null) return null;
  return (
    <section aria-labelledby="owner-controls-heading" className="space-y-3 rounded border border-line bg-white p-4">
      <h2 id="owner-controls-heading" className="text-lg font-semibold">
        Your entry
      </h2>
      {view.isPrimary && (
        <p data-testid="primary-status" className="text-sm">
          This is your <strong>primary entry</strong> of the {view.track}-world track: the leaderboard shows it, not your other entries of the
          track, unless a reader chooses &ldquo;all entries&rdquo;.
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        {view.publication === "PENDING" && (
          <ConfirmButton
            label="Withdraw the publication request"
            question="The request leaves the review queue; the submission stays private. You can ask again later."
            confirmLabel="Yes, withdraw it"
            isDisabled={isSending}
            onConfirm={() => send("publication", "DELETE", undefined, "Request withdrawn: the submission is private.")}
          />
        )}
        {view.publication === "PUBLISHED" && (
          <ConfirmButton
            label="Hide from the leaderboard"
            question="The entry leaves the public leaderboard and its public page at once. You can show it again."
            confirmLabel="Yes, hide it"
            isDisabled={isSending}
            onConfirm={() => send("visibility", "PATCH", { hidden: true }, "Hidden: the entry is no longer public.")}
          />
        )}
        {canUnhide && (
          <button type="button" className={BUTTON} disabled={isSending} onClick={() => send("visibility", "PATCH", { hidden: false }, "Shown again on the leaderboard.")}>
            Show on the leaderboard again
          </button>
        )}
        {canBePrimary && !view.isPrimary && (
          <button
            type="button"
            className={BUTTON}
            disabled={isSending}
            onClick={() => send("primary", "PATCH", { isPrimary: true }, `This is now your primary entry of the ${view.track}-world track.`)}
          >
            Make this my primary {view.track}-world entry
          </button>
        )}
        {view.isPrimary && (
          <button type="button" className={BUTTON} disabled={isSending} onClick={() => send("primary", "PATCH", { isPrimary: false }, "No primary entry: the leaderboard shows all your entries.")}>
            Stop making it my primary entry
          </button>
        )}
      </div>
      {message && (
        <p ref={messageRef} tabIndex={-1} role={message.tone === "error" ? "alert" : "status"} className={message.tone === "error" ? "text-sm text-red-800" : "text-sm text-green-800"}>
          {message.text}
        </p>
      )}
    </section>
  );
}
