/** Download links for an entry's results in the formats other hubs read (lib/core/leaderboard/hub-exports.ts). */
export function HubExportLinks({ entryId }: { entryId: string }) {
  const base = `/api/entries/${entryId}/export`;
  return (
    <p className="text-sm" data-testid="hub-exports">
      <span className="font-medium">Use these results elsewhere:</span>{" "}
      <a href={`${base}?format=model-index`} download>
        Hugging Face model-index (YAML, paste into a model card)
      </a>
      {" · "}
      <a href={`${base}?format=eval-results`} download>
        Hugging Face .eval_results (YAML)
      </a>
      {" · "}
      <a href={`${base}?format=pwc`} download>
        Papers-with-Code-style JSON
      </a>
      {" · "}
      <a href={`${base}?format=every-eval-ever`} download>
        Every Eval Ever (JSON, with each 95% interval and n)
      </a>
      . Values are the ones shown here, as fractions.
    </p>
  );
}
