import Link from "next/link";
import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import type { EntryScope } from "@/lib/core/leaderboard/primary-entries";
import { LEADERBOARD_TRACKS, TRACK_LABELS, TYPE_SLUGS, type LeaderboardTrack } from "@/lib/core/leaderboard/views";

function pillClass(isCurrent: boolean): string {
  return `inline-block rounded border px-3 py-1 no-underline ${isCurrent ? "border-accent bg-accent" : "border-line bg-white hover:bg-slate-100"}`;
}

/** The link colour of globals.css outranks utility classes on <a>, so the label colour sits on a span. */
function PillLabel({ isCurrent, children }: { isCurrent: boolean; children: string }) {
  return <span className={isCurrent ? "font-medium text-white" : "text-accent"}>{children}</span>;
}

/** Links between the three views; the current one is marked with aria-current. `keep`: "&key=value" pairs every link carries (the cohort filters). */
export function TrackSwitcher({ current, type, keep = "" }: { current: LeaderboardTrack; type: EntityType | null; keep?: string }) {
  const base = type === null ? "/leaderboard" : `/leaderboard/types/${TYPE_SLUGS[type]}`;
  return (
    <nav aria-label="Track" className="text-sm">
      <ul className="flex flex-wrap gap-2">
        {LEADERBOARD_TRACKS.map((track) => (
          <li key={track}>
            <Link href={`${base}?track=${track}${keep}`} aria-current={track === current ? "page" : undefined} className={pillClass(track === current)}>
              <PillLabel isCurrent={track === current}>{TRACK_LABELS[track]}</PillLabel>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Links to the entity-type views (and back to all types). */
export function TypeSwitcher({ current, track, keep = "" }: { current: EntityType | null; track: LeaderboardTrack; keep?: string }) {
  return (
    <nav aria-label="Entity type" className="text-sm">
      <ul className="flex flex-wrap items-center gap-2">
        <li className="font-medium">Entity type:</li>
        <li>
          <Link href={`/leaderboard?track=${track}${keep}`} aria-current={current === null ? "page" : undefined} className={pillClass(current === null)}>
            <PillLabel isCurrent={current === null}>All types</PillLabel>
          </Link>
        </li>
        {ENTITY_TYPES.map((type) => (
          <li key={type}>
            <Link
              href={`/leaderboard/types/${TYPE_SLUGS[type]}?track=${track}${keep}`}
              aria-current={type === current ? "page" : undefined}
              className={pillClass(type === current)}
            >
              <PillLabel isCurrent={type === current}>{type}</PillLabel>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const SCOPE_LABELS: Record<EntryScope, string> = { primary: "Primary entries", all: "All entries" };

/** Each participant's primary entry (the default) or every public entry; ranks are computed among the entries shown. */
export function ScopeSwitcher({ track, type, scope, keep = "" }: { track: LeaderboardTrack; type: EntityType | null; scope: EntryScope; keep?: string }) {
  const base = type === null ? "/leaderboard" : `/leaderboard/types/${TYPE_SLUGS[type]}`;
  return (
    <nav aria-label="Ranking scope" className="flex flex-wrap items-center gap-2 text-sm">
      <ul className="flex flex-wrap gap-2">
        {(["primary", "all"] as const).map((option) => (
          <li key={option}>
            <Link
              href={`${base}?track=${track}${option === "all" ? "&scope=all" : ""}${keep}`}
              aria-current={option === scope ? "page" : undefined}
              className={pillClass(option === scope)}
            >
              <PillLabel isCurrent={option === scope}>{SCOPE_LABELS[option]}</PillLabel>
            </Link>
          </li>
        ))}
      </ul>
      <span className="text-muted">
        {scope === "primary"
          ? "A participant who marked a primary entry of this track is shown by it alone; ranks are among the entries shown."
          : "Every published entry, including participants' non-primary ones; ranks are among all of them."}
      </span>
    </nav>
  );
}
