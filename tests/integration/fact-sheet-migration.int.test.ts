import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingFactSheetFields } from "@/lib/core/fact-sheet/completeness";
import { readStoredFactSheet } from "@/lib/core/fact-sheet/schema";
import { openMigrationScratch, type MigrationScratch } from "./support/migration-scratch";

/**
 * The migration 20261202013000_fact_sheet_provenance on a database that still
 * has the free-text publication columns: every migration before it is applied
 * to a scratch database on the test server, old-style rows are inserted, then
 * it runs. Described entries get a version 1 sheet the schema reads, with
 * what the old form never asked left "not stated"; the old columns are gone.
 */

let db: MigrationScratch;
let scratch: pg.Client;

beforeAll(async () => {
  db = await openMigrationScratch("20261202013000_fact_sheet_provenance", "irc_bench_test_fact_sheet_migration");
  scratch = db.client;
});

afterAll(async () => {
  await db?.drop();
});

describe("migrating the free-text publication metadata into fact sheets", () => {
  it("turns each described entry into a readable version 1 sheet and drops the old columns", async () => {
    await scratch.query(`INSERT INTO "User"(id, email, "displayName") VALUES ('u1', 'a@example.org', 'Team A'), ('sys', 's@example.org', 'IRC-Bench maintainers')`);
    await scratch.query(
      `INSERT INTO "DatasetRelease"(id, name, version, description, files, "goldSha256", downloads, stats, leakage) VALUES ('r1', 'n', '1', 'd', '{}', '{}', '{}', '{}', '{}')`,
    );
    await scratch.query(`
      INSERT INTO "Submission"(id, "userId", "releaseId", split, track, "fileSha256", "fileBytes", "originalName", "sampleCount", "systemName",
                               "methodDescription", "paperUrl", "codeUrl", "parameterCount", "isOpenWeights", "externalData", publication, "isBaseline")
      VALUES ('described', 'u1', 'r1', 'test', 'open', 'a', 1, 'f', 1, 'Old System', 'A long enough description.', 'https://example.org/paper', NULL,
              8000000000, true, 'Wikipedia abstracts', 'PUBLISHED', false),
             ('silent', 'u1', 'r1', 'test', 'open', 'b', 1, 'f', 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'PRIVATE', false),
             ('baseline', 'sys', 'r1', 'test', 'open', 'c', 1, 'f', 1, 'BM25', 'BM25 over names.', NULL, NULL, NULL, NULL, NULL, 'PRIVATE', true)`);
    await db.migrate();

    const rows = (await scratch.query<{ id: string; factSheet: unknown }>(`SELECT id, "factSheet" FROM "Submission" ORDER BY id`)).rows;
    const byId = new Map(rows.map((row) => [row.id, row.factSheet]));
    expect(byId.get("silent")).toBeNull();
    expect(byId.get("baseline")).toBeNull();
    const sheet = readStoredFactSheet(byId.get("described"));
    expect(sheet).toMatchObject({
      version: 1,
      systemName: "Old System",
      team: "Team A",
      parameters: 8_000_000_000,
      openWeights: true,
      paperUrl: "https://example.org/paper",
      codeUrl: null,
      dataUsed: { details: "Wikipedia abstracts", train: null, sourceCollections: null },
    });
    expect(sheet === null ? null : missingFactSheetFields(sheet)).toContain("approach");

    const columns = (await scratch.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = 'Submission'`)).rows.map((row) => row.column_name);
    expect(columns).toEqual(expect.arrayContaining(["factSheet", "reproducedAt", "reproducedById", "reproductionId"]));
    for (const gone of ["paperUrl", "codeUrl", "parameterCount", "isOpenWeights", "externalData"]) expect(columns).not.toContain(gone);
  });
});
