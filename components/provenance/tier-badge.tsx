import { TIER_DESCRIPTIONS, type ProvenanceTier } from "@/lib/core/fact-sheet/tiers";

const TONES: Record<ProvenanceTier, string> = {
  reported: "border-slate-500 bg-slate-100 text-slate-800",
  scored: "border-slate-400 bg-white text-slate-700",
  documented: "border-teal-700 bg-teal-50 text-teal-900",
  reproduced: "border-green-800 bg-green-50 text-green-900",
};

/** The provenance tier of an entry (lib/core/fact-sheet/tiers.ts), with what it means on hover and for screen readers. */
export function TierBadge({ tier }: { tier: ProvenanceTier }) {
  return (
    <span
      title={TIER_DESCRIPTIONS[tier]}
      data-testid="tier-badge"
      data-tier={tier}
      className={`ml-1 inline-block rounded border px-1 text-xs font-medium whitespace-nowrap ${TONES[tier]}`}
    >
      {tier}
      <span className="sr-only">: {TIER_DESCRIPTIONS[tier]}</span>
    </span>
  );
}
