"use client";

import { useEffect, useId, useRef, useState } from "react";

type Props = {
  /** The button's label, e.g. "Hide from the leaderboard". */
  label: string;
  /** What will happen, said before it happens: "The entry leaves the public leaderboard at once." */
  question: string;
  /** The confirming button's label, e.g. "Yes, hide it". */
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  /**
   * Runs before the question opens; returning false keeps it closed (the caller then shows
   * its own error and moves focus to it), so a confirm is never asked of an action that would fail.
   */
  canAsk?: () => boolean;
  isDisabled?: boolean;
  tone?: "danger" | "neutral";
};

export const BUTTON = "rounded border border-line bg-white px-3 py-1 text-sm text-ink hover:bg-slate-50 disabled:opacity-50";
/** A destructive action's first button: red outline, so it does not look like the harmless buttons beside it. */
export const DANGER_OUTLINE = "rounded border border-red-700 bg-white px-3 py-1 text-sm font-medium text-red-800 hover:bg-red-50 disabled:opacity-50";
const DANGER = "rounded border border-red-800 bg-red-800 px-3 py-1 text-sm font-semibold text-white hover:bg-red-900 disabled:opacity-50";
const PRIMARY = "rounded border border-accent bg-accent px-3 py-1 text-sm font-semibold text-white disabled:opacity-50";

/**
 * A destructive or public action asks once before it runs: the first click
 * shows what will happen with a confirm and a cancel button (inline, so it
 * works with the keyboard and screen readers, unlike a native dialog). Focus
 * moves to the question when it opens and back to the button when it closes;
 * Escape cancels.
 */
export function ConfirmButton({ label, question, confirmLabel, onConfirm, canAsk, isDisabled = false, tone = "danger" }: Props) {
  const [isAsking, setIsAsking] = useState(false);
  const [hasAsked, setHasAsked] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const questionRef = useRef<HTMLSpanElement>(null);
  const questionId = useId();

  useEffect(() => {
    if (isAsking) questionRef.current?.focus();
    // Back to the button, unless the action's own result or error already took focus.
    else if (hasAsked && (document.activeElement === null || document.activeElement === document.body)) triggerRef.current?.focus();
  }, [isAsking, hasAsked]);

  const close = () => {
    setHasAsked(true);
    setIsAsking(false);
  };

  if (!isAsking) {
    return (
      <button
        ref={triggerRef}
        type="button"
        className={tone === "danger" ? DANGER_OUTLINE : BUTTON}
        disabled={isDisabled}
        onClick={() => {
          if (canAsk === undefined || canAsk()) setIsAsking(true);
        }}
      >
        {label}
      </button>
    );
  }
  return (
    <span
      role="group"
      aria-label={`Confirm: ${label}`}
      aria-describedby={questionId}
      className="inline-flex flex-wrap items-center gap-2 rounded border border-amber-700 bg-white p-2 text-sm"
      data-testid="confirm"
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          close();
        }
      }}
    >
      <span id={questionId} ref={questionRef} tabIndex={-1}>
        {question}
      </span>
      <button
        type="button"
        className={tone === "danger" ? DANGER : PRIMARY}
        disabled={isDisabled}
        onClick={async () => {
          await onConfirm();
          close();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className={BUTTON} onClick={close}>
        Cancel
      </button>
    </span>
  );
}
