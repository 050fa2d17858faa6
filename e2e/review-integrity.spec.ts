import path from "node:path";
import { readFile } from "node:fs/promises";
import { apiContextFor, createTestApiToken, expect, getTestPool, signInContext, test } from "./fixtures";
import { publicationBody } from "./fixtures/publication";

const RELEASE = path.join(__dirname, "..", "data", "demo-release");
const SCORING_TIMEOUT = 60_000;

async function idsAndQids(file: string): Promise<Array<{ id: string; qid: string }>> {
  const text = await readFile(path.join(RELEASE, file), "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { id: string; qid: string });
}

/** A probe: every test sample gets a ranking of one train-split entity, which can never be test gold. */
async function probeFile(): Promise<Buffer> {
  const [test, train] = [await idsAndQids("test.jsonl"), await idsAndQids("train.jsonl")];
  const lines = test.map((sample, index) => JSON.stringify({ id: sample.id, ranking: [train[index % train.length]?.qid] }));
  return Buffer.from(`${lines.join("\n")}\n`);
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
    data: publicationBody(`Single guesser ${Date.now()}`, { methodDescription: "One train entity per sample, to see what happens." }),
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
  await expect(review.getByRole("row", { name: /Single guesser/ }).first()).toContainText("top1_from_known_splits 100.0%");
  await review.goto(`/submissions/${id}`);
  await expect(review.getByTestId("probe-flags")).toContainText("raised");
  await review.getByRole("button", { name: "Approve" }).click();
  await review.getByRole("button", { name: "Yes, publish it" }).click();
  const refusal = review.getByRole("alert").filter({ hasText: "Acknowledge each raised probe flag" });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText("top1_from_known_splits");

  await review.getByRole("checkbox", { name: /single_entry_rankings/ }).check();
  await review.getByRole("checkbox", { name: /top1_from_known_splits/ }).check();
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
  expect(audit.rows[0]?.details.probeFlags.acknowledged).toEqual(["single_entry_rankings", "top1_from_known_splits"]);
});
