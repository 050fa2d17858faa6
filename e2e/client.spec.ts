import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";

/**
 * The participant's terminal journey: a token made on the account page, the
 * client downloaded from the dataset page (checked against the SHA-256 shown
 * there) and run with plain Node against the running site, a dev file
 * submitted and waited for, and the API page that documents what it calls.
 */

const PREDICTIONS = path.join(__dirname, "..", "data", "demo-predictions");

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

test("[CLIENT] a participant downloads the client, logs in with a new token and submits a dev file with --wait", async ({ page, createUser, signInAs, baseURL }) => {
  const ada = await createUser({ label: "terminal" });
  await signInAs(ada);
  await page.goto("/account/tokens");
  await page.getByLabel("Token name").fill("terminal");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = await page.getByLabel("Your new API token").inputValue();

  await page.goto("/dataset");
  const row = page.getByTestId("client-download");
  const shown = (await row.locator("code").innerText()).trim();
  expect(shown).toMatch(/^[0-9a-f]{64}$/);
  const folder = await mkdtemp(path.join(os.tmpdir(), "irc-terminal-"));
  try {
    const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("link").click()]);
    const client = path.join(folder, download.suggestedFilename());
    expect(path.basename(client)).toBe("irc-bench-client.mjs");
    await download.saveAs(client);
    expect(sha256(await readFile(client))).toBe(shown);

    // Plain node in an empty folder: no node_modules, its own config file.
    const env = { NODE_ENV: "production" as const, PATH: process.env.PATH ?? "", HOME: folder, IRC_BENCH_CONFIG: path.join(folder, "config.json") };
    const run = (args: string[], input = "") => spawnSync(process.execPath, [client, ...args], { cwd: folder, env, input, encoding: "utf8", timeout: 120_000 });

    const login = run(["login", "--url", baseURL ?? ""], `${token}\n`);
    expect(login.stderr).toBe("");
    expect(login.status).toBe(0);
    expect(login.stdout).toContain(`as ${ada.displayName} (participant)`);
    expect((await stat(path.join(folder, "config.json"))).mode & 0o777).toBe(0o600);

    const predictions = path.join(folder, "preds.jsonl");
    await copyFile(path.join(PREDICTIONS, "dev-open.jsonl"), predictions);
    const submit = run(["submit", predictions, "--wait"]);
    expect(submit.status, submit.stderr).toBe(0);
    expect(submit.stdout).toMatch(/^Submission \w+: dev split, open-world track, 27 samples, SCORED in /);
    // 15 of the 27 dev samples right: the 55.6 the site and the offline scorer show for this file.
    expect(submit.stdout).toMatch(/^alias \(primary\)\s+55\.6%\s+\[/m);
    const id = /^Submission (\w+):/.exec(submit.stdout)?.[1] ?? "";

    const invalid = run(["submit", path.join(PREDICTIONS, "invalid-open.jsonl")]);
    expect(invalid.status).toBe(1);
    expect(invalid.stderr).toMatch(/invalid-open\.jsonl:\d+: /);

    const list = run(["list"]);
    expect(list.status).toBe(0);
    expect(list.stdout).toContain(id);
    await page.goto(`/submissions/${id}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText("preds.jsonl").first()).toBeVisible();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test("[CLIENT] the API page documents every operation of /api/openapi.json and offers the client with its SHA-256", async ({ page, request }) => {
  const response = await request.get("/api/openapi.json");
  expect(response.status()).toBe(200);
  const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };
  expect(document.openapi).toBe("3.1.0");

  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { level: 1, name: "API" })).toBeVisible();
  for (const [route, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      await expect(page.locator(`section#${operation.operationId}`).getByRole("heading", { level: 3 })).toContainText(`${method}${route}`);
    }
  }
  const upload = page.locator("section#createSubmission");
  await expect(upload.getByRole("table", { name: "Responses" })).toContainText("429");
  // Both the 201 and the idempotent replay's 200 return a SubmissionCreated.
  await upload.getByRole("link", { name: "SubmissionCreated" }).first().click();
  await expect(page).toHaveURL(/#schema-SubmissionCreated$/);
  await expect(page.locator("#schema-SubmissionCreated").getByRole("table")).toContainText("statusUrl");

  const client = await request.get("/dataset/download/irc-bench-client.mjs");
  const expected = sha256(await client.body());
  await expect(page.getByTestId("api-client-download")).toContainText(expected);
});
