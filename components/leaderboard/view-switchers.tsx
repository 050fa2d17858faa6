import Link from "next/link";
import { ENTITY_TYPES, type EntityType } from "@/lib/dataset/release-schema";
import { LEADERBOARD_TRACKS, TRACK_LABELS, TYPE_SLUGS, type LeaderboardTrack } from "@/lib/leaderboard/views";

function pillClass(isCurrent: boolean): string {
  return `inline-block rounded border px-3 py-1 no-underline ${isCurrent ? "border-accent bg-accent" : "border-line bg-white hover:bg-slate-100"}`;
}

/** The link colour of globals.css outranks utility classes on <a>, so the label colour sits on a span. */
function PillLabel({ isCurrent, children }: { isCurrent: boolean; children: string }) {
  return <span className={isCurrent ? "font-medium text-white" : "text-accent"}>{children}</span>;
}

/** Links between the three views; the current one is marked with aria-current. */
export function TrackSwitcher({ current, type }: { current: LeaderboardTrack; type: EntityType | null }) {
  const base = type === null ? "/leaderboard" : `/leaderboard/types/${TYPE_SLUGS[type]}`;
  return (
    <nav aria-label="Track" className="text-sm">
      <ul className="flex flex-wrap gap-2">
        {LEADERBOARD_TRACKS.map((track) => (
          <li key={track}>
            <Link href={`${base}?track=${track}`} aria-current={track === current ? "page" : undefined} className={pillClass(track === current)}>
              <PillLabel isCurrent={track === current}>{TRACK_LABELS[track]}</PillLabel>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Links to the entity-type views (and back to all types). */
export function TypeSwitcher({ current, track }: { current: EntityType | null; track: LeaderboardTrack }) {
  return (
    <nav aria-label="Entity type" className="text-sm">
      <ul className="flex flex-wrap items-center gap-2">
        <li className="font-medium">Entity type:</li>
        <li>
          <Link href={`/leaderboard?track=${track}`} aria-current={current === null ? "page" : undefined} className={pillClass(current === null)}>
            <PillLabel isCurrent={current === null}>All types</PillLabel>
          </Link>
        </li>
        {ENTITY_TYPES.map((type) => (
          <li key={type}>
            <Link
              href={`/leaderboard/types/${TYPE_SLUGS[type]}?track=${track}`}
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
