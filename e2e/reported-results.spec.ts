import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { FACT_SHEET_TEMPLATE } from "@/lib/core/fact-sheet/template";
import { expect, getTestPool, runScript, test, waitForBaselines } from "./fixtures";

/**
 * Reported results as readers expect them (issue 35): the demo release has none, and the leaderboard says so
 * with the paper's link; the provenance filter "reported" shows no scored row; once a paper's numbers for this
 * release are imported they show as labelled rows on the whole test split with the paper linked, and the filter
 * returns exactly them; an entry whose fact sheet has paper and code links shows them in its row.
 */

const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "laptop", width: 1366, height: 768 },
] as const;

const REPORTED_NAME = "e2e reported C0";

type ApiRow = { id: string | null; kind: string; system: string };

async function apiRows(request: { get: (url: string) => Promise<{ json: () => Promise<unknown> }> }, query: string): Promise<ApiRow[]> {
  const body = (await (await request.get(`/api/leaderboard?${query}`)).json()) as { entries: ApiRow[] };
  return body.entries;
}

test.beforeAll(async () => {
  await waitForBaselines(120_000);
});

test.afterEach(async () => {
  await getTestPool().query(`DELETE FROM "ReportedResult" WHERE "name" = $1`, [REPORTED_NAME]);
});

for (const size of WIDTHS) {
  test(`[REPORTED] the demo has no reported results and says so with the paper's link; imported ones are labelled rows the filter returns alone (${size.name})`, async ({
    page,
    request,
  }) => {
    // Two imports and five page loads on a shared machine.
    test.setTimeout(120_000);
    await page.setViewportSize({ width: size.width, height: size.height });

    // No reported results: the filter "reported" shows no scored row, and the page says why, with the paper.
    expect(await apiRows(request, "track=closed&tier=reported")).toEqual([]);
    await page.goto("/leaderboard?track=closed&tier=reported");
    const empty = page.getByTestId("no-reported");
    await expect(empty).toContainText("No reported results for this release");
    await expect(empty.getByTestId("paper-link")).toHaveAttribute("href", "/dataset#cite");
    await expect(page.locator("[data-kind='baseline'], [data-kind='submission']")).toHaveCount(0);
    await empty.getByTestId("paper-link").click();
    await expect(page.locator("#cite")).toBeVisible();

    // A paper's numbers for this release, typed in by a maintainer.
    const dir = await mkdtemp(path.join(os.tmpdir(), "reported-"));
    try {
      const file = path.join(dir, "reported.json");
      const row = { name: REPORTED_NAME, track: "closed", split: "test", metrics: { "hit@1": 0.3, "hit@3": 0.4, "hit@5": 0.45, "hit@10": 0.5, mrr: 0.36, "alias_hit@1": 0.31 }, source: "IRC-Bench paper, Table 5" };
      await writeFile(file, JSON.stringify({ release: { name: "irc-bench-demo", version: "1.0" }, results: [row] }));
      runScript("scripts/ops/reported-import.ts", [file]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    await expect.poll(async () => (await apiRows(request, "track=closed")).some((entry) => entry.kind === "reported"), { timeout: 15_000 }).toBe(true);
    await page.goto("/leaderboard?track=closed");
    await expect(page.getByTestId("reported-note")).toContainText("on the whole test split");
    const reportedRow = page.locator(size.width < 768 ? "[data-testid='leaderboard-cards'] li[data-kind='reported']" : "table tbody tr").filter({ hasText: REPORTED_NAME }).first();
    await expect(reportedRow).toContainText("reported");
    await expect(reportedRow).toContainText("whole test split");
    await expect(reportedRow.getByRole("link", { name: `Paper of ${REPORTED_NAME}` })).toHaveAttribute("href", "/dataset#cite");

    // The filter returns only the reported rows.
    const filtered = await apiRows(request, "track=closed&tier=reported");
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((entry) => entry.kind === "reported")).toBe(true);
    await page.goto("/leaderboard?track=closed&tier=reported");
    await expect(page.locator("[data-kind='baseline'], [data-kind='submission']")).toHaveCount(0);
    await expect(page.locator(`text="${REPORTED_NAME}" >> visible=true`).first()).toBeVisible();
  });
}

test("[REPORTED] an entry's row links its paper and code from its fact sheet", async ({ page, request }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const baseline = (await apiRows(request, "track=closed")).find((entry) => entry.kind === "baseline");
  expect(baseline?.id).toBeTruthy();
  const id = baseline?.id ?? "";
  const before = await getTestPool().query<{ factSheet: unknown }>(`SELECT "factSheet" FROM "Submission" WHERE id = $1`, [id]);
  const sheet = { ...FACT_SHEET_TEMPLATE, paperUrl: "https://example.org/paper.pdf", codeUrl: "https://example.org/code" };
  await getTestPool().query(`UPDATE "Submission" SET "factSheet" = $2 WHERE id = $1`, [id, JSON.stringify(sheet)]);
  try {
    await expect
      .poll(async () => {
        await page.goto("/leaderboard?track=closed");
        return page.getByRole("link", { name: `Code of ${baseline?.system}` }).count();
      }, { timeout: 15_000 })
      .toBeGreaterThan(0);
    await expect(page.getByRole("link", { name: `Paper of ${baseline?.system}` }).first()).toHaveAttribute("href", "https://example.org/paper.pdf");
    await expect(page.getByRole("link", { name: `Code of ${baseline?.system}` }).first()).toHaveAttribute("href", "https://example.org/code");
  } finally {
    await getTestPool().query(`UPDATE "Submission" SET "factSheet" = $2 WHERE id = $1`, [id, before.rows[0]?.factSheet === null ? null : JSON.stringify(before.rows[0]?.factSheet)]);
  }
});
