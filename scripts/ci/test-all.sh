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

# Each stage's wall time and, where its runner prints one, its number of tests: the table at the end.
STAGE_LOG_DIR="$(mktemp -d)"
trap 'rm -rf "$STAGE_LOG_DIR"' EXIT
# What ran before this point (dependencies, chromium, services, migrations) is the first row.
STAGES=("Setup (dependencies, services, migrations)|$SECONDS|")

# stage NAME COUNT_KIND COMMAND...: runs COMMAND with its output shown and kept; COUNT_KIND (vitest,
# playwright or -) says how to read the number of tests from it.
stage() {
  local name="$1" kind="$2" started=$SECONDS log="$STAGE_LOG_DIR/${#STAGES[@]}.log" status=0
  shift 2
  step "$name"
  "$@" 2>&1 | tee "$log" || status=$?
  STAGES+=("$name|$((SECONDS - started))|$(count_tests "$kind" "$log")")
  if [ "$status" -ne 0 ]; then
    print_timings
    printf '\n%s failed (exit %s)\n' "$name" "$status" >&2
    exit "$status"
  fi
}

count_tests() {
  local plain
  plain="$(sed -E 's/\x1b\[[0-9;]*m//g' "$2")"
  case "$1" in
    vitest) printf '%s\n' "$plain" | grep -E '^ +Tests +' | tail -1 | sed -E 's/^ +Tests +//' ;;
    playwright) printf '%s\n' "$plain" | grep -E '^ +[0-9]+ (passed|failed|flaky|skipped|did not run)' | sed -E 's/^ +//; s/ \(.*//' | paste -sd ',' - | sed 's/,/, /g' ;;
    *) printf '' ;;
  esac
}

print_timings() {
  local entry name seconds tests
  printf '\n%-44s %8s  %s\n' "stage" "time" "tests"
  for entry in "${STAGES[@]}"; do
    IFS='|' read -r name seconds tests <<<"$entry"
    printf '%-44s %5dm%02ds  %s\n' "$name" $((seconds / 60)) $((seconds % 60)) "$tests"
  done
  printf '%-44s %5dm%02ds\n' "total (from the start of npm test)" $((SECONDS / 60)) $((SECONDS % 60))
}

# The stages' commands are chained with && : a function run as `stage ... || status=$?` runs without set -e.
# Lint and typecheck read the sources only: both checkers at once, on two cores.
lint() {
  npx eslint . --max-warnings=0 &&
    node scripts/ci/check-boundaries.mjs &&
    npx knip &&
    npx knip --production &&
    node scripts/ci/check-architecture-walk.mjs &&
    node scripts/ci/check-doc-paths.mjs
}

lint_and_typecheck() {
  local lint_log="$STAGE_LOG_DIR/lint.out" tsc_log="$STAGE_LOG_DIR/tsc.out" lint_status=0 tsc_status=0
  lint >"$lint_log" 2>&1 &
  local lint_pid=$!
  npx tsc --noEmit >"$tsc_log" 2>&1 &
  local tsc_pid=$!
  wait "$lint_pid" || lint_status=$?
  wait "$tsc_pid" || tsc_status=$?
  printf -- '-- lint (eslint, boundaries, knip, knip --production, architecture walk, doc paths): exit %s\n' "$lint_status"
  cat "$lint_log"
  printf -- '-- typecheck (tsc --noEmit): exit %s\n' "$tsc_status"
  cat "$tsc_log"
  [ "$lint_status" -eq 0 ] && [ "$tsc_status" -eq 0 ]
}

production_build() {
  build_cli && NODE_ENV=production npx next build
}

# The template database every Playwright worker copies (scripts/ci/e2e-prepare.ts), then the specs.
browser_tests() {
  npx tsx --conditions=react-server scripts/ci/e2e-prepare.ts && npx playwright test
}

stage "Lint and typecheck" - lint_and_typecheck
stage "Unit tests" vitest npx vitest run --project unit
stage "Integration tests (PostgreSQL + Redis)" vitest npx vitest run --project integration
stage "Production build" - production_build
stage "Browser tests (Playwright, Debian chromium)" playwright browser_tests

print_timings
step "All tests passed"
