"use client";

import { useState, type FormEvent } from "react";

type ErrorBody = { error: { message: string; problems?: { message: string }[] } };

/** The owner's request to publish a scored test submission, with the method's metadata. */
export function PublishForm({ submissionId, onRequested }: { submissionId: string; onRequested: () => void }) {
  const [errors, setErrors] = useState<string[]>([]);
  const [isSending, setIsSending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = Object.fromEntries(Array.from(form.entries()).map(([key, value]) => [key, String(value)]));
    setIsSending(true);
    setErrors([]);
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
    setErrors(problem ? [problem.error.message, ...(problem.error.problems ?? []).map((item) => item.message)] : ["The request did not reach the server; try again."]);
  }

  const field = "mt-1 w-full rounded border border-line px-2 py-1";
  return (
    <form onSubmit={submit} className="space-y-3 rounded border border-line bg-white p-4" aria-labelledby="publish-heading">
      <h2 id="publish-heading" className="text-xl font-semibold">
        Ask to publish on the leaderboard
      </h2>
      <p className="text-sm text-muted">A maintainer reviews the request. Only aggregate scores are ever public.</p>
      <label className="block">
        System name
        <input name="systemName" required minLength={2} maxLength={80} className={field} />
      </label>
      <label className="block">
        Method description
        <textarea name="methodDescription" required minLength={20} rows={4} className={field} />
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block">
          Paper URL
          <input name="paperUrl" type="url" className={field} />
        </label>
        <label className="block">
          Code URL
          <input name="codeUrl" type="url" className={field} />
        </label>
        <label className="block">
          Parameter count
          <input name="parameterCount" inputMode="numeric" pattern="[0-9]*" className={field} />
        </label>
        <label className="block">
          Weights
          <select name="isOpenWeights" className={field} defaultValue="unknown">
            <option value="unknown">not stated</option>
            <option value="true">open weights</option>
            <option value="false">closed weights</option>
          </select>
        </label>
      </div>
      <label className="block">
        External data used
        <input name="externalData" maxLength={1000} className={field} placeholder="e.g. none; Wikipedia abstracts" />
      </label>
      {errors.length > 0 && (
        <ul role="alert" className="list-disc pl-6 text-red-800">
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
      <button type="submit" disabled={isSending} className="rounded bg-accent px-4 py-2 font-semibold text-white disabled:opacity-50">
        {isSending ? "Sending…" : "Request publication"}
      </button>
    </form>
  );
}
