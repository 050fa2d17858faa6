#!/usr/bin/env bash
# npm run backup -- --out FILE   (docs/deploy.md, section 9)
#
# One file that a new machine restores with `npm run restore -- FILE`: a tar of
#   database.dump   pg_dump --format=custom of DATABASE_URL (every table: accounts, releases,
#                   submissions, scores, the audit log, the public log, and the prediction files
#                   themselves with IRC_FILE_STORE=postgres, the default)
#   submissions/    the prediction files with IRC_FILE_STORE=disk (IRC_DATA_DIR/submissions)
#   backup.json     when, from where, the file store, the public log's head and key id, and the
#                   NAMES of the secrets the operator must keep beside it (never their values)
# With IRC_FILE_STORE=s3 the files stay in the bucket (keep its versioning or replication).
set -euo pipefail
USAGE="Usage: npm run backup -- --out FILE
Writes the database (pg_dump), the disk file store and the list of secrets to keep into FILE (a tar)."
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a FILE}"; shift 2 ;;
    --out=*) out="${1#--out=}"; shift ;;
    -h | --help) printf '%s\n' "$USAGE"; exit 0 ;;
    *) printf 'npm run backup: unexpected argument "%s"\n\n%s\n' "$1" "$USAGE" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || { printf 'npm run backup: --out FILE is required\n\n%s\n' "$USAGE" >&2; exit 2; }
: "${DATABASE_URL:?DATABASE_URL is not set}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATA_DIR="${IRC_DATA_DIR:-$ROOT/.data}"
STORE="${IRC_FILE_STORE:-postgres}"
# libpq takes no Prisma parameters (?schema=...).
url="${DATABASE_URL%%\?*}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pg_dump --format=custom --no-owner --no-privileges --file="$work/database.dump" "$url"
if [ "$STORE" = "disk" ] && [ -d "$DATA_DIR/submissions" ]; then
  cp -a "$DATA_DIR/submissions" "$work/submissions"
fi
head="$(psql "$url" -XAtq -F ' ' -c 'SELECT "seq", "hash" FROM "PublicLogRecord" ORDER BY "seq" DESC LIMIT 1' 2>/dev/null || true)"
HEAD="${head:-0 0000000000000000000000000000000000000000000000000000000000000000}" STORE="$STORE" \
  node -e '
    const [seq, hash] = process.env.HEAD.split(" ");
    const backup = {
      format: "irc-bench-backup/1",
      createdAt: new Date().toISOString(),
      fileStore: process.env.STORE,
      publicLogHead: { seq: Number(seq), hash },
      secrets: ["NEXTAUTH_SECRET", "IRC_SLICE_SECRET", "IRC_LOG_SIGNING_KEY"],
      note: "Secrets are not in this file: keep the values of the variables in secrets beside it. The restored site shows the same gold version ids only with the same NEXTAUTH_SECRET, the same slices only with the same IRC_SLICE_SECRET, and signs with the same key only with the same IRC_LOG_SIGNING_KEY.",
    };
    process.stdout.write(JSON.stringify(backup, null, 2) + "\n");
  ' >"$work/backup.json"
mkdir -p "$(dirname "$out")"
tar -cf "$out.tmp" -C "$work" .
mv "$out.tmp" "$out"
printf 'Backed up %s into %s (%s file store; public log head %s).\n' "${url##*@}" "$out" "$STORE" "${head:-0 (empty)}"
printf 'Keep these secrets with it (their values are not in the file): NEXTAUTH_SECRET, IRC_SLICE_SECRET, IRC_LOG_SIGNING_KEY.\n'
