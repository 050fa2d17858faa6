"use client";

import { useState } from "react";

type Props = {
  /** The button's label, e.g. "Hide from the leaderboard". */
  label: string;
  /** What will happen, said before it happens: "The entry leaves the public leaderboard at once." */
  question: string;
  /** The confirming button's label, e.g. "Yes, hide it". */
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  isDisabled?: boolean;
  tone?: "danger" | "neutral";
};

export const BUTTON = "rounded border border-line bg-white px-3 py-1 text-sm text-ink hover:bg-slate-50 disabled:opacity-50";
const DANGER = "rounded border border-red-800 bg-red-800 px-3 py-1 text-sm font-semibold text-white hover:bg-red-900 disabled:opacity-50";
const PRIMARY = "rounded border border-accent bg-accent px-3 py-1 text-sm font-semibold text-white disabled:opacity-50";

/**
 * A destructive or public action asks once before it runs: the first click
 * shows what will happen with a confirm and a cancel button (inline, so it
 * works with the keyboard and screen readers, unlike a native dialog).
 */
export function ConfirmButton({ label, question, confirmLabel, onConfirm, isDisabled = false, tone = "danger" }: Props) {
  const [isAsking, setIsAsking] = useState(false);
  if (!isAsking) {
    return (
      <button type="button" className={BUTTON} disabled={isDisabled} onClick={() => setIsAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span role="group" aria-label={`Confirm: ${label}`} className="inline-flex flex-wrap items-center gap-2 rounded border border-amber-400 bg-white p-2 text-sm">
      <span>{question}</span>
      <button
        type="button"
        className={tone === "danger" ? DANGER : PRIMARY}
        disabled={isDisabled}
        onClick={async () => {
          await onConfirm();
          setIsAsking(false);
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className={BUTTON} onClick={() => setIsAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
