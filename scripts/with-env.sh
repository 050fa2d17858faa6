#!/usr/bin/env bash
# Runs a command with the project-local service URLs (.data/services.env, written
# by scripts/services.sh) when DATABASE_URL / REDIS_URL are not already set, and
# with the persistent next-auth secret. Used by the npm scripts.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA_DIR="${IRC_DATA_DIR:-$ROOT/.data}"
if [ -z "${DATABASE_URL:-}" ] || [ -z "${REDIS_URL:-}" ]; then
  if [ -f "$DATA_DIR/services.env" ]; then
    saved_db="${DATABASE_URL:-}"
    saved_redis="${REDIS_URL:-}"
    # shellcheck disable=SC1091
    source "$DATA_DIR/services.env"
    [ -n "$saved_db" ] && export DATABASE_URL="$saved_db"
    [ -n "$saved_redis" ] && export REDIS_URL="$saved_redis"
  fi
fi
if [ -z "${NEXTAUTH_SECRET:-}" ] && [ -s "$DATA_DIR/nextauth-secret" ]; then
  NEXTAUTH_SECRET="$(cat "$DATA_DIR/nextauth-secret")"
  export NEXTAUTH_SECRET
fi
export NEXT_TELEMETRY_DISABLED=1
exec "$@"
