import type { InputHTMLAttributes } from "react";
import { FocusedAlert } from "@/components/ui/focused-alert";

type FormFieldProps = {
  id: string;
  label: string;
  error?: string;
  hint?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id">;

/** A labelled input whose hint and error are announced with it (aria-describedby). */
export function FormField({ id, label, error, hint, className, ...input }: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`w-full rounded border px-3 py-2 ${error ? "border-red-700" : "border-line"} ${className ?? ""}`}
        {...input}
      />
      {hint && (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}

/** The message of a whole form: an alert for errors, a polite status otherwise. */
export function FormMessage({ status, message, id }: { status: "idle" | "error" | "success"; message?: string; id?: string }) {
  if (!message) return null;
  if (status === "error") {
    return (
      <FocusedAlert id={id} message={message} className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900" />
    );
  }
  return (
    <p id={id} role="status" className="rounded border border-green-300 bg-green-50 px-3 py-2 text-green-900">
      {message}
    </p>
  );
}

export const BUTTON_CLASS =
  "rounded bg-accent px-4 py-2 font-medium text-white hover:bg-blue-800 disabled:cursor-not-allowed disabled:opacity-60";
export const SECONDARY_BUTTON_CLASS =
  "rounded border border-line bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60";
