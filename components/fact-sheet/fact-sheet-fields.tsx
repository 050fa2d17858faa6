"use client";

import type { ReactNode } from "react";
import { FACT_SHEET_FIELD_LABELS, type FactSheetField } from "@/lib/core/fact-sheet/completeness";
import type { FormValues } from "@/lib/core/fact-sheet/form-fields";
import { APPROACHES, APPROACH_LABELS } from "@/lib/core/fact-sheet/schema";

type Props = {
  defaults: FormValues;
  /** Messages by field path ("dataUsed.train"), shown beside the input. */
  errors: Record<string, string>;
};

const INPUT = "mt-1 w-full rounded border border-line px-2 py-1";

function idOf(name: string): string {
  return `fs-${name.replaceAll(".", "-")}`;
}

function ErrorText({ name, errors }: { name: string; errors: Record<string, string> }) {
  const message = errors[name];
  return message ? (
    <span id={`${idOf(name)}-error`} className="mt-1 block text-sm text-red-800">
      {message}
    </span>
  ) : null;
}

function described(name: string, errors: Record<string, string>) {
  return errors[name] ? { "aria-invalid": true, "aria-describedby": `${idOf(name)}-error` } : {};
}

/** The error sits outside the label, so the input's accessible name stays the label's words. */
function Field({ name, label, errors, children }: { name: string; label: string; errors: Record<string, string>; children: ReactNode }) {
  return (
    <div>
      <label className="block" htmlFor={idOf(name)}>
        {label}
      </label>
      {children}
      <ErrorText name={name} errors={errors} />
    </div>
  );
}

function YesNo({ name, defaults, errors }: { name: FactSheetField } & Props) {
  return (
    <Field name={name} label={FACT_SHEET_FIELD_LABELS[name]} errors={errors}>
      <select id={idOf(name)} name={name} className={INPUT} defaultValue={defaults[name] ?? ""} {...described(name, errors)}>
        <option value="">not stated</option>
        <option value="yes">yes</option>
        <option value="no">no</option>
      </select>
    </Field>
  );
}

function Text({ name, defaults, errors, type = "text", placeholder }: { name: FactSheetField; type?: string; placeholder?: string } & Props) {
  return (
    <Field name={name} label={FACT_SHEET_FIELD_LABELS[name]} errors={errors}>
      <input id={idOf(name)} name={name} type={type} placeholder={placeholder} className={INPUT} defaultValue={defaults[name] ?? ""} {...described(name, errors)} />
    </Field>
  );
}

/** The fact sheet's inputs (lib/core/fact-sheet/schema.ts), named by their paths; shared by the publication and edit forms. */
export function FactSheetFields({ defaults, errors }: Props) {
  const props = { defaults, errors };
  return (
    <div className="space-y-4">
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-1 font-semibold">System</legend>
        <Text name="systemName" {...props} />
        <Text name="team" {...props} placeholder="who built it" />
        <Field name="approach" label={FACT_SHEET_FIELD_LABELS.approach} errors={errors}>
          <select id={idOf("approach")} name="approach" className={INPUT} defaultValue={defaults.approach ?? ""} {...described("approach", errors)}>
            <option value="">not stated</option>
            {APPROACHES.map((approach) => (
              <option key={approach} value={approach}>
                {APPROACH_LABELS[approach]}
              </option>
            ))}
          </select>
        </Field>
        <Text name="baseModel" {...props} placeholder="e.g. Llama-3.1-8B" />
        <Text name="knowledgeCutoff" {...props} placeholder="ISO month or date, e.g. 2023-12" />
        <Text name="parameters" {...props} placeholder="e.g. 8B, 1.3B, 110M or 8000000000" />
        <YesNo name="openWeights" {...props} />
      </fieldset>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-1 font-semibold">Data used</legend>
        <YesNo name="dataUsed.train" {...props} />
        <YesNo name="dataUsed.dev" {...props} />
        <YesNo name="dataUsed.sourceCollections" {...props} />
        <YesNo name="dataUsed.wikiBeyondKb" {...props} />
        <div className="sm:col-span-2">
          <Text name="dataUsed.details" {...props} placeholder="anything else, in words" />
        </div>
      </fieldset>
      <fieldset className="space-y-3">
        <legend className="mb-1 font-semibold">Prompts, configuration and compute</legend>
        <Field name="configuration.text" label={FACT_SHEET_FIELD_LABELS["configuration.text"]} errors={errors}>
          <textarea id={idOf("configuration.text")} name="configuration.text" rows={4} className={INPUT} defaultValue={defaults["configuration.text"] ?? ""} {...described("configuration.text", errors)} />
        </Field>
        <Text name="configuration.url" type="url" {...props} placeholder="or a link to them" />
        <Text name="compute" {...props} placeholder="e.g. 1 x A100, 6 GPU-hours" />
        <div className="grid gap-3 sm:grid-cols-2">
          <Text name="codeUrl" type="url" {...props} />
          <Text name="paperUrl" type="url" {...props} />
        </div>
      </fieldset>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-1 font-semibold">Protocol checklist</legend>
        <YesNo name="protocol.noTestTuning" {...props} />
        <Field name="protocol.runs" label={FACT_SHEET_FIELD_LABELS["protocol.runs"]} errors={errors}>
          <select id={idOf("protocol.runs")} name="protocol.runs" className={INPUT} defaultValue={defaults["protocol.runs"] ?? ""} {...described("protocol.runs", errors)}>
            <option value="">not stated</option>
            <option value="single-run">a single run</option>
            <option value="best-of-n">the best of N runs</option>
          </select>
        </Field>
        <Text name="protocol.bestOfN" {...props} placeholder="N, with best of N" />
        <Text name="protocol.seeds" {...props} placeholder="e.g. 42, or 1-5" />
      </fieldset>
    </div>
  );
}
