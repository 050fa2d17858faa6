import { apiContextFor, createTestApiToken, expect, getTestPool, signInContext, test } from "./fixtures";
import { publicationBody } from "./fixtures/publication";
import { publishableTestFile } from "./fixtures/scored-upload";

const SCORING_TIMEOUT = 60_000;

/**
 * A probe: one open answer in four is the same one-character string ("x"), which raises two probe flags
 * (most_common_prediction and short_predictions, 25% each, thresholds 20%). The other answers are
 * publishableTestFile's, so the file stays far enough from every baseline for the v1.3 guard (a file of
 * one train entity per sample, the probe before v1.3, is now refused before any review: every such
 * answer is one answer, so it does not differ from the train-frequency floor at all).
 */
async function probeFile(): Promise<Buffer> {
  const lines = (await publishableTestFile("open")).toString("utf8").split("\n").filter((line) => line.trim() !== "");
  const probe = lines.map((line, index) => (index % 4 === 1 ? JSON.stringify({ id: (JSON.parse(line) as { id: string }).id, prediction: "x" }) : line));
  return Buffer.from(`${probe.join("\n")}\n`);
}

test("[REVIEW] a flagged test file is approved only after the maintainer acknowledges each raised flag; the owner never sees the flags", async ({
  page,
  playwright,
  browser,
  baseURL,
  createUser,
  signInAs,
}) => {
  const owner = await createUser({ label: "prober" });
  const maintainer = await createUser({ label: "flag-maint", role: "MAINTAINER" });
  const { token } = await createTestApiToken(owner.id);
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
  const created = await api.post("/api/submissions", { multipart: { file: { name: "probe.jsonl", mimeType: "application/jsonl", buffer: await probeFile() } } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await expect
    .poll(async () => ((await (await api.get(`/api/submissions/${id}`)).json()) as { status: string }).status, { timeout: SCORING_TIMEOUT })
    .toBe("SCORED");
  const ownJson = (await (await api.get(`/api/submissions/${id}`)).json()) as Record<string, unknown>;
  expect(ownJson).not.toHaveProperty("probe_flags");
  const publication = await api.post(`/api/submissions/${id}/publication`, {
    data: publicationBody(`Single guesser ${Date.now()}`, { methodDescription: "One answer in four is the letter x, to see what happens." }),
  });
  expect(publication.status(), await publication.text()).toBe(202);
  await api.dispose();

  await signInAs(owner);
  await page.goto(`/submissions/${id}`);
  await expect(page.getByTestId("submission-visibility")).toContainText("Private until a maintainer approves");
  await expect(page.getByTestId("probe-flags")).toHaveCount(0);

  const maintainerContext = await browser.newContext({ baseURL });
  await signInContext(maintainerContext, baseURL ?? "", maintainer);
  const review = await maintainerContext.newPage();
  await review.goto("/admin/review");
  await expect(review.getByRole("row", { name: /Single guesser/ }).first()).toContainText("short_predictions 25.0%");
  await review.goto(`/submissions/${id}`);
  await expect(review.getByTestId("probe-flags")).toContainText("raised");
  await review.getByRole("button", { name: "Approve" }).click();
  await review.getByRole("button", { name: "Yes, publish it" }).click();
  const refusal = review.getByRole("alert").filter({ hasText: "Acknowledge each raised probe flag" });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText("most_common_prediction");
  await expect(refusal).toContainText("short_predictions");

  await review.getByRole("checkbox", { name: /most_common_prediction/ }).check();
  await review.getByRole("checkbox", { name: /short_predictions/ }).check();
  await review.getByLabel("Reason (shown to the owner; required to reject)").fill("Checked with the authors: a deliberate floor.");
  await review.getByRole("button", { name: "Approve" }).click();
  await review.getByRole("button", { name: "Yes, publish it" }).click();
  await expect(review.getByRole("status")).toContainText("Approved: the entry is on the public leaderboard.");
  await maintainerContext.close();

  await page.goto(`/submissions/${id}`);
  await expect(page.getByTestId("submission-visibility")).toContainText("Public: published on the leaderboard");
  const audit = await getTestPool().query<{ reason: string; details: { probeFlags: { acknowledged: string[] } } }>(
    `SELECT reason, details FROM "AuditLog" WHERE "targetId" = $1 AND action = 'submission.approve'`,
    [id],
  );
  expect(audit.rows).toHaveLength(1);
  expect(audit.rows[0]?.reason).toBe("Checked with the authors: a deliberate floor.");
  expect(audit.rows[0]?.details.probeFlags.acknowledged).toEqual(["most_common_prediction", "short_predictions"]);
});
