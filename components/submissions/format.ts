/** Display helpers for scores: rates are fractions in [0, 1]; pages show percentages. */
export function formatPercent(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  return (value * 100).toFixed(digits);
}

export function formatInterval(interval: readonly [number, number] | null | undefined, digits = 1): string {
  if (!interval) return "";
  return `[${formatPercent(interval[0], digits)}, ${formatPercent(interval[1], digits)}]`;
}

export function formatPValue(p: number): string {
  if (p === 0) return "0";
  if (p >= 0.001) return p.toFixed(3);
  return p.toExponential(2);
}

export function formatMetricName(key: string): string {
  const names: Record<string, string> = {
    exact: "Exact",
    alias: "Alias",
    contain: "Containment",
    jaccard: "Jaccard",
    "hit@1": "Hit@1",
    "hit@3": "Hit@3",
    "hit@5": "Hit@5",
    "hit@10": "Hit@10",
    mrr: "MRR",
    "alias_hit@1": "Alias Hit@1",
    unified: "Unified (alias-aware top-1)",
  };
  return names[key] ?? key;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
