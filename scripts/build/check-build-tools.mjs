/**
 * node scripts/build/check-build-tools.mjs   (the first step of npm run build)
 *
 * The build needs packages that are devDependencies: esbuild (the offline
 * scorer, the client and the server bundles: build-cli.mjs, build-server.mjs),
 * TypeScript and the React and Node type packages (Next.js checks the
 * TypeScript configuration), and Tailwind CSS with its PostCSS plugin
 * (postcss.config.mjs). `npm ci` leaves all of them out when NODE_ENV is
 * production (an operator who sourced the production environment file), and
 * the build then failed deep inside with "esbuild is not installed". This
 * stops first, with one sentence naming the cause and the fix.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BUILD_TOOLS = ["esbuild", "typescript", "@types/react", "@types/node", "tailwindcss", "@tailwindcss/postcss"];

const missing = BUILD_TOOLS.filter((name) => !existsSync(path.join(ROOT, "node_modules", name, "package.json")));
if (missing.length > 0) {
  const tools = missing.join(", ");
  const message =
    process.env.NODE_ENV === "production"
      ? `npm run build: the build tools (${tools}) are not installed because NODE_ENV=production made npm ci leave out devDependencies; install them with \`npm ci --include=dev\`, then run npm run build again (docs/deploy.md, "Build").`
      : `npm run build: the build tools (${tools}) are not installed (an install with --omit=dev?); install them with \`npm ci --include=dev\`, then run npm run build again (docs/deploy.md, "Build").`;
  console.error(message);
  process.exit(1);
}
