"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type ChangeEvent } from "react";
import { formatDateTime } from "@/lib/core/format/dates";
import { formatBytes } from "@/lib/core/format/bytes";

type Detected = { track: "open" | "closed" | null; split: "dev" | "test" | "train" | null; note: string | null };
type Problem = { line?: number; message: string };
type Quota = { remaining: number; perDay: number; total: number; usedToday: number; usedTotal: number; nextFreeAt: string | null };

/** Why no test file can be sent now, and when one can: the day's window frees at nextFreeAt; the release total never does. */
export function describeNoQuota(quota: Quota): string {
  if (quota.usedTotal >= quota.total) return `You have used all ${quota.total} test submissions for this release. Dev submissions cost no test quota.`;
  const when = quota.nextFreeAt ? `at ${formatDateTime(quota.nextFreeAt)}` : "within 24 hours";
  return `You have used your ${quota.perDay} test submissions of the last 24 hours. The next one frees ${when}. Dev submissions cost no test quota.`;
}

const SNIFF_BYTES = 64 * 1024;

async function detect(file: File): Promise<Detected> {
  const head = await file.slice(0, SNIFF_BYTES).text();
  const firstLine = head
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .find((line) => line.trim() !== "");
  if (!firstLine) return { track: null, split: null, note: "The file starts with no JSON line." };
  let value: { id?: unknown; prediction?: unknown; ranking?: unknown };
  try {
    value = JSON.parse(firstLine) as typeof value;
  } catch {
    return { track: null, split: null, note: "The first line is not valid JSON; the server will list every problem." };
  }
  const track = "ranking" in value ? "closed" : "prediction" in value ? "open" : null;
  if (typeof value.id !== "string") return { track, split: null, note: 'The first line has no "id" string.' };
  const response = await fetch(`/api/dataset/sample-split?id=${encodeURIComponent(value.id)}`).catch(() => null);
  if (!response?.ok) return { track, split: null, note: `The id "${value.id}" is not a sample of the active release.` };
  const body = (await response.json()) as { split: "dev" | "test" | "train" };
  return { track, split: body.split, note: null };
}

/** Pick a file, see the track and split read from it, confirm, and watch the upload. */
// eslint-disable-next-line max-lines-per-function -- one form with its upload progress state; to split (issue 33 follow-up)
export function UploadForm({ quota, maxBytes }: { quota: Quota; maxBytes: number }) {
  const router = useRouter();
  const [file, setFile] = useState<File | null>(null);
  const [detected, setDetected] = useState<Detected | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const errorRef = useRef<HTMLDivElement>(null);
  // A refused upload moves focus to its error summary, so the reader lands on what to fix.
  useEffect(() => {
    if (error !== null) errorRef.current?.focus();
  }, [error]);
  const [idempotencyKey, setIdempotencyKey] = useState("");

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    setFile(chosen);
    // One key per chosen file: pressing Submit again after a lost answer returns the same submission, charged once.
    setIdempotencyKey(crypto.randomUUID());
    setDetected(null);
    setError(null);
    setProblems([]);
    if (!chosen) return;
    if (chosen.size > maxBytes) {
      setError(`The file is ${formatBytes(chosen.size)}; the limit is ${formatBytes(maxBytes)}.`);
      return;
    }
    setDetected(await detect(chosen));
  }

  function upload() {
    if (!file) return;
    const form = new FormData();
    if (detected?.split === "dev" || detected?.split === "test") form.set("split", detected.split);
    form.set("file", file);
    const request = new XMLHttpRequest();
    request.open("POST", "/api/submissions");
    request.setRequestHeader("Idempotency-Key", idempotencyKey);
    request.upload.onprogress = (event) => event.lengthComputable && setProgress(Math.round((event.loaded / event.total) * 100));
    request.onerror = () => {
      setProgress(null);
      setError("The upload was interrupted. Nothing was submitted; try again.");
    };
    request.onload = () => {
      setProgress(null);
      const body = JSON.parse(request.responseText || "{}") as { pageUrl?: string; id?: string; error?: { message: string; problems?: Problem[] } };
      if ((request.status === 201 || request.status === 200) && body.id) {
        router.push(`/submissions/${body.id}`);
        return;
      }
      setError(body.error?.message ?? `The server answered ${request.status}.`);
      setProblems(body.error?.problems ?? []);
    };
    setError(null);
    setProblems([]);
    setProgress(0);
    request.send(form);
  }

  const isTestBlocked = detected?.split === "test" && quota.remaining === 0;
  return (
    <div className="space-y-4">
      <p className="rounded border border-line bg-white p-3 text-sm" data-testid="quota">
        Test submissions left: <strong>{quota.remaining}</strong> (used {quota.usedToday} of {quota.perDay} in the last 24 hours,{" "}
        {quota.usedTotal} of {quota.total} in total). Dev submissions cost no quota (they are limited per hour and in stored bytes per day), and a file rejected by the checks costs nothing.
        {quota.remaining === 0 && (
          <span className="mt-1 block font-semibold text-amber-900" data-testid="quota-next-free">
            {describeNoQuota(quota)}
          </span>
        )}
      </p>
      <label className="block font-semibold" htmlFor="predictions-file">
        Prediction file (JSON Lines)
      </label>
      <input id="predictions-file" type="file" accept=".jsonl,.json,.txt,application/jsonl" onChange={choose} className="block" />
      {detected && (
        <div className="rounded border border-line bg-white p-3 text-sm" data-testid="detected">
          <p>
            Track: <strong>{detected.track ? `${detected.track}-world` : "unknown"}</strong> · Split:{" "}
            <strong>{detected.split ?? "unknown"}</strong> · {file ? formatBytes(file.size) : ""}
          </p>
          {detected.note && <p className="text-amber-800">{detected.note}</p>}
          {detected.split === "train" && <p className="text-amber-800">Training samples are not scored; submit dev or test predictions.</p>}
        </div>
      )}
      {file && (
        <button
          type="button"
          onClick={upload}
          disabled={progress !== null || isTestBlocked}
          className="rounded bg-accent px-4 py-2 font-semibold text-white disabled:opacity-50"
        >
          {detected?.split ? `Submit to the ${detected.split} split` : "Submit"}
        </button>
      )}
      {isTestBlocked && <p className="text-amber-900">{describeNoQuota(quota)}</p>}
      {progress !== null && (
        <div>
          <label htmlFor="upload-progress" className="text-sm">
            Uploading… {progress}%
          </label>
          <progress id="upload-progress" max={100} value={progress} className="block w-full" />
        </div>
      )}
      {error && (
        <div ref={errorRef} tabIndex={-1} role="alert" data-testid="upload-error" className="rounded border border-red-300 bg-red-50 p-3 text-red-900">
          <p className="font-semibold">{error}</p>
          {problems.length > 0 && (
            <ul className="mt-2 list-disc pl-6 font-mono text-xs" data-testid="upload-problems">
              {problems.map((problem, index) => (
                <li key={index}>{problem.line ? `line ${problem.line}: ${problem.message}` : problem.message}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
