# Shared helpers for scripts/ops/up.sh and scripts/ci/test-all.sh (sourced, not run).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export NEXT_TELEMETRY_DISABLED=1
export IRC_DATA_DIR="${IRC_DATA_DIR:-$ROOT/.data}"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

ensure_dependencies() {
  local stamp="$ROOT/node_modules/.irc-lock-stamp"
  if [ -d "$ROOT/node_modules" ] && [ -f "$stamp" ] && cmp -s "$ROOT/package-lock.json" "$stamp"; then
    return 0
  fi
  step "Installing dependencies (npm ci)"
  # --include=dev: the build tools (esbuild, tsx, Prisma's CLI) are dev dependencies, which plain
  # npm ci leaves out when the shell has NODE_ENV=production (an operator's sourced env file).
  (cd "$ROOT" && npm ci --include=dev --no-audit --no-fund --loglevel=error)
  cp "$ROOT/package-lock.json" "$stamp"
}

ensure_chromium() {
  if [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then return 0; fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "Chromium is missing: apt-get install -y chromium (or set CHROMIUM_PATH)" >&2
    return 1
  fi
  step "Installing Debian's chromium for browser tests"
  apt-get update -qq >/dev/null || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
}

# nginx and systemd-analyze check the files of deploy/ (tests/integration/deploy-files.int.test.ts);
# pdflatex compiles the TeX export (lib/core/format/latex.test.ts).
ensure_check_tools() {
  local missing=()
  command -v nginx >/dev/null 2>&1 || missing+=(nginx)
  command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
  command -v pdflatex >/dev/null 2>&1 || missing+=(texlive-latex-base texlive-latex-recommended)
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "Missing ${missing[*]} (apt-get install -y ${missing[*]}): the deploy/ file and TeX compile tests will be skipped" >&2
    return 0
  fi
  step "Installing ${missing[*]} to check the deploy/ files and the TeX export"
  apt-get update -qq >/dev/null || true
  # Only the binaries are used. Where apt starts services (not in containers with a policy-rc.d
  # that denies it), Debian's nginx package also starts its default site on port 80.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

start_services() {
  step "Starting PostgreSQL and Redis"
  bash "$ROOT/scripts/ops/services.sh" start
  # shellcheck disable=SC1091
  source "$IRC_DATA_DIR/services.env"
}

# The next-auth secret persists under the data directory so sessions survive restarts.
ensure_auth_secret() {
  if [ -n "${NEXTAUTH_SECRET:-}" ]; then return 0; fi
  local file="$IRC_DATA_DIR/nextauth-secret"
  if [ ! -s "$file" ]; then
    mkdir -p "$IRC_DATA_DIR"
    node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64url"))' >"$file"
    chmod 600 "$file"
  fi
  NEXTAUTH_SECRET="$(cat "$file")"
  export NEXTAUTH_SECRET
}

# The demo and the tests key the test slices with the public development value (lib/platform/env.ts
# DEVELOPMENT_SLICE_SECRET): their test gold ships in the repository and is protected by nothing.
# Production refuses that value unless IRC_DEMO=1 says the server holds only the demo, as the
# production servers of `npm run up` and of the browser tests do. A real deployment sets
# IRC_SLICE_SECRET itself (docs/integrity.md).
ensure_slice_secret() {
  local development="irc-bench-development-slice-secret-not-for-production"
  export IRC_SLICE_SECRET="${IRC_SLICE_SECRET:-$development}"
  if [ "$IRC_SLICE_SECRET" = "$development" ]; then export IRC_DEMO="${IRC_DEMO:-1}"; fi
}

# The public log's heads are signed with IRC_LOG_SIGNING_KEY (docs/public-log.md). The demo and the
# tests use the public development key (lib/platform/env.ts DEVELOPMENT_LOG_SIGNING_KEY), which
# production refuses unless IRC_DEMO=1, as for the slice secret. A real deployment sets its own.
ensure_log_signing_key() {
  local development="xAEHr1d8fqWoKK+mSeSB+W+8oZjAeipQN9fu7bkzkNo="
  export IRC_LOG_SIGNING_KEY="${IRC_LOG_SIGNING_KEY:-$development}"
  if [ "$IRC_LOG_SIGNING_KEY" = "$development" ]; then export IRC_DEMO="${IRC_DEMO:-1}"; fi
}

# Creates a database on the same server as DATABASE_URL (project-local clusters only).
ensure_database() {
  local url="$1"
  (cd "$ROOT" && DATABASE_URL="$url" node scripts/ops/ensure-database.mjs)
}

migrate() {
  step "Applying database migrations"
  (cd "$ROOT" && npx prisma generate >/dev/null && node scripts/ops/prisma-migrate.mjs deploy)
}

# The offline scorer bundle (dist/cli/irc-bench-score.mjs): npm run score runs it and
# the dataset page serves it, so the web server must not start without it.
build_cli() {
  step "Building the offline scorer (dist/cli/irc-bench-score.mjs)"
  (cd "$ROOT" && node scripts/build/build-cli.mjs)
}
