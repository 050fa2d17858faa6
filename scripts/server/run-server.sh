#!/usr/bin/env bash
# scripts/server/run-server.sh NAME [ARGS...]: runs the scoring worker or an operator's script
# (NAME is a key of SERVER_BUNDLES in scripts/build/build-server.mjs; the npm scripts call this).
#
# - dist/server/NAME.cjs, when `npm run build` made it and no source changed since: plain
#   Node, so a production install (`npm ci --omit=dev`, no tsx) runs it;
# - otherwise the TypeScript source through tsx (a development install);
# - neither: stop, saying which build to run.
# Both run with the react-server condition (`import "server-only"` resolves to nothing).
# `exec`, so the process npm started is Node itself and receives SIGTERM directly.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
name="${1:?usage: scripts/server/run-server.sh NAME [ARGS...]}"
shift
status=0
entry="$(node "$ROOT/scripts/build/build-server.mjs" --check "$name")" || status=$?
if [ "$status" -eq 0 ]; then
  exec node --conditions=react-server --enable-source-maps "$ROOT/dist/server/$name.cjs" "$@"
fi
if [ "$status" -ne 1 ]; then exit "$status"; fi
if [ -x "$ROOT/node_modules/.bin/tsx" ]; then
  exec "$ROOT/node_modules/.bin/tsx" --conditions=react-server "$ROOT/$entry" "$@"
fi
echo "$name: dist/server/$name.cjs is missing or older than its sources, and tsx (a devDependency) is not installed." >&2
echo "Build it where devDependencies are installed: npm ci && npm run build (then npm ci --omit=dev may follow); see docs/deploy.md." >&2
exit 1
