import { expect, test, waitForBaselines } from "./fixtures";

/**
 * One story per number (issue 35): the interval of a public test number is
 * explained in the same words on the leaderboard's "How to read", an entry
 * page, /dataset and the LaTeX export's header, at a phone's width and a
 * laptop's; and no page calls the public interval a bootstrap.
 */

const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "laptop", width: 1366, height: 768 },
] as const;

test.beforeAll(async () => {
  await waitForBaselines(120_000);
});

for (const size of WIDTHS) {
  test(`[EXPLANATIONS] the interval reads the same on the leaderboard, an entry page, /dataset and the LaTeX header (${size.name})`, async ({ page, request }) => {
    await page.setViewportSize({ width: size.width, height: size.height });

    await page.goto("/leaderboard?track=closed");
    const guide = page.getByTestId("reading-guide");
    await guide.locator("summary").click();
    const onLeaderboard = (await guide.getByTestId("interval-explanation").innerText()).trim();
    expect(onLeaderboard).toContain("Binomial(n, v)");
    expect(onLeaderboard).toContain("always contains v");
    await expect(guide).not.toContainText("1,000 resamples");
    await expect(guide).not.toContainText("percentile bootstrap");
    // The slice's n, rounding and the noise are explained beside it.
    await expect(guide.getByTestId("explain-n")).toContainText("n is the size of the ranking slice (here n = ");
    await expect(guide.getByTestId("explain-rounding")).toContainText("5 of 7 right reads 71");
    await expect(guide.getByTestId("explain-perturbation")).toContainText("perturbed by seeded noise");

    // An entry page: the first system of the table.
    const firstSystem = page.locator("table tbody tr a[href^='/entries/']").first();
    const href = await firstSystem.getAttribute("href");
    expect(href).not.toBeNull();
    await page.goto(href ?? "/");
    const onEntry = (await page.getByTestId("interval-explanation").innerText()).trim();
    expect(onEntry).toBe(onLeaderboard);

    await page.goto("/dataset");
    const onDataset = (await page.getByTestId("interval-explanation").innerText()).trim();
    expect(onDataset).toBe(onLeaderboard);
    await expect(page.getByTestId("explain-n")).toContainText(/here n = \d+ of the \d+ test samples; the other \d+ are the feedback slice/);
    await expect(page.locator("#integrity")).not.toContainText("bootstrap");

    const latex = await request.get("/api/leaderboard/export?track=closed&format=tex");
    expect(latex.status()).toBe(200);
    const header = (await latex.text()).split("\n")[0] ?? "";
    expect(header.startsWith("% ")).toBe(true);
    expect(header).toContain(onLeaderboard);
  });
}
