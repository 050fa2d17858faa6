import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { envSchema } from "@/lib/platform/env";
import { REPO_ROOT } from "./support/processes";

/**
 * The files of deploy/ that docs/deploy.md tells an operator to copy: the
 * environment template names every variable lib/platform/env.ts reads, each with its
 * meaning, and what it sets parses; the systemd units pass
 * `systemd-analyze verify` without a warning and start Node from PATH; the
 * nginx site passes `nginx -t` (with a throw-away certificate in place of
 * Let's Encrypt's) and proxies to the address the template configures.
 */
const DEPLOY = path.join(REPO_ROOT, "deploy");
const ENV_TEMPLATE = path.join(DEPLOY, "irc-bench.env.example");
const UNITS = ["irc-bench-web.service", "irc-bench-worker@.service"];
const NGINX_SITE = path.join(DEPLOY, "nginx-irc-bench.conf");
/** Variables the platform reads outside lib/platform/env.ts (PORT: package.json's start script; NEXT_DIST_DIR: next.config.ts): the template carries them too. */
const EXTRA_VARIABLES = ["PORT", "NEXT_DIST_DIR"];

const scratch = mkdtempSync(path.join(os.tmpdir(), "irc-deploy-files-"));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The binary's path, installing its Debian package first when it is missing and we are root; null if that is impossible. */
function toolOrInstall(binary: string, debianPackage: string): string | null {
  const find = () => spawnSync("sh", ["-c", `command -v ${binary}`], { encoding: "utf8" }).stdout.trim() || null;
  const found = find();
  if (found || process.getuid?.() !== 0) return found;
  spawnSync("apt-get", ["install", "-y", "-qq", debianPackage], { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, stdio: "ignore", timeout: 300_000 });
  return find();
}

type TemplateLine = { name: string; value: string; isSet: boolean; index: number };

function templateLines(): { lines: string[]; variables: TemplateLine[] } {
  const lines = readFileSync(ENV_TEMPLATE, "utf8").split("\n");
  const variables = lines.flatMap((line, index) => {
    const match = /^(#?)([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    return match ? [{ name: match[2] ?? "", value: match[3] ?? "", isSet: match[1] === "", index }] : [];
  });
  return { lines, variables };
}

describe("deploy/irc-bench.env.example", () => {
  const { lines, variables } = templateLines();
  const names = new Set(variables.map((variable) => variable.name));

  it("names every variable the platform reads", () => {
    const wanted = [...Object.keys(envSchema.shape), ...EXTRA_VARIABLES];
    expect(wanted.filter((name) => !names.has(name))).toEqual([]);
  });

  it("explains each variable in a comment above it", () => {
    const unexplained = variables.filter((variable) => {
      let index = variable.index - 1;
      // Skip the other variables of the same block (one explanation may cover several).
      while (index >= 0 && /^#?[A-Z][A-Z0-9_]*=/.test(lines[index] ?? "")) index -= 1;
      return !/^# \S/.test(lines[index] ?? "");
    });
    expect(unexplained.map((variable) => variable.name)).toEqual([]);
  });

  it("shows the true default of each commented variable under \"defaults shown\"", () => {
    const start = lines.findIndex((line) => line.startsWith("# --- Optional (defaults shown)"));
    expect(start).toBeGreaterThan(0);
    const next = lines.findIndex((line, index) => index > start && line.startsWith("# ---"));
    const end = next === -1 ? lines.length : next;
    const shape: Record<string, { safeParse: (value: unknown) => { success: boolean; data?: unknown } }> = envSchema.shape;
    const wrong = variables
      .filter((variable) => variable.index > start && variable.index < end && !variable.isSet && shape[variable.name] !== undefined)
      .flatMap((variable) => {
        const fallback = shape[variable.name]?.safeParse(undefined);
        // Variables without a default show an example value (a bucket name, an endpoint).
        if (!fallback?.success || fallback.data === undefined) return [];
        const shown = shape[variable.name]?.safeParse(variable.value);
        return shown?.success && JSON.stringify(shown.data) === JSON.stringify(fallback.data) ? [] : [`${variable.name}=${variable.value} (the default is ${JSON.stringify(fallback.data)})`];
      });
    expect(wrong).toEqual([]);
  });

  it("sets what production requires, to values the platform accepts", () => {
    const set = Object.fromEntries(variables.filter((variable) => variable.isSet).map((variable) => [variable.name, variable.value]));
    expect(set).toMatchObject({ NODE_ENV: "production", BIND_HOST: "127.0.0.1" });
    for (const name of ["DATABASE_URL", "REDIS_URL", "NEXTAUTH_SECRET", "IRC_SLICE_SECRET", "PUBLIC_URL"]) expect(set[name], name).toBeTruthy();
    expect(set.IRC_SLICE_SECRET?.length).toBeGreaterThanOrEqual(32);
    const parsed = envSchema.safeParse(set);
    expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues)).toBe(true);
  });
});

describe("deploy/*.service", () => {
  it("pass systemd-analyze verify without a warning", (context) => {
    const systemdAnalyze = toolOrInstall("systemd-analyze", "systemd");
    if (!systemdAnalyze) return context.skip("systemd-analyze is not installed and cannot be (not root): apt-get install systemd");
    const dir = path.join(scratch, "units");
    execFileSync("mkdir", ["-p", dir]);
    // A template unit is verified as one of its instances, the way systemctl starts it.
    const files = UNITS.map((unit) => {
      const target = path.join(dir, unit.replace("@.service", "@1.service"));
      copyFileSync(path.join(DEPLOY, unit), target);
      return target;
    });
    const result = spawnSync(systemdAnalyze, ["verify", ...files], { encoding: "utf8", timeout: 60_000 });
    const warnings = result.stderr.split("\n").filter((line) => line.includes("irc-bench"));
    expect({ status: result.status, warnings }).toEqual({ status: 0, warnings: [] });
  });

  it("start Node from PATH, never a fixed node binary", () => {
    for (const unit of UNITS) {
      const execStart = readFileSync(path.join(DEPLOY, unit), "utf8").split("\n").filter((line) => line.startsWith("ExecStart="));
      expect(execStart, unit).toHaveLength(1);
      expect(execStart[0], unit).toMatch(/^ExecStart=\/usr\/bin\/env (node|bash) /);
      expect(execStart[0], unit).not.toMatch(/\/node\b/);
    }
  });
});

describe("deploy/nginx-irc-bench.conf", () => {
  it("passes nginx -t and proxies to the web server's BIND_HOST:PORT of the template", (context) => {
    const nginx = toolOrInstall("nginx", "nginx");
    if (!nginx) return context.skip("nginx is not installed and cannot be (not root): apt-get install nginx");
    const dir = path.join(scratch, "nginx");
    execFileSync("mkdir", ["-p", dir]);
    // A self-signed pair where the site names Let's Encrypt's files; nothing else is changed.
    const certificate = path.join(dir, "fullchain.pem");
    const key = path.join(dir, "privkey.pem");
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=irc-bench.example.org", "-keyout", key, "-out", certificate], { stdio: "ignore" });
    const site = readFileSync(NGINX_SITE, "utf8")
      .replace("/etc/letsencrypt/live/irc-bench.example.org/fullchain.pem", certificate)
      .replace("/etc/letsencrypt/live/irc-bench.example.org/privkey.pem", key);
    expect(site).toContain(certificate);
    expect(site).toContain(key);
    writeFileSync(path.join(dir, "site.conf"), site);
    // What Debian's /etc/nginx/nginx.conf gives a site: an http block that includes it.
    writeFileSync(
      path.join(dir, "nginx.conf"),
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n    access_log off;\n    include ${dir}/site.conf;\n}\n`,
    );
    const result = spawnSync(nginx, ["-t", "-p", dir, "-e", path.join(dir, "error.log"), "-c", path.join(dir, "nginx.conf")], { encoding: "utf8", timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain("test is successful");
    expect(result.stderr).not.toMatch(/\[warn\]/);

    const { variables } = templateLines();
    const value = (name: string) => variables.find((variable) => variable.name === name && variable.isSet)?.value;
    expect(site).toMatch(new RegExp(`server ${value("BIND_HOST")?.replaceAll(".", "\\.")}:${value("PORT")};`));
  });
});
