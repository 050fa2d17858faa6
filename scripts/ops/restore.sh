#!/usr/bin/env bash
# npm run restore -- FILE [--force]   (docs/deploy.md, section 9)
#
# Restores a file of `npm run backup` into DATABASE_URL (on a fresh clone: the project-local
# PostgreSQL that scripts/with-env.sh starts), and its disk file store into IRC_DATA_DIR/submissions,
# then applies the migrations of this checkout (a backup of an older version is brought up to date).
# Refuses a database that already holds a release unless --force. Set the secrets the backup names
# (NEXTAUTH_SECRET, IRC_SLICE_SECRET, IRC_LOG_SIGNING_KEY) to their old values before serving: the
# restored site then answers the same public API bytes and the same signed log head.
set -euo pipefail
USAGE="Usage: npm run restore -- FILE [--force]
Restores a backup made by npm run backup into DATABASE_URL and IRC_DATA_DIR; --force replaces a database that holds data."
file=""
force=""
while [ $# -gt 0 ]; do
  case "$1" in
    --force) force=1; shift ;;
    -h | --help) printf '%s\n' "$USAGE"; exit 0 ;;
    -*) printf 'npm run restore: unexpected option "%s"\n\n%s\n' "$1" "$USAGE" >&2; exit 2 ;;
    *) [ -z "$file" ] || { printf 'npm run restore: one FILE only\n' >&2; exit 2; }; file="$1"; shift ;;
  esac
done
[ -n "$file" ] || { printf 'npm run restore: FILE is required\n\n%s\n' "$USAGE" >&2; exit 2; }
[ -f "$file" ] || { printf 'npm run restore: %s is not a file\n' "$file" >&2; exit 2; }
: "${DATABASE_URL:?DATABASE_URL is not set}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATA_DIR="${IRC_DATA_DIR:-$ROOT/.data}"
url="${DATABASE_URL%%\?*}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xf "$file" -C "$work"
[ -f "$work/backup.json" ] && [ -f "$work/database.dump" ] || { printf 'npm run restore: %s is not a backup of npm run backup (no backup.json and database.dump)\n' "$file" >&2; exit 2; }

releases="$(psql "$url" -XAtq -c 'SELECT count(*) FROM "DatasetRelease"' 2>/dev/null || echo 0)"
if [ "${releases:-0}" != "0" ] && [ -z "$force" ]; then
  printf 'npm run restore: the database %s already holds %s release(s); restore into an empty one, or add --force to replace it.\n' "${url##*@}" "$releases" >&2
  exit 1
fi
# Start from an empty schema: the dump recreates every table, the migrations table included.
PGOPTIONS='-c client_min_messages=warning' psql "$url" -Xq -v ON_ERROR_STOP=1 -c 'DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;' >/dev/null
pg_restore --no-owner --no-privileges --exit-on-error --dbname="$url" "$work/database.dump"
if [ -d "$work/submissions" ]; then
  mkdir -p "$DATA_DIR/submissions"
  cp -a "$work/submissions/." "$DATA_DIR/submissions/"
fi
(cd "$ROOT" && node scripts/ops/prisma-migrate.mjs deploy >&2)

expected="$(node -e 'const b = require(process.argv[1]); process.stdout.write(`${b.publicLogHead.seq} ${b.publicLogHead.hash}`)' "$work/backup.json")"
head="$(psql "$url" -XAtq -F ' ' -c 'SELECT "seq", "hash" FROM "PublicLogRecord" ORDER BY "seq" DESC LIMIT 1')"
head="${head:-0 0000000000000000000000000000000000000000000000000000000000000000}"
if [ "$head" != "$expected" ]; then
  printf 'npm run restore: the restored public log ends at %s, the backup said %s\n' "$head" "$expected" >&2
  exit 1
fi
printf 'Restored %s into %s: public log head %s, as in the backup.\n' "$file" "${url##*@}" "$head"
printf 'Before serving, set these secrets to the values the backed-up site had: NEXTAUTH_SECRET, IRC_SLICE_SECRET, IRC_LOG_SIGNING_KEY.\n'
