#!/usr/bin/env bash
# Runs a command with the project-local service URLs when DATABASE_URL / REDIS_URL
# are not already set, and with the persistent next-auth secret. Used by the npm
# scripts. Without the URLs, the project-local services are started first
# (scripts/ops/services.sh, idempotent) and, when the migrations changed since the
# last run, applied: so `npm ci && npm run dataset:import -- DIR` works on a fresh
# clone. With DATABASE_URL set, migrations are yours (`npm run db:migrate`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA_DIR="${IRC_DATA_DIR:-$ROOT/.data}"
if [ -z "${DATABASE_URL:-}" ] || [ -z "${REDIS_URL:-}" ]; then
  local_database=""
  [ -z "${DATABASE_URL:-}" ] && local_database=1
  bash "$ROOT/scripts/ops/services.sh" start >&2
  if [ -f "$DATA_DIR/services.env" ]; then
    saved_db="${DATABASE_URL:-}"
    saved_redis="${REDIS_URL:-}"
    # shellcheck disable=SC1091
    source "$DATA_DIR/services.env"
    [ -n "$saved_db" ] && export DATABASE_URL="$saved_db"
    [ -n "$saved_redis" ] && export REDIS_URL="$saved_redis"
  fi
  if [ -n "$local_database" ]; then
    marker="$DATA_DIR/migrations-applied"
    applied="$(ls "$ROOT/prisma/migrations")"
    if [ ! -f "$marker" ] || [ "$(cat "$marker")" != "$applied" ]; then
      (cd "$ROOT" && node scripts/ops/prisma-migrate.mjs deploy >&2)
      printf '%s' "$applied" >"$marker"
    fi
  fi
fi
if [ -z "${NEXTAUTH_SECRET:-}" ] && [ -s "$DATA_DIR/nextauth-secret" ]; then
  NEXTAUTH_SECRET="$(cat "$DATA_DIR/nextauth-secret")"
  export NEXTAUTH_SECRET
fi
export NEXT_TELEMETRY_DISABLED=1
exec "$@"
