import type { ReactNode } from "react";
import { FACT_SHEET_FIELD_LABELS, type FactSheetField } from "@/lib/core/fact-sheet/completeness";
import { APPROACH_LABELS, type FactSheet } from "@/lib/core/fact-sheet/schema";
import { formatParameterCount } from "@/lib/core/format/numbers";
import { safeExternalUrl } from "@/lib/core/leaderboard/public-entry";

const NOT_STATED = <span className="text-muted">not stated</span>;

function yesNo(value: boolean | null): ReactNode {
  if (value === null) return NOT_STATED;
  return value ? "yes" : "no";
}

function text(value: string | null): ReactNode {
  return value === null || value === "" ? NOT_STATED : value;
}

function ExternalLink({ url }: { url: string | null }) {
  const safe = safeExternalUrl(url);
  if (safe === null) return NOT_STATED;
  return (
    <a href={safe} rel="noopener noreferrer nofollow" className="break-all">
      {safe}
    </a>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-1 sm:grid-cols-[16rem_1fr]">
      <dt className="font-medium">{term}</dt>
      <dd className="min-w-0 break-words whitespace-pre-line">{children}</dd>
    </div>
  );
}

function runsText(sheet: FactSheet): ReactNode {
  if (sheet.protocol.runs === null) return NOT_STATED;
  return sheet.protocol.runs === "single-run" ? "a single run" : `the best of ${sheet.protocol.bestOfN ?? "?"} runs`;
}

/** A fact sheet as a reader sees it: every answer in words, "not stated" where the owner gave none. */
export function FactSheetView({ sheet, missing }: { sheet: FactSheet; missing: readonly FactSheetField[] }) {
  return (
    <div className="space-y-3" data-testid="fact-sheet">
      <p className="text-sm">
        {missing.length === 0 ? (
          <span data-testid="fact-sheet-complete">Complete fact sheet (version {sheet.version}).</span>
        ) : (
          <span data-testid="fact-sheet-incomplete">
            Incomplete fact sheet (version {sheet.version}): not stated — {missing.map((field) => FACT_SHEET_FIELD_LABELS[field]).join(", ")}.
          </span>
        )}
      </p>
      <dl className="divide-y divide-line text-sm">
        <Row term="System name">{sheet.systemName}</Row>
        <Row term="Team">{text(sheet.team)}</Row>
        <Row term="Approach">{sheet.approach === null ? NOT_STATED : APPROACH_LABELS[sheet.approach]}</Row>
        <Row term="Base model">{text(sheet.baseModel)}</Row>
        <Row term="Knowledge cutoff">{text(sheet.knowledgeCutoff)}</Row>
        <Row term="Parameters">{sheet.parameters === null ? NOT_STATED : formatParameterCount(sheet.parameters)}</Row>
        <Row term="Open weights">{yesNo(sheet.openWeights)}</Row>
        <Row term="Used IRC-Bench train">{yesNo(sheet.dataUsed.train)}</Row>
        <Row term="Used IRC-Bench dev">{yesNo(sheet.dataUsed.dev)}</Row>
        <Row term="Used source oral-history collections">{yesNo(sheet.dataUsed.sourceCollections)}</Row>
        <Row term="Used Wikidata/Wikipedia beyond the KB">{yesNo(sheet.dataUsed.wikiBeyondKb)}</Row>
        {sheet.dataUsed.details !== "" && <Row term="Data details">{sheet.dataUsed.details}</Row>}
        <Row term="Prompts or configuration">
          {sheet.configuration.text === "" && sheet.configuration.url === null ? (
            NOT_STATED
          ) : (
            <>
              {sheet.configuration.url !== null && <ExternalLink url={sheet.configuration.url} />}
              {sheet.configuration.text !== "" && <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs whitespace-pre-wrap">{sheet.configuration.text}</pre>}
            </>
          )}
        </Row>
        <Row term="Compute">{text(sheet.compute)}</Row>
        <Row term="Code">{<ExternalLink url={sheet.codeUrl} />}</Row>
        <Row term="Paper">{<ExternalLink url={sheet.paperUrl} />}</Row>
        <Row term="No tuning on the test split">{yesNo(sheet.protocol.noTestTuning)}</Row>
        <Row term="Reported number is">{runsText(sheet)}</Row>
        <Row term="Seeds">{text(sheet.protocol.seeds)}</Row>
      </dl>
    </div>
  );
}
