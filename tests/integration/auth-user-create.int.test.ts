import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/domain/accounts/password";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { assertTestDatabase } from "@/testing/local-database";
import { deleteTestUsers, uniqueEmail } from "@/testing/test-users";

const ROOT = path.resolve(__dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");

type RunResult = { code: number | null; stdout: string; stderr: string };

/** Runs `npm run user:create -- ...args` the way an operator would (tsx with the react-server condition). */
function runUserCreate(args: string[], stdin?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ["--conditions=react-server", "scripts/ops/user-create.ts", ...args], {
      cwd: ROOT,
      env: process.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}

const emails: string[] = [];

beforeAll(() => {
  assertTestDatabase();
});

afterAll(async () => {
  const users = await db.user.findMany({ where: { email: { in: emails } }, select: { id: true } });
  await deleteTestUsers(users.map((user) => user.id));
  await db.$disconnect();
  await getSharedRedis().quit();
});

describe("npm run user:create", () => {
  it("creates a participant with a generated password printed once", async () => {
    const email = uniqueEmail("cli-gen");
    emails.push(email);
    const result = await runUserCreate(["--email", email.toUpperCase(), "--name", "Cli Generated"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Created participant ${email}`);
    const password = /Password \(shown once, store it now\): (\S+)/.exec(result.stdout)?.[1] ?? "";
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    expect(user).toMatchObject({ displayName: "Cli Generated", role: "PARTICIPANT" });
    await expect(verifyPassword(password, user.passwordHash ?? "")).resolves.toBe(true);
  }, 60_000);

  it("takes the password from stdin, creates maintainers, refuses an existing email and promotes with --promote", async () => {
    const email = uniqueEmail("cli-stdin");
    emails.push(email);
    const created = await runUserCreate(["--email", email, "--maintainer"], "a piped password with spaces\n");
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`Created maintainer ${email}`);
    expect(created.stdout).not.toContain("Password");
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    expect(user.displayName).toBe(email.split("@")[0]);
    await expect(verifyPassword("a piped password with spaces", user.passwordHash ?? "")).resolves.toBe(true);

    const again = await runUserCreate(["--email", email], "another password here");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
    const unchanged = await db.user.findUniqueOrThrow({ where: { email } });
    expect(unchanged.passwordHash).toBe(user.passwordHash);

    const participantEmail = uniqueEmail("cli-promote");
    emails.push(participantEmail);
    expect((await runUserCreate(["--email", participantEmail], "participant password")).code).toBe(0);
    const promoted = await runUserCreate(["--email", participantEmail, "--promote"]);
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toContain("to maintainer");
    const participant = await db.user.findUniqueOrThrow({ where: { email: participantEmail } });
    expect(participant.role).toBe("MAINTAINER");
    const audit = await db.auditLog.findFirstOrThrow({ where: { targetId: participant.id, action: "user.role_changed" } });
    expect(audit).toMatchObject({ actorId: null, details: { from: "PARTICIPANT", to: "MAINTAINER", via: "cli" } });
    const repeated = await runUserCreate(["--email", participantEmail, "--promote"]);
    expect(repeated.code).toBe(0);
    expect(repeated.stdout).toContain("already a maintainer");
  }, 120_000);

  it("explains a bad option with the usage and exits 2, a bad piped password and exits 1", async () => {
    const missing = await runUserCreate([]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("npm run user:create: --email");
    expect(missing.stderr).toContain("usage: npm run user:create");
    const short = await runUserCreate(["--email", uniqueEmail("cli-short")], "short");
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("at least 10 characters");
  }, 60_000);
});
