import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMigrationScratch, type MigrationScratch } from "./support/migration-scratch";

/**
 * The migration 20261205100000_withdrawn_keep_requested_at on a database of
 * before it: every earlier migration applied to a scratch database on the
 * test server, rows as the old withdrawal left them (PRIVATE, "requestedAt"
 * cleared, a submission.withdraw line in the audit log), then it runs. The
 * publication guard compares a request with every file of the account that
 * ever had one (protocol §12), and a withdrawn file is recognised by its
 * "requestedAt", so the migration gives it back: the time of its latest
 * withdrawal.
 */

let db: MigrationScratch;
let scratch: pg.Client;

beforeAll(async () => {
  db = await openMigrationScratch("20261205100000_withdrawn_keep_requested_at", "irc_bench_test_withdrawn_migration");
  scratch = db.client;
});

afterAll(async () => {
  await db?.drop();
});

describe("restoring requestedAt of publication requests withdrawn before it was kept", () => {
  it("sets a withdrawn file's requestedAt to its latest withdrawal and leaves every other row as it was", async () => {
    await scratch.query(`INSERT INTO "User"(id, email, "displayName") VALUES ('u1', 'a@example.org', 'Team A')`);
    await scratch.query(
      `INSERT INTO "DatasetRelease"(id, name, version, description, files, "goldSha256", downloads, stats, leakage) VALUES ('r1', 'n', '1', 'd', '{}', '{}', '{}', '{}', '{}')`,
    );
    await scratch.query(`
      INSERT INTO "Submission"(id, "userId", "releaseId", split, track, "fileSha256", "fileBytes", "originalName", "sampleCount", publication, "requestedAt")
      VALUES ('withdrawn', 'u1', 'r1', 'test', 'open', 'a', 1, 'f', 1, 'PRIVATE', NULL),
             ('twice', 'u1', 'r1', 'test', 'open', 'b', 1, 'f', 1, 'PRIVATE', NULL),
             ('asked-again', 'u1', 'r1', 'test', 'open', 'c', 1, 'f', 1, 'PENDING', '2026-12-03T09:00:00Z'),
             ('never', 'u1', 'r1', 'test', 'open', 'd', 1, 'f', 1, 'PRIVATE', NULL)`);
    await scratch.query(`
      INSERT INTO "AuditLog"(id, "actorId", action, "targetType", "targetId", "createdAt")
      VALUES ('a1', 'u1', 'submission.withdraw', 'Submission', 'withdrawn', '2026-12-01T10:00:00Z'),
             ('a2', 'u1', 'submission.withdraw', 'Submission', 'twice', '2026-12-01T11:00:00Z'),
             ('a3', 'u1', 'submission.withdraw', 'Submission', 'twice', '2026-12-02T12:00:00Z'),
             ('a4', 'u1', 'submission.withdraw', 'Submission', 'asked-again', '2026-12-02T08:00:00Z'),
             ('a5', 'u1', 'submission.publication-refused', 'Submission', 'never', '2026-12-02T08:00:00Z')`);
    await db.migrate();

    const rows = (await scratch.query<{ id: string; publication: string; requestedAt: Date | null }>(`SELECT id, publication, "requestedAt" FROM "Submission" ORDER BY id`)).rows;
    const byId = new Map(rows.map((row) => [row.id, { publication: row.publication, requestedAt: row.requestedAt?.toISOString() ?? null }]));
    expect(byId.get("withdrawn")).toEqual({ publication: "PRIVATE", requestedAt: "2026-12-01T10:00:00.000Z" });
    expect(byId.get("twice")).toEqual({ publication: "PRIVATE", requestedAt: "2026-12-02T12:00:00.000Z" });
    // Its own request time stays; a refused request never had one.
    expect(byId.get("asked-again")).toEqual({ publication: "PENDING", requestedAt: "2026-12-03T09:00:00.000Z" });
    expect(byId.get("never")).toEqual({ publication: "PRIVATE", requestedAt: null });
  });
});
