/**
 * Everything Prisma 6.19's CLI needs to run offline on this stack, in one place.
 *
 * Prisma's default "classic" schema engine is a native binary downloaded at run
 * time, which fails without internet. The "js" engine is WebAssembly shipped in
 * the npm package, driven through a driver adapter (@prisma/adapter-pg). Three
 * upstream rough edges of that path are worked around here; drop each when
 * upstream fixes land:
 *
 * 1. Introspection reads columns of PostgreSQL type "char" (OID 18) and name
 *    (OID 19), which adapter-pg 6.19.3 cannot map ("Column type 'name' could not
 *    be deserialized", prisma/orm#27403). We report them as text (OID 25).
 * 2. The adapter's default shadow database is dropped while its pool is still
 *    open ("database ... is being accessed by other users"). We use a fixed
 *    shadow database that is force-recreated on each use instead.
 * 3. The wasm engine arms a 60 s timer that keeps the CLI alive after it has
 *    finished. Long timers are unref'd and the pools exit when idle.
 *
 * This module is only loaded by prisma.config.ts, i.e. by the Prisma CLI; the
 * application's runtime client lives in lib/platform/db.ts.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

const TEXT_OID = 25;
const OIDS_READ_AS_TEXT = new Set([18, 19]);
const LONG_TIMER_MS = 5_000;

type QueryResultLike = { fields?: { dataTypeID: number }[] };

function readNamesAsText(value: QueryResultLike): QueryResultLike {
  for (const field of value?.fields ?? []) {
    if (OIDS_READ_AS_TEXT.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
  }
  return value;
}

function patchIntrospectionTypes(): void {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown; __ircPatched?: boolean };
  if (prototype.__ircPatched) return;
  const originalQuery = prototype.query;
  prototype.query = function patchedQuery(this: unknown, ...args: unknown[]) {
    const last = args[args.length - 1];
    if (typeof last === "function") {
      const callback = last as (error: unknown, value: QueryResultLike) => void;
      args[args.length - 1] = (error: unknown, value: QueryResultLike) => callback(error, readNamesAsText(value));
      return originalQuery.apply(this, args);
    }
    const result = originalQuery.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === "function") {
      return (result as Promise<QueryResultLike>).then(readNamesAsText);
    }
    return result;
  };
  prototype.__ircPatched = true;
}

function unrefLongTimers(): void {
  const globalWithFlag = globalThis as typeof globalThis & { __ircTimersPatched?: boolean };
  if (globalWithFlag.__ircTimersPatched) return;
  const originalSetTimeout = globalThis.setTimeout;
  const patched = ((handler: (...args: unknown[]) => void, timeout?: number, ...rest: unknown[]) => {
    const timer = originalSetTimeout(handler, timeout, ...rest);
    if ((timeout ?? 0) >= LONG_TIMER_MS && typeof timer.unref === "function") timer.unref();
    return timer;
  }) as typeof setTimeout;
  globalThis.setTimeout = Object.assign(patched, originalSetTimeout);
  globalWithFlag.__ircTimersPatched = true;
}

export type ConnectionFields = {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
};

/** Separate fields, not a connection string: see stack notes (P3006 with connectionString). */
export function parseDatabaseUrl(url: string): ConnectionFields {
  const parsed = new URL(url);
  return {
    host: decodeURIComponent(parsed.hostname),
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, "")),
  };
}

class OfflineMigrationAdapter extends PrismaPg {
  constructor(private readonly fields: ConnectionFields) {
    super({ ...fields, allowExitOnIdle: true, max: 4 });
  }

  override async connectToShadowDb() {
    const shadowName = `${this.fields.database}_shadow`;
    const admin = new pg.Client({ ...this.fields, database: "postgres" });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${shadowName}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${shadowName}"`);
    } finally {
      await admin.end();
    }
    return new PrismaPg({ ...this.fields, database: shadowName, allowExitOnIdle: true, max: 2 }).connect();
  }
}

export function createOfflineMigrationAdapter(databaseUrl: string): PrismaPg {
  patchIntrospectionTypes();
  unrefLongTimers();
  return new OfflineMigrationAdapter(parseDatabaseUrl(databaseUrl));
}
