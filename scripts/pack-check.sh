#!/usr/bin/env bash
# What a user of the published packages gets, checked the way they would get it: builds every
# publishable package (packages/*/package.json that is not private) from a copy of its sources,
# `pnpm pack`s each (workspace:* becomes the version, publishConfig's dist/ exports and bin replace
# the workspace's src/ ones), inspects the tarballs (scripts/pack-inspect.ts), then, on Node 22 (the
# oldest the packages accept, from the npm registry) and on Node 24, installs them with npm into a
# scratch project (their dependencies from the registry) and there type-checks and runs the embed
# example of docs/ (docs/examples/embed.smoke.ts checks its filled PDF with pdf.js) and the `formwright`
# bin: --version, --help, `keys create`, then `serve` answering /health and an authenticated route.
#
#   bash scripts/pack-check.sh          (npm run pack:check)
#
# Everything it writes (the build, the tarballs, npm's cache, Node 22, the scratch projects, the
# server's data) stays in one temp dir, removed at the end; FORMWRIGHT_PACK_KEEP=1 keeps it.
# FORMWRIGHT_PACK_NODE22=/path/to/node and FORMWRIGHT_PACK_NODE24=... use those instead of fetching.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE22_VERSION="22.19.0"
NODE24_VERSION="24.21.0"

say() { printf '[pack-check] %s\n' "$*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/formwright-pack-check.XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  if [ "${FORMWRIGHT_PACK_KEEP:-}" = "1" ]; then say "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# npm's cache, Node's compile cache and every temp file of the runs go to the temp dir too.
export npm_config_cache="$work/npm-cache" npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
export XDG_CACHE_HOME="$work/cache"
mkdir -p "$work/tmp"

tsc="$ROOT/node_modules/.bin/tsc"
[ -x "$tsc" ] || fail "no TypeScript in $ROOT/node_modules: run pnpm install first"
command -v pnpm >/dev/null 2>&1 || fail "no pnpm on PATH (npm run pack:check puts the workspace's there)"

# The publishable packages, and the build that must list them all.
packages=()
for manifest in "$ROOT"/packages/*/package.json; do
  dir="$(dirname "$manifest")"
  if node -e 'process.exit(require(process.argv[1]).private ? 0 : 1)' "$manifest"; then continue; fi
  name="$(basename "$dir")"
  [ -f "$dir/tsconfig.build.json" ] || fail "packages/$name has no tsconfig.build.json (see README, Publishing)"
  grep -q "\"packages/$name/tsconfig.build.json\"" "$ROOT/tsconfig.build.json" || fail "tsconfig.build.json does not reference packages/$name (see README, Publishing)"
  packages+=("$name")
done
say "packages: ${packages[*]}"

# 1. Build from a copy of the sources, so the checkout gets no dist/ and a stale one cannot count.
# Each copy's node_modules links to the checkout's installed dependencies, except @formwright/*,
# which link to the copies (so project references resolve to the freshly built declarations).
tree="$work/tree"
mkdir -p "$tree/packages"
cp "$ROOT"/tsconfig.base.json "$ROOT"/tsconfig.package.json "$ROOT"/tsconfig.build.json "$tree/"
printf 'packages:\n  - packages/*\n' > "$tree/pnpm-workspace.yaml"
printf '{ "name": "formwright-pack-check", "private": true }\n' > "$tree/package.json"
ln -s "$ROOT/node_modules" "$tree/node_modules"
for name in "${packages[@]}"; do
  from="$ROOT/packages/$name" to="$tree/packages/$name"
  mkdir -p "$to/node_modules"
  cp -R "$from/src" "$from/package.json" "$from/tsconfig.build.json" "$to/"
  for extra in README.md LICENSE; do [ -f "$from/$extra" ] && cp "$from/$extra" "$to/"; done
  for entry in "$from"/node_modules/* "$from"/node_modules/@*/*; do
    [ -e "$entry" ] || continue
    rel="${entry#"$from"/node_modules/}"
    case "$rel" in
      .bin | @*/*/* ) continue ;;
      @formwright/*) mkdir -p "$to/node_modules/@formwright"; ln -s "$tree/packages/${rel#@formwright/}" "$to/node_modules/$rel" ;;
      @*/*) mkdir -p "$to/node_modules/${rel%/*}"; ln -s "$(realpath "$entry")" "$to/node_modules/$rel" ;;
      @*) ;;
      *) ln -s "$(realpath "$entry")" "$to/node_modules/$rel" ;;
    esac
  done
done
say "building (tsc -b tsconfig.build.json)"
(cd "$tree" && "$tsc" -b tsconfig.build.json) || fail "the build"

# 2. Pack, and look inside: only dist/ and the manifest, no tests, exports and bin that exist,
# versions instead of workspace:*, nothing named plain `formwright`.
mkdir -p "$work/tarballs"
for name in "${packages[@]}"; do
  (cd "$tree/packages/$name" && pnpm pack --pack-destination "$work/tarballs" >/dev/null) || fail "pnpm pack of packages/$name"
done
tarballs="$(node "$ROOT/scripts/pack-inspect.ts" "$work/tarballs" "$work/unpacked")" || fail "the tarballs' contents"

# The scratch project's dependencies: the tarballs, and what docs/package.json pins besides them.
dependencies="$(node -e '
  const [docsManifest, tarballs] = process.argv.slice(1)
  const dependencies = {}
  for (const [name, spec] of Object.entries(require(docsManifest).dependencies)) if (!spec.startsWith("workspace:")) dependencies[name] = spec
  for (const [name, tarball] of Object.entries(JSON.parse(tarballs))) dependencies[name] = "file:" + tarball
  console.log(JSON.stringify(dependencies))
' "$ROOT/docs/package.json" "$tarballs")"

# A Node of the given major: FORMWRIGHT_PACK_NODE<major>, the one on PATH if it is that major, or
# the npm registry's node-linux-<arch> package (as scripts/fw.sh installs Node) into the temp dir.
node_of_major() {
  local major="$1" version="$2" override arch
  override="FORMWRIGHT_PACK_NODE$major"
  if [ -n "${!override:-}" ]; then echo "${!override}"; return; fi
  if [ "$major" = "24" ] && [ "$(node -p 'process.versions.node.split(".")[0]')" = "24" ]; then command -v node; return; fi
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "no prebuilt Node for $(uname -m): set $override" ;;
  esac
  say "fetching Node $version (node-linux-$arch) from the npm registry"
  npm install --prefix "$work/node$major" --no-save --loglevel=error "node-linux-$arch@$version" >&2 || fail "fetching Node $version"
  echo "$work/node$major/node_modules/node-linux-$arch/bin/node"
}

free_port() { node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })'; }
# GET url [bearer-key]: the status, a space, the body (no curl on every CI machine).
http_get() {
  node -e '
    const [url, key] = process.argv.slice(1)
    fetch(url, { headers: key ? { authorization: "Bearer " + key } : {} })
      .then(async (response) => console.log(response.status + " " + (await response.text())), () => console.log("000"))
  ' "$@"
}

# 3. On each Node: install the tarballs, type-check and run the embed example, run the bin.
for wanted in "22 $NODE22_VERSION" "24 $NODE24_VERSION"; do
  read -r major version <<<"$wanted"
  node_bin="$(node_of_major "$major" "$version")"
  node_dir="$(dirname "$node_bin")"
  actual="$("$node_bin" --version)"
  [ "${actual#v}" != "${actual#"v$major."}" ] || fail "$node_bin is $actual, not Node $major"
  app="$work/app-node$major"
  mkdir -p "$app"
  say "Node $actual: npm install of the tarballs into $app"
  node -e '
    const [file, dependencies] = process.argv.slice(1)
    require("node:fs").writeFileSync(file, JSON.stringify({ name: "formwright-scratch", private: true, type: "module", dependencies: JSON.parse(dependencies) }, null, 2))
  ' "$app/package.json" "$dependencies"
  mkdir -p "$app/docs/examples"
  cp "$ROOT/docs/examples/embed.ts" "$ROOT/docs/examples/embed.smoke.ts" "$app/docs/examples/"
  (cd "$app" && PATH="$node_dir:$PATH" npm install --prefer-offline --no-audit --no-fund --loglevel=error >&2) || fail "npm install on Node $actual"
  for name in "${packages[@]}"; do
    [ ! -e "$app/node_modules/@formwright/$name/src" ] || fail "@formwright/$name was installed with its sources"
  done

  if [ "$major" = "24" ]; then
    say "type-checking the example against the installed declarations"
    cat > "$app/tsconfig.json" <<EOF
{
  "compilerOptions": {
    "target": "ES2023", "lib": ["ES2023", "DOM"], "module": "NodeNext", "moduleResolution": "NodeNext",
    "strict": true, "noEmit": true, "allowImportingTsExtensions": true, "verbatimModuleSyntax": true,
    "skipLibCheck": true, "typeRoots": ["$ROOT/node_modules/@types"], "types": ["node"]
  },
  "files": ["docs/examples/embed.ts", "docs/examples/embed.smoke.ts"]
}
EOF
    (cd "$app" && "$tsc" -p tsconfig.json) || fail "the example does not type-check against the published declarations"
  fi

  say "Node $actual: the embed example (upload, fill, convert; PDF work in worker processes)"
  (cd "$app" && TMPDIR="$work/tmp" PATH="$node_dir:$PATH" node docs/examples/embed.smoke.ts "$app/embed-data") || fail "the embed example on Node $actual"

  say "Node $actual: the formwright bin"
  bin="$app/node_modules/.bin/formwright"
  [ -x "$bin" ] || fail "no executable node_modules/.bin/formwright"
  run_bin() { (cd "$app" && TMPDIR="$work/tmp" PATH="$node_dir:$PATH" FORMWRIGHT_DATA_DIR="$app/data" "$bin" "$@"); }
  want_version="$(node -p 'require(process.argv[1]).version' "$app/node_modules/@formwright/http-node/package.json")"
  got_version="$(run_bin --version)" || fail "formwright --version"
  [[ "$got_version" == *"$want_version"* ]] || fail "formwright --version printed '$got_version', not $want_version"
  run_bin --help | grep -q "keys" || fail "formwright --help does not list the commands"
  key="$(run_bin keys create --user alice)" || fail "formwright keys create"
  [ -n "$key" ] || fail "formwright keys create printed no key"
  port="$(free_port)"
  (cd "$app" && TMPDIR="$work/tmp" PATH="$node_dir:$PATH" FORMWRIGHT_DATA_DIR="$app/data" FORMWRIGHT_PORT="$port" \
    exec "$bin" serve >"$work/server-node$major.log" 2>&1) &
  server_pid=$!
  health=""
  for _ in $(seq 1 100); do
    health="$(http_get "http://127.0.0.1:$port/health")"
    [ "${health%% *}" = "200" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server-node$major.log" >&2; fail "formwright serve exited"; }
    sleep 0.2
  done
  [[ "$health" == "200 "*'"ok"'* ]] || { cat "$work/server-node$major.log" >&2; fail "formwright serve did not answer /health ($health)"; }
  profiles="$(http_get "http://127.0.0.1:$port/v1/profiles" "$key")"
  [ "${profiles%% *}" = "200" ] || fail "GET /v1/profiles with the key 'keys create' issued answered ${profiles:0:200}"
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
  say "Node $actual: ok (/health: ${health#* })"
done

say "every package builds, packs, installs and runs on Node 22 and Node 24"
