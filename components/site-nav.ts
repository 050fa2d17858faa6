import type { NavLink } from "@/components/site-header";

/** The site's main sections; each entry is a page that exists. */
export const MAIN_NAV: NavLink[] = [
  { href: "/", label: "Home" },
  { href: "/dataset", label: "Dataset" },
  { href: "/leaderboard", label: "Leaderboard" },
  { href: "/submit", label: "Submit" },
  { href: "/docs/api", label: "API" },
];
