import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import { PROTOCOL_VERSION } from "@/lib/core/scoring/protocol-version";
import { MAIN_NAV } from "@/components/site-nav";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "IRC-Bench", template: "%s · IRC-Bench" },
  description: "Leaderboard and submission platform for IRC-Bench, a benchmark of implicit entity recognition in reminiscence narratives.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans antialiased">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:p-2">
          Skip to content
        </a>
        <SiteHeader links={MAIN_NAV} />
        <main id="main" className="mx-auto max-w-7xl px-4 py-8">
          {children}
        </main>
        <footer className="mx-auto max-w-7xl px-4 py-8 text-sm text-muted">
          {`IRC-Bench platform · evaluation protocol v${PROTOCOL_VERSION} · the test split's gold stays on the server.`}
        </footer>
      </body>
    </html>
  );
}
