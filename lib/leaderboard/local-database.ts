/**
 * Seeding and benchmarking write thousands of rows and may wipe seeded ones:
 * they only ever run against a database on this machine.
 */

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** The one local-machine rule of every guard (seeding, benchmarks, tests, browser tests). */
export function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname);
}

export function isLocalDatabaseUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return /^postgres(ql)?:$/.test(parsed.protocol) && isLocalHost(parsed.hostname);
  } catch {
    return false;
  }
}

/** Throws unless `url` is a postgresql:// URL of a local server. */
export function assertLocalDatabaseUrl(url: string | undefined): string {
  if (url === undefined || url === "") {
    throw new Error("no database URL: pass --database-url or set DATABASE_URL");
  }
  if (!isLocalDatabaseUrl(url)) {
    const host = (() => {
      try {
        return new URL(url).hostname;
      } catch {
        return "an unreadable URL";
      }
    })();
    throw new Error(`refusing to write to a non-local database (${host}); use a PostgreSQL on 127.0.0.1 or localhost`);
  }
  return url;
}

/** The same server, another database name: postgresql://u:p@host:port/NAME. */
export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
