#!/usr/bin/env bash
# Brings the whole platform up on the bundled demo release: dependencies,
# PostgreSQL and Redis, migrations, demo data, production build, then the web
# server and one scoring worker. Stop with Ctrl-C.
#
# The web port is PORT when set (refused at once, in one line, when something
# listens there); otherwise the port this checkout used last (IRC_DATA_DIR/web-port),
# else 3000, or the next free one when another checkout (or anything else) has it.
# A chosen port is claimed with the machine-wide lock file that scripts/ops/services.sh
# uses for its ports, held until this script ends, so two checkouts starting at the
# same moment get two ports.
#
# Nothing started here outlives it: when the web server or the worker ends, or this
# script is interrupted (INT, TERM, HUP) or exits for any reason, it stops the other
# processes it started, and PostgreSQL and Redis too when they were not already
# running before it started them.
set -euo pipefail

USAGE="Usage: npm run up
Brings the platform up on the bundled demo release (services, migrations, demo data,
production build, web server and one scoring worker); Ctrl-C stops everything it started.
PORT chooses the web port (default: the one this checkout used last, else 3000 or the next free one)."
case "${1:-}" in
  "") ;;
  -h | --help) printf '%s\n' "$USAGE"; exit 0 ;;
  *) printf 'npm run up: unexpected argument "%s"\n\n%s\n' "$1" "$USAGE" >&2; exit 2 ;;
esac

source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

WEB_PORT_FILE="$IRC_DATA_DIR/web-port"
WEB_PORT_SEARCH=100
HEALTH_TIMEOUT_S=180
# The file descriptor holding the web port's lock (services.sh uses 7 and 8 for its own).
WEB_PORT_LOCK_FD=9

children=()
services_to_stop=()

say() { printf 'npm run up: %s\n' "$*" >&2; }
refuse() { say "$*"; exit 1; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

claim_web_port() {
  local port="$1"
  eval "exec $WEB_PORT_LOCK_FD>>\"\${TMPDIR:-/tmp}/irc-bench-port-$port.lock\"" 2>/dev/null || return 1
  if flock -n "$WEB_PORT_LOCK_FD" && ! port_in_use "$port"; then return 0; fi
  eval "exec $WEB_PORT_LOCK_FD>&-"
  return 1
}

choose_web_port() {
  if [ -n "${PORT:-}" ]; then
    [[ "$PORT" =~ ^[0-9]+$ ]] && [ "$PORT" -ge 1 ] && [ "$PORT" -le 65535 ] || refuse "PORT=$PORT is not a port number (1-65535)"
    claim_web_port "$PORT" || refuse "port $PORT (PORT) is in use (another checkout's npm run up, or another server); choose another PORT, or unset it and a free port is picked"
    return 0
  fi
  local preferred=3000 port
  if [ -f "$WEB_PORT_FILE" ] && [[ "$(cat "$WEB_PORT_FILE")" =~ ^[0-9]+$ ]]; then preferred="$(cat "$WEB_PORT_FILE")"; fi
  for ((port = preferred; port < preferred + WEB_PORT_SEARCH; port++)); do
    if claim_web_port "$port"; then
      [ "$port" -ne "$preferred" ] && say "port $preferred is in use; the web server takes $port"
      PORT="$port"
      mkdir -p "$IRC_DATA_DIR"
      printf '%s\n' "$PORT" >"$WEB_PORT_FILE"
      return 0
    fi
  done
  refuse "no free web port in $preferred-$((preferred + WEB_PORT_SEARCH - 1)); set PORT to a free port"
}

# Every descendant of a process, deepest last (npx -> tsx -> node, say).
descendants() {
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    echo "$child"
    descendants "$child"
  done
}

any_alive() {
  local pid
  for pid in "$@"; do kill -0 "$pid" 2>/dev/null && return 0; done
  return 1
}

stop_children() {
  local pids=() pid
  for pid in "${children[@]}"; do
    pids+=("$pid")
    while read -r child; do pids+=("$child"); done < <(descendants "$pid")
  done
  [ "${#pids[@]}" -eq 0 ] && return 0
  kill -TERM "${pids[@]}" 2>/dev/null || true
  # SIGTERM lets the worker finish its current job; whatever is left after 15 s is killed.
  for _ in $(seq 1 75); do
    any_alive "${pids[@]}" || return 0
    sleep 0.2
  done
  kill -KILL "${pids[@]}" 2>/dev/null || true
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM HUP
  stop_children
  if [ "${#services_to_stop[@]}" -gt 0 ]; then bash "$ROOT/scripts/ops/services.sh" stop "${services_to_stop[@]}" 9>&- || true; fi
  exit "$status"
}
trap cleanup EXIT
trap 'say "interrupted; stopping what this run started"; exit 130' INT
trap 'say "terminated; stopping what this run started"; exit 143' TERM
trap 'say "hung up; stopping what this run started"; exit 129' HUP

# Starts the project-local services like lib.sh's start_services, remembering which of them
# this run started, to stop those (and only those) when it ends.
start_own_services() {
  step "Starting PostgreSQL and Redis"
  local before
  before="$(bash "$ROOT/scripts/ops/services.sh" status 9>&- 2>/dev/null || true)"
  [ -z "${DATABASE_URL:-}" ] && [[ "$before" != *"postgresql: running"* ]] && services_to_stop+=(postgresql)
  [ -z "${REDIS_URL:-}" ] && [[ "$before" != *"redis: running"* ]] && services_to_stop+=(redis)
  bash "$ROOT/scripts/ops/services.sh" start 9>&-
  # shellcheck disable=SC1091
  source "$IRC_DATA_DIR/services.env"
}

# The password of a URL replaced by ***, for printing.
masked() { printf '%s' "$1" | sed -E 's#(://[^:/@]*:)[^@]*@#\1***@#'; }

web_answers() {
  node -e 'fetch(process.argv[1], { signal: AbortSignal.timeout(2000) }).then(() => process.exit(0), () => process.exit(1))' "$1"
}

choose_web_port
export PORT

ensure_dependencies
start_own_services
ensure_auth_secret
ensure_slice_secret
ensure_log_signing_key
# next-auth's URL follows the public one (PUBLIC_URL, README: Configuration) when that is set.
export NEXTAUTH_URL="${NEXTAUTH_URL:-${PUBLIC_URL:-http://localhost:$PORT}}"
migrate

step "Importing the demo release and queuing its baselines (idempotent)"
npx tsx --conditions=react-server scripts/ops/dataset-import.ts data/demo-release --activate
npx tsx --conditions=react-server scripts/ops/baselines.ts

step "Publishing the demo entries (idempotent)"
npx tsx --conditions=react-server scripts/ops/demo-entries.ts

# A new scorer version (or changed gold) makes stored scores stale (protocol section 10):
# queue them, and the worker started below re-scores them.
step "Re-scoring stale scores (idempotent)"
npx tsx --conditions=react-server scripts/ops/rescore.ts

build_cli
# A build of this very commit with no local changes is reused: next build takes a minute or more.
dist_dir="$ROOT/${NEXT_DIST_DIR:-.next}"
head="$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || true)"
if [ -n "$head" ] && [ -z "$(git -C "$ROOT" status --porcelain 2>/dev/null)" ] && [ -f "$dist_dir/BUILD_ID" ] \
  && [ "$(cat "$dist_dir/irc-up-build-commit" 2>/dev/null)" = "$head" ]; then
  step "Reusing the web app's build of $head (no change since)"
else
  step "Building the web app"
  rm -f "$dist_dir/irc-up-build-commit"
  NODE_ENV=production npx next build
  if [ -n "$head" ] && [ -z "$(git -C "$ROOT" status --porcelain 2>/dev/null)" ]; then printf '%s\n' "$head" >"$dist_dir/irc-up-build-commit"; fi
fi

step "Starting the scoring worker and the web server on port $PORT"
NODE_ENV=production npx tsx --conditions=react-server workers/scoring-worker.ts &
worker_pid=$!
children+=("$worker_pid")
# Once the worker has scored them, a demo maintainer reproduces one of the demo entries (idempotent).
npx tsx --conditions=react-server scripts/ops/demo-entries.ts --reproduce &
children+=("$!")
NODE_ENV=production node scripts/server/web-server.mjs --port "$PORT" &
web_pid=$!
children+=("$web_pid")

case "${BIND_HOST:-0.0.0.0}" in
  0.0.0.0 | 127.0.0.1 | localhost | "::") probe_host=127.0.0.1 ;;
  *) probe_host="$BIND_HOST" ;;
esac
# The URL is printed once the site answers (any status: /api/health says 503 until the worker's first heartbeat).
for ((waited = 0; ; waited++)); do
  kill -0 "$web_pid" 2>/dev/null || refuse "the web server stopped before it answered on port $PORT (its output is above); stopping everything this run started"
  kill -0 "$worker_pid" 2>/dev/null || refuse "the scoring worker stopped before the site answered (its output is above); stopping everything this run started"
  web_answers "http://$probe_host:$PORT/api/health" && break
  [ "$waited" -ge $((HEALTH_TIMEOUT_S * 2)) ] && refuse "the web server did not answer on port $PORT within $HEALTH_TIMEOUT_S s; stopping everything this run started"
  sleep 0.5
done

echo
echo "IRC-Bench is up on http://localhost:$PORT${PUBLIC_URL:+ (public address $PUBLIC_URL)}"
echo "  a maintainer account:  npm run user:create -- --email you@example.org --maintainer"
echo "  more workers:          DATABASE_URL=$(masked "$DATABASE_URL") REDIS_URL=$(masked "$REDIS_URL") npm run worker"
echo "                         (the URLs with their passwords: $IRC_DATA_DIR/services.env; npm run worker in this checkout reads it)"
started_here="${services_to_stop[*]:-}"
started_here="${started_here/postgresql/PostgreSQL}"
started_here="${started_here/redis/Redis}"
echo "  stop:                  Ctrl-C stops the web server and the worker${started_here:+ (and ${started_here// / and }, which this run started)}"
echo

status=0
wait -n "$web_pid" "$worker_pid" || status=$?
if kill -0 "$web_pid" 2>/dev/null; then stopped="the scoring worker"; else stopped="the web server"; fi
refuse "$stopped stopped (exit $status); stopping everything else this run started"
