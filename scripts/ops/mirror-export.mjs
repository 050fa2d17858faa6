/**
 * npm run mirror:export -- --out DIR [--url URL]
 *
 * Writes the whole public record of a running IRC-Bench site as static files
 * that any static file server can serve (docs/public-log.md, "The mirror"):
 * every leaderboard view (each track, entity type and scope, the matrix) and
 * every entry page as plain HTML without scripts (links between mirrored pages
 * rewritten to the mirror's files), the change log page of the site and of each
 * entry, the dataset page, the JSON API bodies (leaderboard views, entries),
 * the CSV / JSON / LaTeX exports, the public log with its signed head and key,
 * the release downloads with SHA256SUMS, and manifest.json: the SHA-256 of
 * every file, the log head and its signature. It reads only public URLs, as
 * any reader could; the log head is read before and after, and the export is
 * made again when the log moved in between.
 */
import { createHash } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
/* global fetch -- Node 20 has it */

const USAGE = `Usage: npm run mirror:export -- --out DIR [--url URL]
Writes the site's public record as static files in DIR (emptied first): pages as plain HTML,
API bodies, exports, the public log with its signed head, downloads, manifest.json.
URL: the running site (default PUBLIC_URL, else http://localhost:$PORT, else :3000).`;

const TRACKS = ["open", "closed", "unified"];
const SCOPES = ["primary", "all"];
/** Protocol section 1's seven types and their pages' slugs (lib/core/leaderboard/views.ts TYPE_SLUGS). */
const TYPES = { Place: "place", Organization: "organization", Person: "person", Event: "event", Work: "work", "Military Unit": "military-unit", Other: "other" };
const EXPORT_FORMATS = ["csv", "json", "tex"];
const ATTEMPTS = 3;

function fail(message, code = 2) {
  process.stderr.write(`mirror:export: ${message}\n`);
  process.exit(code);
}

function parse() {
  let values;
  try {
    ({ values } = parseArgs({ options: { out: { type: "string" }, url: { type: "string" }, help: { type: "boolean", short: "h" } } }));
  } catch (error) {
    fail(`${error.message}\n\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (!values.out) fail(`--out DIR is required\n\n${USAGE}`);
  const url = (values.url ?? process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, "");
  return { out: path.resolve(values.out), url };
}

/** The mirror's file for a site URL (path and query): /leaderboard?track=closed -> leaderboard/~track=closed/index.html. */
function pageDir(target) {
  const url = new URL(target, "http://mirror.invalid");
  const query = [...url.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, value]) => `${key}=${value}`).join("&");
  const base = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, "");
  const safeQuery = query === "" ? "" : `~${query.replace(/[^A-Za-z0-9=&._-]/g, "_")}`;
  return [base, safeQuery].filter((part) => part !== "").join("/");
}

function hrefOf(dir) {
  return `/${dir.split("/").map(encodeURIComponent).join("/")}${dir === "" ? "" : "/"}`;
}

async function fetchOk(base, target, accept) {
  for (let attempt = 1; ; attempt += 1) {
    let response;
    try {
      response = await fetch(`${base}${target}`, { headers: { Accept: accept ?? "*/*", "Accept-Encoding": "identity" }, redirect: "follow" });
    } catch (error) {
      if (attempt >= ATTEMPTS) fail(`GET ${target}: ${base} did not answer (${error.cause?.message ?? error.message})`);
      continue;
    }
    if (response.ok) return Buffer.from(await response.arrayBuffer());
    if (attempt >= ATTEMPTS || response.status < 500) fail(`GET ${target}: ${response.status} ${response.statusText}`);
  }
}

/** A page as plain HTML: scripts and script preloads removed, links to mirrored pages pointing into the mirror. */
function plainHtml(html, pages) {
  let text = html.replace(/<script\b[\s\S]*?<\/script>/gi, "").replace(/<link\b[^>]*\bas="script"[^>]*>/gi, "").replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, "");
  text = text.replace(/href="([^"]*)"/g, (whole, href) => {
    const target = href.replace(/&amp;/g, "&");
    if (!target.startsWith("/") || target.startsWith("//")) return whole;
    const [withoutHash, hash] = target.split("#");
    const dir = pages.get(pageDir(withoutHash));
    return dir === undefined ? whole : `href="${hrefOf(dir)}${hash === undefined ? "" : `#${hash}`}"`;
  });
  return text;
}

async function exportOnce(base, out) {
  const files = new Map();
  const put = (file, bytes) => files.set(file, Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));
  const getJson = async (target) => JSON.parse((await fetchOk(base, target, "application/json")).toString("utf8"));

  const headBefore = await getJson("/api/public-log/head");
  put("api/public-log.jsonl", await fetchOk(base, "/api/public-log", "application/jsonl"));
  put("api/public-log/key.json", await fetchOk(base, "/api/public-log/key", "application/json"));
  put("api/entries.json", await fetchOk(base, "/api/entries", "application/json"));
  const entries = (await getJson("/api/entries")).entries ?? [];

  const pageTargets = ["/", "/dataset", "/dataset/releases", "/changes"];
  for (const track of TRACKS) {
    for (const scope of SCOPES) {
      const scopePart = scope === "primary" ? "" : "&scope=all";
      pageTargets.push(`/leaderboard?track=${track}${scopePart}`, `/leaderboard/matrix?track=${track}${scopePart}`);
      put(`api/leaderboard/${track}-${scope}.json`, await fetchOk(base, `/api/leaderboard?track=${track}${scopePart}&limit=1000`, "application/json"));
      for (const format of EXPORT_FORMATS) put(`exports/leaderboard-${track}-${scope}.${format}`, await fetchOk(base, `/api/leaderboard/export?track=${track}${scopePart}&format=${format}`));
      for (const [type, slug] of Object.entries(TYPES)) {
        const typePart = `&type=${encodeURIComponent(type)}`;
        pageTargets.push(`/leaderboard/types/${slug}?track=${track}${scopePart}`);
        put(`api/leaderboard/${track}-${scope}-${type.replace(/ /g, "_")}.json`, await fetchOk(base, `/api/leaderboard?track=${track}${typePart}${scopePart}&limit=1000`, "application/json"));
        for (const format of EXPORT_FORMATS) put(`exports/leaderboard-${track}-${scope}-${type.replace(/ /g, "_")}.${format}`, await fetchOk(base, `/api/leaderboard/export?track=${track}${typePart}${scopePart}&format=${format}`));
      }
    }
  }
  pageTargets.push("/leaderboard");
  for (const entry of entries) {
    const id = encodeURIComponent(entry.id);
    pageTargets.push(`/entries/${id}`, `/changes?entry=${id}`);
    put(`api/entries/${entry.id}.json`, await fetchOk(base, `/api/entries/${id}`, "application/json"));
    if (entry.split === "test") {
      for (const table of ["by-type", "by-collection"]) for (const format of EXPORT_FORMATS) put(`exports/entries/${entry.id}-${table}.${format}`, await fetchOk(base, `/api/entries/${id}/export?table=${table}&format=${format}`));
    }
  }

  const pages = new Map(pageTargets.map((target) => [pageDir(target), pageDir(target)]));
  const styles = new Set();
  for (const target of pageTargets) {
    const html = (await fetchOk(base, target, "text/html")).toString("utf8");
    for (const match of html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="(\/[^"]+)"/g)) styles.add(match[1]);
    const dir = pageDir(target);
    put(path.posix.join(dir, "index.html"), plainHtml(html, pages));
  }
  for (const style of styles) put(decodeURIComponent(style.split("?")[0]).replace(/^\/+/, ""), await fetchOk(base, style, "text/css"));

  const sums = [];
  for (const name of ["train.jsonl", "dev.jsonl", "test.jsonl", "kb.jsonl"]) {
    const bytes = await fetchOk(base, `/dataset/download/${name}`, "text/plain");
    put(`dataset/download/${name}`, bytes);
    sums.push(`${createHash("sha256").update(bytes).digest("hex")}  ${name}`);
  }
  put("dataset/download/SHA256SUMS", `${sums.join("\n")}\n`);

  const headAfter = await getJson("/api/public-log/head");
  if (headAfter.seq !== headBefore.seq || headAfter.hash !== headBefore.hash) return null;

  const listed = [...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([file, bytes]) => ({ path: file, bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") }));
  const manifest = { format: "irc-bench-mirror/1", source: base, exportedAt: new Date().toISOString(), logHead: headAfter, logKey: JSON.parse(files.get("api/public-log/key.json").toString("utf8")), files: listed };
  await rm(out, { recursive: true, force: true });
  for (const [file, bytes] of files) {
    const full = path.join(out, file);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, bytes);
  }
  await writeFile(path.join(out, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(path.join(out, "SHA256SUMS"), listed.map((file) => `${file.sha256}  ${file.path}`).join("\n") + "\n");
  return { files: listed.length, head: headAfter };
}

const { out, url } = parse();
for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
  const result = await exportOnce(url, out);
  if (result !== null) {
    process.stdout.write(`Mirrored ${url} into ${out}: ${result.files} files, public log head ${result.head.seq} ${result.head.hash} (manifest.json, SHA256SUMS).\n`);
    process.exit(0);
  }
  process.stderr.write("mirror:export: the public log moved during the export; exporting again\n");
}
fail(`the public log kept moving during ${ATTEMPTS} exports; try again when the site is quiet`, 1);
