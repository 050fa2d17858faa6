"use client";

import { useState, type FormEvent } from "react";
import { PUBLICATION_FIELD_LABELS } from "@/lib/submissions/schemas";

type Problem = { message: string; field?: string };
type ErrorBody = { error: { message: string; problems?: Problem[] } };

/** What the form starts from: the last request's metadata, so asking again after a rejection or a withdrawal is an edit. */
export type PublishDefaults = {
  systemName: string | null;
  methodDescription: string | null;
  paperUrl: string | null;
  codeUrl: string | null;
  parameterCount: string | null;
  isOpenWeights: boolean | null;
  externalData: string | null;
};

/** The API names the field (`field "systemName" is required`); beside its input the form says it in the label's words. */
function besideField(field: string, message: string): string {
  const label = field in PUBLICATION_FIELD_LABELS ? PUBLICATION_FIELD_LABELS[field as keyof typeof PUBLICATION_FIELD_LABELS] : field;
  const rest = message.replace(/^field "[^"]*" /, "");
  const joiner = /^(is|must|does|contains) /.test(rest) ? " " : ": ";
  return `${label}${joiner}${rest}${rest.endsWith(".") ? "" : "."}`;
}

/** The owner's request to publish a scored test submission, with the method's metadata. */
export function PublishForm({ submissionId, defaults, onRequested }: { submissionId: string; defaults: PublishDefaults; onRequested: () => void }) {
  const [message, setMessage] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [isSending, setIsSending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = Object.fromEntries(Array.from(form.entries()).map(([key, value]) => [key, String(value)]));
    setIsSending(true);
    setMessage(null);
    setFieldErrors({});
    const response = await fetch(`/api/submissions/${submissionId}/publication`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).catch(() => null);
    setIsSending(false);
    if (response?.ok) {
      onRequested();
      return;
    }
    const problem = response ? ((await response.json().catch(() => null)) as ErrorBody | null) : null;
    if (!problem) {
      setMessage("The request did not reach the server; try again.");
      return;
    }
    const byField: Record<string, string> = {};
    for (const item of problem.error.problems ?? []) if (item.field) byField[item.field] ??= besideField(item.field, item.message);
    setFieldErrors(byField);
    setMessage(Object.keys(byField).length > 0 ? "Some publication details need fixing (marked below)." : problem.error.message);
  }

  const field = "mt-1 w-full rounded border border-line px-2 py-1";
  const errorOf = (name: keyof typeof PUBLICATION_FIELD_LABELS) =>
    fieldErrors[name] ? (
      <span id={`${name}-error`} className="mt-1 block text-sm text-red-800">
        {fieldErrors[name]}
      </span>
    ) : null;
  const described = (name: string) => (fieldErrors[name] ? { "aria-invalid": true, "aria-describedby": `${name}-error` } : {});
  const weights = defaults.isOpenWeights === null ? "unknown" : String(defaults.isOpenWeights);
  const isRepeat = defaults.systemName !== null;
  return (
    <form onSubmit={submit} className="space-y-3 rounded border border-line bg-white p-4" aria-labelledby="publish-heading" noValidate>
      <h2 id="publish-heading" className="text-xl font-semibold">
        Ask to publish on the leaderboard
      </h2>
      <p className="text-sm text-muted">
        A maintainer reviews the request. Only aggregate scores are ever public.
        {isRepeat ? " The form starts from your last request: change what the maintainer asked for and send it again." : ""}
      </p>
      <label className="block">
        System name
        <input name="systemName" required minLength={2} maxLength={80} className={field} defaultValue={defaults.systemName ?? ""} {...described("systemName")} />
        {errorOf("systemName")}
      </label>
      <label className="block">
        Method description
        <textarea name="methodDescription" required minLength={20} rows={4} className={field} defaultValue={defaults.methodDescription ?? ""} {...described("methodDescription")} />
        {errorOf("methodDescription")}
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block">
          Paper URL
          <input name="paperUrl" type="url" className={field} defaultValue={defaults.paperUrl ?? ""} {...described("paperUrl")} />
          {errorOf("paperUrl")}
        </label>
        <label className="block">
          Code URL
          <input name="codeUrl" type="url" className={field} defaultValue={defaults.codeUrl ?? ""} {...described("codeUrl")} />
          {errorOf("codeUrl")}
        </label>
        <label className="block">
          Parameter count
          <input name="parameterCount" inputMode="numeric" pattern="[0-9]*" className={field} defaultValue={defaults.parameterCount ?? ""} {...described("parameterCount")} />
          {errorOf("parameterCount")}
        </label>
        <label className="block">
          Weights
          <select name="isOpenWeights" className={field} defaultValue={weights}>
            <option value="unknown">not stated</option>
            <option value="true">open weights</option>
            <option value="false">closed weights</option>
          </select>
        </label>
      </div>
      <label className="block">
        External data used
        <input name="externalData" maxLength={1000} className={field} placeholder="e.g. none; Wikipedia abstracts" defaultValue={defaults.externalData ?? ""} {...described("externalData")} />
        {errorOf("externalData")}
      </label>
      {message && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-red-900">
          {message}
        </p>
      )}
      <button type="submit" disabled={isSending} className="rounded bg-accent px-4 py-2 font-semibold text-white disabled:opacity-50">
        {isSending ? "Sending…" : isRepeat ? "Request publication again" : "Request publication"}
      </button>
    </form>
  );
}
