/**
 * Runs once when a Next.js server process starts. Next.js compiles this file
 * for the Edge runtime too, so it only branches: the Node.js server's start-up
 * (environment check, request stamps, metrics, the public fast path) is in
 * lib/web/server/start-web-process.ts, imported behind the NEXT_RUNTIME test that
 * Next.js resolves at build time, so none of it is bundled for the Edge.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startWebProcess } = await import("@/lib/web/server/start-web-process");
    await startWebProcess();
  }
}
