/**
 * Creates an account from the command line, or promotes one to maintainer.
 *
 *   npm run user:create -- --email ada@example.org [--name "Ada L."] [--maintainer]
 *   printf '%s' "$PASSWORD" | npm run user:create -- --email ada@example.org
 *   npm run user:create -- --email ada@example.org --promote
 *
 * The password is read from stdin when something is piped in; otherwise one
 * is generated and printed once. An existing email is an error (exit 1)
 * unless --promote is given: then the account becomes a maintainer (created
 * as one if it does not exist yet), so the command is safe to repeat.
 */
import "server-only";
import { parseCommandLine } from "../command-line";
import { generatePassword } from "@/lib/domain/accounts/password";
import { displayNameSchema, emailSchema, newPasswordSchema } from "@/lib/core/accounts/auth-schemas";
import { db } from "@/lib/platform/db";
import { isAppError } from "@/lib/core/errors";
import { changeUserRole } from "@/lib/domain/accounts/change-user-role";
import { createUser } from "@/lib/domain/accounts/create-user";

const USAGE = `usage: npm run user:create -- --email EMAIL [--name NAME] [--maintainer] [--promote]

  --email EMAIL   the account's email (required)
  --name NAME     display name (default: the part of the email before @)
  --maintainer    create the account as a maintainer
  --promote       make an existing account a maintainer (or create one as maintainer)
  --help          show this help

The password is read from stdin when piped; otherwise a random one is printed once.`;

class UsageError extends Error {}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  // Only the trailing newline of `echo` is dropped: spaces inside a password are kept.
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

function readOptions() {
  const command = parseCommandLine({
    name: "npm run user:create",
    usage: USAGE,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      maintainer: { type: "boolean", default: false },
      promote: { type: "boolean", default: false },
    },
  });
  const { values } = command;
  const email = emailSchema.safeParse(values.email ?? "");
  if (!email.success) return command.fail(`--email: ${email.error.issues[0]?.message ?? "required"}`);
  const name = displayNameSchema.safeParse(values.name ?? email.data.split("@")[0] ?? "");
  if (!name.success) return command.fail(`--name: ${name.error.issues[0]?.message ?? "invalid"}`);
  return { email: email.data, displayName: name.data, isMaintainer: values.maintainer || values.promote, promote: values.promote };
}

async function choosePassword(): Promise<{ password: string; isGenerated: boolean }> {
  const piped = process.stdin.isTTY ? "" : await readStdin();
  if (piped.length === 0) return { password: generatePassword(), isGenerated: true };
  const parsed = newPasswordSchema.safeParse(piped);
  if (!parsed.success) throw new UsageError(`password from stdin: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return { password: parsed.data, isGenerated: false };
}

async function promoteExisting(email: string): Promise<boolean> {
  const existing = await db.user.findUnique({ where: { email }, select: { id: true, role: true } });
  if (!existing) return false;
  const change = await changeUserRole({ actor: { kind: "operator", via: "cli" }, userId: existing.id, role: "MAINTAINER", reason: "npm run user:create --promote" });
  console.log(change.isChanged ? `Promoted ${email} (id ${existing.id}) to maintainer.` : `${email} (id ${existing.id}) is already a maintainer.`);
  return true;
}

async function main(): Promise<number> {
  const options = readOptions();
  if (options.promote && (await promoteExisting(options.email))) return 0;

  const { password, isGenerated } = await choosePassword();
  const user = await createUser({
    email: options.email,
    displayName: options.displayName,
    password,
    role: options.isMaintainer ? "MAINTAINER" : "PARTICIPANT",
  });
  console.log(`Created ${user.role === "MAINTAINER" ? "maintainer" : "participant"} ${user.email} (id ${user.id}).`);
  if (isGenerated) console.log(`Password (shown once, store it now): ${password}`);
  return 0;
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`npm run user:create: ${error.message}\n\n${USAGE}`);
    } else if (isAppError(error)) {
      const hint = error.code === "conflict" ? " Use --promote to make it a maintainer." : "";
      console.error(`npm run user:create: ${error.message}${hint}`);
    } else {
      console.error("npm run user:create: failed:", error instanceof Error ? error.message : error);
    }
    process.exitCode = 1;
  })
  .finally(() => db.$disconnect());
