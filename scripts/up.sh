#!/usr/bin/env bash
# Brings the whole platform up on the bundled demo release: dependencies,
# PostgreSQL and Redis, migrations, demo data, production build, then the web
# server and one scoring worker. Stop with Ctrl-C.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
PORT="${PORT:-3000}"
export PORT

ensure_dependencies
start_services
ensure_auth_secret
ensure_slice_secret
# next-auth's URL follows the public one (PUBLIC_URL, README: Configuration) when that is set.
export NEXTAUTH_URL="${NEXTAUTH_URL:-${PUBLIC_URL:-http://localhost:$PORT}}"
migrate

step "Importing the demo release and queuing its baselines (idempotent)"
npx tsx --conditions=react-server scripts/dataset-import.ts data/demo-release --activate
npx tsx --conditions=react-server scripts/baselines.ts

step "Publishing the demo entries (idempotent)"
npx tsx --conditions=react-server scripts/demo-entries.ts

# A new scorer version (or changed gold) makes stored scores stale (protocol section 10):
# queue them, and the worker started below re-scores them.
step "Re-scoring stale scores (idempotent)"
npx tsx --conditions=react-server scripts/rescore.ts

step "Building the web app"
build_cli
NODE_ENV=production npx next build

step "Starting the scoring worker and the web server"
NODE_ENV=production npx tsx --conditions=react-server workers/scoring-worker.ts &
worker_pid=$!
# Once the worker has scored the demo entries, a demo maintainer reproduces one (idempotent).
npx tsx --conditions=react-server scripts/demo-entries.ts --reproduce &
reproduce_pid=$!
trap 'kill $worker_pid $reproduce_pid 2>/dev/null || true' EXIT INT TERM
echo
echo "IRC-Bench is starting on http://localhost:$PORT"
echo "  a maintainer account:  npm run user:create -- --email you@example.org --maintainer"
echo "  more workers:          npm run worker   (same DATABASE_URL and REDIS_URL; no shared disk)"
echo
NODE_ENV=production node scripts/web-server.mjs --port "$PORT"
