"use client";

import { useState, type FormEvent } from "react";
import { FactSheetFields } from "@/components/fact-sheet/fact-sheet-fields";
import { FACT_SHEET_FIELD_LABELS } from "@/lib/core/fact-sheet/completeness";
import { factSheetFromForm, formValuesOf, type FormValues } from "@/lib/core/fact-sheet/form-fields";
import type { FactSheet } from "@/lib/core/fact-sheet/schema";

type Problem = { message: string; field?: string };
type ErrorBody = { error: { message: string; problems?: Problem[] } };

/** What the form starts from: the last request's description and fact sheet, so asking again after a rejection or a withdrawal is an edit. */
export type PublishDefaults = {
  systemName: string | null;
  methodDescription: string | null;
  factSheet: FactSheet | null;
};

const LABELS: Record<string, string> = { ...FACT_SHEET_FIELD_LABELS, methodDescription: "Method description", reason: "Reason" };

/**
 * The API names the field by its path (`field "factSheet.dataUsed.train" must be ...`);
 * beside its input the form says it in the label's words. Returns the input's name and the sentence.
 */
function besideField(field: string, message: string): [string, string] {
  const name = field.replace(/^factSheet\./, "");
  const label = LABELS[name] ?? name;
  const rest = message.replace(/^field "[^"]*" /, "");
  const joiner = /^(is|must|does|contains|differs) /.test(rest) ? " " : ": ";
  return [name, `${label}${joiner}${rest}${rest.endsWith(".") ? "" : "."}`];
}

function valuesOf(form: HTMLFormElement): FormValues {
  return Object.fromEntries(Array.from(new FormData(form).entries()).map(([key, value]) => [key, String(value)]));
}

type Mode = { kind: "request" } | { kind: "edit"; needsReason: boolean };

/**
 * The owner's request to publish a scored test submission ("request"), or
 * an edit of its fact sheet ("edit": the owner until approval, a maintainer
 * afterwards with a reason for the audit log).
 */
// eslint-disable-next-line max-lines-per-function -- one form whose fields share one state; to split by fieldset (issue 33 follow-up)
export function PublishForm({ submissionId, defaults, onRequested, mode = { kind: "request" } }: { submissionId: string; defaults: PublishDefaults; onRequested: () => void; mode?: Mode }) {
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [isSending, setIsSending] = useState(false);
  const isEdit = mode.kind === "edit";

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = valuesOf(event.currentTarget);
    const factSheet = factSheetFromForm(values);
    const body = isEdit ? { factSheet, ...(values.reason ? { reason: values.reason } : {}) } : { methodDescription: values.methodDescription ?? "", factSheet };
    setIsSending(true);
    setMessage(null);
    setSaved(false);
    setFieldErrors({});
    const response = await fetch(isEdit ? `/api/submissions/${submissionId}/fact-sheet` : `/api/submissions/${submissionId}/publication`, {
      method: isEdit ? "PATCH" : "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).catch(() => null);
    setIsSending(false);
    if (response?.ok) {
      setSaved(isEdit);
      onRequested();
      return;
    }
    const problem = response ? ((await response.json().catch(() => null)) as ErrorBody | null) : null;
    if (!problem) {
      setMessage("The request did not reach the server; try again.");
      return;
    }
    const byField: Record<string, string> = {};
    for (const item of problem.error.problems ?? []) {
      if (!item.field) continue;
      const [name, sentence] = besideField(item.field, item.message);
      byField[name] ??= sentence;
    }
    setFieldErrors(byField);
    const fix = isEdit ? "Some fact sheet answers need fixing" : "Some publication details need fixing";
    setMessage(Object.keys(byField).length > 0 ? `${fix}: ${Object.values(byField).join(" ")}` : problem.error.message);
  }

  const isRepeat = defaults.systemName !== null && !isEdit;
  const headingId = isEdit ? "fact-sheet-edit-heading" : "publish-heading";
  return (
    <form onSubmit={submit} className="space-y-4 rounded border border-line bg-white p-4" aria-labelledby={headingId} noValidate>
      <h2 id={headingId} className="text-xl font-semibold">
        {isEdit ? "Edit the fact sheet" : "Ask to publish on the leaderboard"}
      </h2>
      <p className="text-sm text-muted">
        {isEdit
          ? mode.needsReason
            ? "This entry is approved: your change is written to the audit log with the sheet before and after."
            : "You can change the fact sheet until a maintainer approves the entry; then it is read-only."
          : "A maintainer reviews the request. Only aggregate scores are ever public. Answer what you know; \"not stated\" is allowed, but only a complete fact sheet with code and configuration linked earns the documented tier."}
        {isRepeat ? " The form starts from your last request: change what the maintainer asked for and send it again." : ""}
      </p>
      {!isEdit && (
        <label className="block" htmlFor="methodDescription">
          Method description
          <textarea
            id="methodDescription"
            name="methodDescription"
            required
            minLength={20}
            rows={4}
            className="mt-1 w-full rounded border border-line px-2 py-1"
            defaultValue={defaults.methodDescription ?? ""}
            {...(fieldErrors.methodDescription ? { "aria-invalid": true, "aria-describedby": "methodDescription-error" } : {})}
          />
          {fieldErrors.methodDescription && (
            <span id="methodDescription-error" className="mt-1 block text-sm text-red-800">
              {fieldErrors.methodDescription}
            </span>
          )}
        </label>
      )}
      <FactSheetFields defaults={formValuesOf(defaults.factSheet, defaults.systemName ?? "")} errors={fieldErrors} />
      {isEdit && mode.needsReason && (
        <label className="block" htmlFor="fact-sheet-reason">
          Reason (for the audit log)
          <input id="fact-sheet-reason" name="reason" required minLength={5} className="mt-1 w-full rounded border border-line px-2 py-1" />
          {fieldErrors.reason && <span className="mt-1 block text-sm text-red-800">{fieldErrors.reason}</span>}
        </label>
      )}
      {message && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-red-900">
          {message}
        </p>
      )}
      {saved && (
        <p role="status" className="rounded border border-green-300 bg-green-50 p-2 text-green-900">
          Fact sheet saved.
        </p>
      )}
      <button type="submit" disabled={isSending} className="rounded bg-accent px-4 py-2 font-semibold text-white disabled:opacity-50">
        {isSending ? "Sending…" : isEdit ? "Save the fact sheet" : isRepeat ? "Request publication again" : "Request publication"}
      </button>
    </form>
  );
}
