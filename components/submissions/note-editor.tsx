"use client";

import { useState } from "react";

const MAX = 1000;

/** The owner's note on a run, saved with PATCH /api/submissions/:id/note. */
export function NoteEditor({ submissionId, initial, label }: { submissionId: string; initial: string; label: string }) {
  const [note, setNote] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [state, setState] = useState<{ kind: "idle" | "saving" | "saved" } | { kind: "error"; message: string }>({ kind: "idle" });

  async function save() {
    setState({ kind: "saving" });
    try {
      const response = await fetch(`/api/submissions/${submissionId}/note`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ note }),
      });
      const body = (await response.json()) as { note?: string; error?: { message: string; problems?: { message: string }[] } };
      if (!response.ok || body.note === undefined) {
        const details = body.error?.problems?.map((problem) => problem.message).join("; ");
        setState({ kind: "error", message: details || body.error?.message || `The note was not saved (HTTP ${response.status}).` });
        return;
      }
      setNote(body.note);
      setSaved(body.note);
      setState({ kind: "saved" });
    } catch {
      setState({ kind: "error", message: "The note was not saved: the server could not be reached." });
    }
  }

  return (
    <form
      className="flex items-start gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <textarea
        aria-label={label}
        value={note}
        maxLength={MAX}
        rows={1}
        onChange={(event) => {
          setNote(event.target.value);
          setState({ kind: "idle" });
        }}
        className="min-w-48 rounded border border-line px-2 py-1 text-sm"
        placeholder="what changed in this run"
      />
      <button type="submit" disabled={note === saved || state.kind === "saving"} className="rounded border border-line px-2 py-1 text-sm disabled:opacity-40">
        Save
      </button>
      <span role="status" className="text-xs">
        {state.kind === "saved" && "Saved."}
        {state.kind === "error" && <span className="text-red-800">{state.message}</span>}
      </span>
    </form>
  );
}
