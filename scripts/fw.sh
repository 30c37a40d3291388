#!/usr/bin/env bash
# One entry point for `npm start` and `npm test` on a fresh machine: it installs what is missing
# (a Node >= 22.19 from the npm registry when the system one is older, pnpm, the workspace's
# dependencies) and then runs the command. Each step is skipped when already done.
#
#   scripts/fw.sh start          start the server on the embedded defaults (FORMWRIGHT_* to configure)
#   scripts/fw.sh test [args]    type-check everything, then run the whole test suite (args go to vitest)
#   scripts/fw.sh cli  [args]    the `formwright` command (e.g. `keys create --user alice`)
#   scripts/fw.sh bench [which] [args]
#                                the benchmarks: `storage` (the default; bench/storage-throughput.ts,
#                                S3 against fs, args: [count] [concurrency]) or `autofill`
#                                (bench/autofill-session.ts, a session's pick-up to completion
#                                against the fill alone, args: [runs]); `npm run bench -- autofill 20`;
#                                `http` (bench/http-routes.ts, per-request cost against Fastify
#                                serving the same bytes, args: [seconds] [connections]); `detect`
#                                (bench/detect-vector.ts, vector detection per page beside pdf.js
#                                reading the same pages, args: [rounds]); `fill`
#                                (bench/fill-speed.ts, 50 fields filled and saved against pdf-lib
#                                alone, args: [runs]); `upload` (bench/upload-speed.ts, uploads
#                                over HTTP against pdf-lib's parse alone, and a 50 MB upload's
#                                peak memory, args: [runs]); `profiles` (bench/profiles-listing.ts,
#                                a profile listing on PostgreSQL against the directory, args:
#                                [profiles] [requests]); `system` (bench/system-scaling.ts, sessions
#                                per minute with two API servers against one on the whole-system
#                                setup, args: [sessions] [in flight])
#   scripts/fw.sh system-test    the whole-system test (scripts/system-test.ts): PostgreSQL, Ceph RGW,
#                                a converter service and two API servers, two of them killed mid-run
#   scripts/fw.sh fuzz [args]    the long fuzz run of hostile PDFs against a real server (scripts/fuzz.ts)
#   scripts/fw.sh eval [args]    autofill and label-inference figures against eval/baseline.json (scripts/eval.ts);
#                                `eval detect [--raster]`: flat-to-fillable detection figures
#   scripts/fw.sh pack-check     build, pack and install every package in a scratch project on Node 22
#                                and 24, and run the embed example and the bin there (scripts/pack-check.sh)
#   scripts/fw.sh openapi-lint   write the OpenAPI description the server serves to tmp/openapi.json and
#                                lint it with Redocly's recommended rules (redocly.yaml); fails on any warning
#   scripts/fw.sh openapi-types  regenerate docs/examples/openapi-types.ts (openapi-typescript) from it
#   scripts/fw.sh env            print the PATH to use the installed toolchain by hand
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
NODE_VERSION="24.21.0"
PNPM_VERSION="10.34.9"

say() { printf '[formwright] %s\n' "$*" >&2; }

node_is_recent() {
  "$1" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 19) ? 0 : 1)' 2>/dev/null
}

ensure_node() {
  if command -v node >/dev/null 2>&1 && node_is_recent node; then return; fi
  local arch pkg
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) say "no Node >= 22.19 found and no prebuilt package for $(uname -m); install Node 24 and retry"; exit 1 ;;
  esac
  pkg="node-linux-$arch"
  local bin="$TOOLS/node_modules/$pkg/bin"
  if [ ! -x "$bin/node" ] || ! node_is_recent "$bin/node"; then
    say "system Node is $(node --version 2>/dev/null || echo missing); installing Node $NODE_VERSION from the npm registry ($pkg) into .tools/"
    mkdir -p "$TOOLS"
    npm install --prefix "$TOOLS" --no-audit --no-fund --loglevel=error "$pkg@$NODE_VERSION" >&2
  fi
  export PATH="$bin:$PATH"
}

ensure_pnpm() {
  local bin="$TOOLS/node_modules/.bin"
  if [ ! -x "$bin/pnpm" ] || [ "$("$bin/pnpm" --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
    say "installing pnpm $PNPM_VERSION into .tools/"
    mkdir -p "$TOOLS"
    npm install --prefix "$TOOLS" --no-audit --no-fund --loglevel=error "pnpm@$PNPM_VERSION" >&2
  fi
  export PATH="$bin:$PATH"
}

ensure_dependencies() {
  local stamp="$ROOT/node_modules/.formwright-lock" want
  want="$(sha256sum "$ROOT/pnpm-lock.yaml" | cut -d' ' -f1) $(node --version)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return; fi
  say "installing the workspace's dependencies (pnpm install --frozen-lockfile)"
  (cd "$ROOT" && pnpm install --frozen-lockfile --reporter=append-only >&2)
  echo "$want" > "$stamp"
}

ensure_node
ensure_pnpm
ensure_dependencies
cd "$ROOT"

command="${1:-start}"
shift || true
case "$command" in
  start) exec node packages/http-node/src/bin.ts serve ;;
  cli) exec node packages/http-node/src/bin.ts "$@" ;;
  bench)
    # `bench [count] [concurrency]` (numbers first) stays the storage benchmark, as before.
    case "${1:-storage}" in
      storage) shift || true; exec node bench/storage-throughput.ts "$@" ;;
      autofill) shift; exec node bench/autofill-session.ts "$@" ;;
      http) shift; exec node bench/http-routes.ts "$@" ;;
      detect) shift; exec node bench/detect-vector.ts "$@" ;;
      fill) shift; exec node bench/fill-speed.ts "$@" ;;
      upload) shift; exec node bench/upload-speed.ts "$@" ;;
      profiles) shift; exec node bench/profiles-listing.ts "$@" ;;
      system) shift; exec node bench/system-scaling.ts "$@" ;;
      [0-9]*) exec node bench/storage-throughput.ts "$@" ;;
      *) say "unknown benchmark '$1' (storage, autofill, http, detect, fill, upload, profiles, system)"; exit 2 ;;
    esac
    ;;
  fuzz) exec node scripts/fuzz.ts "$@" ;;
  system-test) exec node scripts/system-test.ts "$@" ;;
  eval) exec node scripts/eval.ts "$@" ;;
  test)
    say "type-checking (tsc)"
    pnpm exec tsc -p tsconfig.json
    exec pnpm exec vitest run "$@"
    ;;
  pack-check) exec bash scripts/pack-check.sh "$@" ;;
  openapi-lint)
    # The description the server serves, written out, then Redocly's recommended rules (redocly.yaml).
    node scripts/openapi.ts tmp/openapi.json
    exec pnpm exec redocly lint tmp/openapi.json
    ;;
  openapi-types) exec node scripts/openapi-types.ts ;;
  env) echo "export PATH=\"$PATH\"" ;;
  *) say "unknown command '$command' (start, test, cli, bench, system-test, fuzz, eval, pack-check, openapi-lint, openapi-types, env)"; exit 2 ;;
esac
