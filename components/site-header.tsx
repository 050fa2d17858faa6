import Link from "next/link";
import { AuthNav } from "@/components/auth/auth-nav";

export type NavLink = { href: string; label: string };

export function SiteHeader({ links }: { links: NavLink[] }) {
  return (
    <header className="border-b border-line bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Link href="/" className="text-lg font-semibold text-ink no-underline">
          IRC-Bench
        </Link>
        <ul className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
          {links.map((link) => (
            <li key={link.href}>
              <Link href={link.href}>{link.label}</Link>
            </li>
          ))}
        </ul>
        <AuthNav />
      </nav>
    </header>
  );
}
