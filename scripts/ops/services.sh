#!/usr/bin/env bash
# Makes PostgreSQL and Redis available for development and tests.
#
#   scripts/ops/services.sh start    start (or find running) services, write .data/services.env
#   scripts/ops/services.sh stop     stop the project-local services (or only those named: postgresql, redis)
#   scripts/ops/services.sh status   say what is running
#   scripts/ops/services.sh env      print the export lines for DATABASE_URL and REDIS_URL
#
# When DATABASE_URL / REDIS_URL are already set, those servers are used and
# nothing is started for them. Otherwise a project-local PostgreSQL cluster and
# Redis server run under IRC_DATA_DIR (default .data/, git-ignored) on
# non-default ports (PG_PORT 54329, REDIS_PORT 63799). Missing Debian packages
# are installed when we are root. Idempotent: a second start finds them running.
set -euo pipefail

USAGE="Usage: npm run services [-- start|stop [postgresql] [redis]|status|env]
  start    start (or find running) PostgreSQL and Redis, write .data/services.env (the default)
  stop     stop the project-local services (or only those named)
  status   say what is running
  env      print the export lines for DATABASE_URL and REDIS_URL
PG_PORT / REDIS_PORT choose the ports; DATABASE_URL / REDIS_URL, when set, are used instead."
case "${1:-}" in
  -h | --help) printf '%s\n' "$USAGE"; exit 0 ;;
esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATA_DIR="${IRC_DATA_DIR:-$ROOT/.data}"
# Ports: PG_PORT / REDIS_PORT when set; otherwise the ones this checkout chose
# before (DATA_DIR/ports.env); otherwise 54329 / 63799, or the next free port
# when another checkout's server already holds it (never someone else's server).
PORTS_FILE="$DATA_DIR/ports.env"
PG_PORT_FIXED="${PG_PORT:-}"
REDIS_PORT_FIXED="${REDIS_PORT:-}"
if [ -z "$PG_PORT_FIXED$REDIS_PORT_FIXED" ] && [ -f "$PORTS_FILE" ]; then
  # shellcheck disable=SC1090
  source "$PORTS_FILE"
fi
PG_PORT="${PG_PORT_FIXED:-${CHOSEN_PG_PORT:-54329}}"
REDIS_PORT="${REDIS_PORT_FIXED:-${CHOSEN_REDIS_PORT:-63799}}"
PG_USER="irc"
PG_DB="irc_bench"
ENV_FILE="$DATA_DIR/services.env"

log() { printf '[services] %s\n' "$*" >&2; }
die() { printf '[services] error: %s\n' "$*" >&2; exit 1; }

find_pg_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/pg_ctl" ]; then echo "$dir"; fi
  done | sort -V | tail -n 1
}

ensure_packages() {
  local missing=()
  [ -n "$(find_pg_bin)" ] || missing+=(postgresql)
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    die "missing ${missing[*]}; install them (apt-get install -y ${missing[*]}) or set DATABASE_URL and REDIS_URL"
  fi
  log "installing ${missing[*]} with apt-get"
  apt-get update -qq >/dev/null || log "apt-get update failed; trying the install anyway"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
}

# PostgreSQL refuses to run as root, so the cluster belongs to the postgres
# user. When that user cannot reach DATA_DIR (a private temp checkout, say), the
# cluster lives under /var/lib/irc-bench instead, keyed by the checkout path.
pg_cluster_dir() {
  local wanted="$DATA_DIR/postgres"
  if [ "$(id -u)" -ne 0 ]; then echo "$wanted"; return; fi
  mkdir -p "$DATA_DIR"
  if runuser -u postgres -- test -x "$DATA_DIR" 2>/dev/null; then
    echo "$wanted"
    return
  fi
  local key
  key="$(printf '%s' "$DATA_DIR" | sha256sum | cut -c1-12)"
  echo "/var/lib/irc-bench/pg-$key"
}

as_pg_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_ready() {
  "$(find_pg_bin)/pg_isready" -h 127.0.0.1 -p "$PG_PORT" -q
}

port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# A free port is claimed with a lock file shared by every checkout on the machine, held on
# file descriptor FD until this script ends (by then its server listens on it), so two
# checkouts starting at the same moment do not both take the same free port.
claim_port() {
  local fd="$1" port="$2"
  eval "exec $fd>>\"\${TMPDIR:-/tmp}/irc-bench-port-$port.lock\"" 2>/dev/null || return 1
  if flock -n "$fd"; then return 0; fi
  eval "exec $fd>&-"
  return 1
}

# Whether the PostgreSQL on PG_PORT runs this checkout's cluster.
pg_is_ours() {
  local bin dir running
  bin="$(find_pg_bin)"
  dir="$(pg_cluster_dir)"
  running="$("$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -qtA -c "show data_directory" 2>/dev/null || true)"
  [ -n "$running" ] && [ "$(readlink -f "$running")" = "$(readlink -f "$dir")" ]
}

redis_is_ours() {
  local running
  running="$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" config get dir 2>/dev/null | sed -n 2p)"
  [ -n "$running" ] && [ "$(readlink -f "$running")" = "$(readlink -f "$DATA_DIR/redis")" ]
}

# When the port holds another checkout's server (or anything else), move to the next free one,
# unless the port was given explicitly: then refuse rather than share by accident.
choose_pg_port() {
  while true; do
    if port_in_use "$PG_PORT"; then
      pg_is_ours && return 0
    elif claim_port 7 "$PG_PORT"; then
      return 0
    fi
    [ -n "$PG_PORT_FIXED" ] && die "port $PG_PORT (PG_PORT) is taken by a server that is not this checkout's PostgreSQL; choose another PG_PORT"
    log "port $PG_PORT is taken by another server; trying $((PG_PORT + 1))"
    PG_PORT=$((PG_PORT + 1))
  done
}

choose_redis_port() {
  while true; do
    if port_in_use "$REDIS_PORT"; then
      redis_is_ours && return 0
    elif claim_port 8 "$REDIS_PORT"; then
      return 0
    fi
    [ -n "$REDIS_PORT_FIXED" ] && die "port $REDIS_PORT (REDIS_PORT) is taken by a server that is not this checkout's Redis; choose another REDIS_PORT"
    log "port $REDIS_PORT is taken by another server; trying $((REDIS_PORT + 1))"
    REDIS_PORT=$((REDIS_PORT + 1))
  done
}

remember_ports() {
  [ -n "$PG_PORT_FIXED$REDIS_PORT_FIXED" ] && return 0
  mkdir -p "$DATA_DIR"
  printf 'CHOSEN_PG_PORT=%s\nCHOSEN_REDIS_PORT=%s\n' "$PG_PORT" "$REDIS_PORT" >"$PORTS_FILE"
}

start_postgres() {
  if [ -n "${DATABASE_URL:-}" ]; then
    log "DATABASE_URL is set; using that PostgreSQL"
    return 0
  fi
  local bin dir
  bin="$(find_pg_bin)"
  dir="$(pg_cluster_dir)"
  choose_pg_port
  if pg_ready && pg_is_ours; then
    log "PostgreSQL already running on 127.0.0.1:$PG_PORT"
  else
    if [ ! -f "$dir/PG_VERSION" ]; then
      log "creating PostgreSQL cluster in $dir"
      mkdir -p "$dir"
      [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir"
      chmod 700 "$dir"
      as_pg_owner "$bin/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null \
        || die "initdb failed for $dir"
    fi
    log "starting PostgreSQL on 127.0.0.1:$PG_PORT"
    as_pg_owner "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 \
      -o "-p $PG_PORT -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c synchronous_commit=off" start >/dev/null 7>&- 8>&- \
      || die "PostgreSQL did not start; see $dir/server.log"
  fi
  for _ in $(seq 1 60); do pg_ready && break; sleep 0.5; done
  pg_ready || die "PostgreSQL on port $PG_PORT is not ready"
  local psql="$bin/psql -h 127.0.0.1 -p $PG_PORT -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA"
  if [ "$($psql -c "select 1 from pg_roles where rolname='$PG_USER'")" != "1" ]; then
    $psql -c "create role $PG_USER login superuser password '$PG_USER'" >/dev/null
  fi
  if [ "$($psql -c "select 1 from pg_database where datname='$PG_DB'")" != "1" ]; then
    $psql -c "create database $PG_DB owner $PG_USER" >/dev/null
  fi
}

redis_ready() {
  redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG
}

start_redis() {
  if [ -n "${REDIS_URL:-}" ]; then
    log "REDIS_URL is set; using that Redis"
    return 0
  fi
  choose_redis_port
  if redis_ready && redis_is_ours; then
    log "Redis already running on 127.0.0.1:$REDIS_PORT"
    return 0
  fi
  mkdir -p "$DATA_DIR/redis"
  log "starting Redis on 127.0.0.1:$REDIS_PORT"
  # noeviction + append-only persistence: BullMQ must never lose a job.
  redis-server --daemonize yes --port "$REDIS_PORT" --bind 127.0.0.1 \
    --dir "$DATA_DIR/redis" --pidfile "$DATA_DIR/redis/redis.pid" \
    --logfile "$DATA_DIR/redis/redis.log" --appendonly yes \
    --maxmemory-policy noeviction >/dev/null 7>&- 8>&- || die "redis-server did not start; see $DATA_DIR/redis/redis.log"
  for _ in $(seq 1 40); do redis_ready && return 0; sleep 0.25; done
  die "Redis on port $REDIS_PORT is not ready; see $DATA_DIR/redis/redis.log"
}

write_env() {
  mkdir -p "$DATA_DIR"
  {
    echo "export DATABASE_URL=\"${DATABASE_URL:-postgresql://$PG_USER:$PG_USER@127.0.0.1:$PG_PORT/$PG_DB}\""
    echo "export REDIS_URL=\"${REDIS_URL:-redis://127.0.0.1:$REDIS_PORT}\""
  } >"$ENV_FILE"
}

# stop [postgresql] [redis]: both when none is named.
stop_all() {
  local which="${*:-postgresql redis}"
  local bin dir
  bin="$(find_pg_bin)"
  if [ -n "$bin" ] && [[ " $which " == *" postgresql "* ]]; then
    dir="$(pg_cluster_dir)"
    if [ -f "$dir/postmaster.pid" ]; then
      log "stopping PostgreSQL"
      as_pg_owner "$bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null || log "PostgreSQL stop failed"
    fi
  fi
  if [[ " $which " == *" redis "* ]] && command -v redis-cli >/dev/null 2>&1 && redis_ready && redis_is_ours; then
    log "stopping Redis"
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  fi
}

status() {
  if [ -n "$(find_pg_bin)" ] && pg_ready && pg_is_ours; then echo "postgresql: running on 127.0.0.1:$PG_PORT"; else echo "postgresql: not running"; fi
  if command -v redis-cli >/dev/null 2>&1 && redis_ready && redis_is_ours; then echo "redis: running on 127.0.0.1:$REDIS_PORT"; else echo "redis: not running"; fi
}

case "${1:-start}" in
  start)
    ensure_packages
    start_postgres
    start_redis
    remember_ports
    write_env
    log "ready; environment in $ENV_FILE"
    ;;
  stop) shift; stop_all "$@" ;;
  status) status ;;
  env) write_env; cat "$ENV_FILE" ;;
  *) printf 'npm run services: unknown command "%s"\n\n%s\n' "$1" "$USAGE" >&2; exit 2 ;;
esac
