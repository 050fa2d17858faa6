#!/usr/bin/env bash
# The whole test suite: lint, typecheck, unit, integration (real PostgreSQL and
# Redis), production build and Playwright in Debian's Chromium.
set -euo pipefail

USAGE="Usage: npm test
Runs the whole suite: lint, typecheck, unit, integration (PostgreSQL and Redis), production
build and Playwright; starts the services it needs. One part alone: npm run lint, typecheck,
test:unit, test:integration, test:e2e."
case "${1:-}" in
  "") ;;
  -h | --help) printf '%s\n' "$USAGE"; exit 0 ;;
  *) printf 'npm test: unexpected argument "%s"\n\n%s\n' "$1" "$USAGE" >&2; exit 2 ;;
esac

source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

ensure_dependencies
ensure_chromium
ensure_check_tools
start_services
ensure_auth_secret
ensure_slice_secret
ensure_log_signing_key

# Tests own a separate database, Redis logical database and file store; they reset them freely.
base_url="${DATABASE_URL%/*}"
export DATABASE_URL="${TEST_DATABASE_URL:-$base_url/irc_bench_test}"
export REDIS_URL="${TEST_REDIS_URL:-$(printf '%s' "$REDIS_URL" | sed -E 's#/[0-9]*$##')/1}"
export IRC_DATA_DIR="$IRC_DATA_DIR/test-store"
mkdir -p "$IRC_DATA_DIR"
export NODE_ENV=test
ensure_database "$DATABASE_URL"
migrate

step "Lint"
npx eslint . --max-warnings=0
node scripts/ci/check-boundaries.mjs
npx knip
npx knip --production
node scripts/ci/check-architecture-walk.mjs
node scripts/ci/check-doc-paths.mjs

step "Typecheck"
npx tsc --noEmit

step "Unit tests"
npx vitest run --project unit

step "Integration tests (PostgreSQL + Redis)"
npx vitest run --project integration

step "Production build"
build_cli
NODE_ENV=production npx next build

step "Browser tests (Playwright, Debian chromium)"
npx tsx --conditions=react-server scripts/ci/e2e-prepare.ts
npx playwright test

step "All tests passed"
