# Shared set-up for scripts/run and scripts/test: installs what is missing, at pinned versions.
# Sourced, not executed. Every step is idempotent: a tool already present at its pinned version
# is skipped. Build caches and tools live outside the clone (under $SHOP_CACHE).

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SHOP_CACHE="${SHOP_CACHE:-$HOME/.cache/pharma-shop}"
TOOLS="$SHOP_CACHE/tools"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$SHOP_CACHE/target}"
export PATH="$HOME/.cargo/bin:$TOOLS/node_modules/.bin:$PATH"

WASM_BINDGEN_VERSION=0.2.130
WASM_PACK_VERSION=0.15.1
BINARYEN_VERSION=132.0.0
WORKER_BUILD_VERSION=0.8.7

step() { printf '\n\033[1;34m==> %s\033[0m\n' "$*"; }
skip() { printf '    %s\n' "$*"; }

# `have_version CMD ARG EXPECTED`: true when `CMD ARG` prints EXPECTED somewhere.
have_version() { command -v "$1" >/dev/null 2>&1 && "$1" "$2" 2>/dev/null | grep -qF "$3"; }

apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  if [ ${#missing[@]} -eq 0 ]; then skip "apt: $* already installed"; return; fi
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

setup_rust() {
  step "Rust toolchain: wasm32 target, wasm-bindgen $WASM_BINDGEN_VERSION, wasm-pack $WASM_PACK_VERSION"
  if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    skip "wasm32-unknown-unknown already installed"
  else
    rustup target add wasm32-unknown-unknown
  fi
  # No --locked for wasm-bindgen-cli: the registry lacks a version its lock file names.
  if have_version wasm-bindgen --version "$WASM_BINDGEN_VERSION"; then
    skip "wasm-bindgen $WASM_BINDGEN_VERSION already installed"
  else
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
  fi
  if have_version wasm-pack --version "$WASM_PACK_VERSION"; then
    skip "wasm-pack $WASM_PACK_VERSION already installed"
  else
    cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked --force
  fi
}

# npm tools outside the clone: binaryen (wasm-opt; never Debian's, its output fails to load).
setup_node_tools() {
  step "npm tools: binaryen $BINARYEN_VERSION"
  mkdir -p "$TOOLS"
  local want="binaryen@$BINARYEN_VERSION"
  if [ -f "$TOOLS/.installed" ] && [ "$(cat "$TOOLS/.installed")" = "$want" ] \
     && [ -x "$TOOLS/node_modules/.bin/wasm-opt" ]; then
    skip "already installed"
  else
    [ -f "$TOOLS/package.json" ] || echo '{"name":"shop-tools","private":true}' > "$TOOLS/package.json"
    (cd "$TOOLS" && npm install --no-save --silent "binaryen@$BINARYEN_VERSION")
    echo "$want" > "$TOOLS/.installed"
  fi
}

# `npm ci` in DIR when its node_modules was not installed from the current lock file.
npm_ci() {
  local dir="$1" stamp="$1/node_modules/.lock-sha256" want
  want="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    skip "$(basename "$dir"): node_modules matches package-lock.json"
  else
    (cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" > "$stamp"
  fi
}

# The edge: worker-build (builds the Worker; told where wasm-bindgen, wasm-opt and esbuild are,
# so that it downloads nothing), and wrangler (brings workerd) from edge/package-lock.json.
setup_edge_tools() {
  step "Edge tools: worker-build $WORKER_BUILD_VERSION, wrangler (edge/package-lock.json)"
  if have_version worker-build --version "$WORKER_BUILD_VERSION"; then
    skip "worker-build $WORKER_BUILD_VERSION already installed"
  else
    cargo install worker-build --version "$WORKER_BUILD_VERSION" --locked --force
  fi
  npm_ci "$ROOT/edge"
  # The edge's integration tests make fixtures in the origin's SQLite file with python3's sqlite3.
  apt_install python3
}

# The Worker into edge/build/: worker/shim.mjs (wrangler.toml's `main`), index.js and index_bg.wasm.
build_edge() {
  step "Build the edge Worker (worker-build, release)"
  (cd "$ROOT/edge" && WASM_BINDGEN_BIN="$HOME/.cargo/bin/wasm-bindgen" WASM_OPT_BIN="$TOOLS/node_modules/.bin/wasm-opt" \
    ESBUILD_BIN="$ROOT/edge/node_modules/.bin/esbuild" worker-build --release)
  local files=("$ROOT"/edge/build/worker/shim.mjs "$ROOT"/edge/build/index.js "$ROOT"/edge/build/index_bg.wasm)
  skip "Worker bundle: $(cat "${files[@]}" | wc -c) bytes, $(cat "${files[@]}" | gzip -9 | wc -c) gzipped"
}

# The web app into web/dist/, which the edge serves (needs pkg/ built first: web/ depends on it).
build_web() {
  step "Build the web app into web/dist/"
  npm_ci "$ROOT/web"
  (cd "$ROOT/web" && npm run --silent build)
}

# The web app's API types (web/src/api/types.ts), generated from the origin's OpenAPI document
# (`origin openapi` prints it without a database) by openapi-typescript, formatted like the
# rest of web/. Writes them to $1.
generate_api_types() {
  local out="$1" document
  document="$(mktemp --suffix .json)"
  (cd "$ROOT" && cargo run -q -p origin -- openapi) > "$document"
  (cd "$ROOT/web" && npx openapi-typescript "$document" --root-types --root-types-no-schema-prefix --output "$out" --silent \
    && { printf '%s\n' '// Generated from the origin'"'"'s OpenAPI document by scripts/api-types: do not edit by hand.'; cat "$out"; } > "$out.tmp" \
    && mv "$out.tmp" "$out" \
    && npx prettier --config prettier.config.js --log-level warn --write "$out")
  rm -f "$document"
}

# The engine package's TypeScript declarations (engine/js/contract.d.ts), generated by
# openapi-typescript from the engine's contract (`engine::contract`, printed by its `contract`
# example); `engine/src/wasm/mod.rs` compiles them into the package's .d.ts.
generate_engine_types() {
  local out="$1" document
  document="$(mktemp --suffix .json)"
  (cd "$ROOT" && cargo run -q -p engine --features schema --example contract) > "$document"
  (cd "$ROOT/web" && npx openapi-typescript "$document" --root-types --root-types-no-schema-prefix --output "$out" --silent \
    && { printf '%s\n' '// Generated from the engine'"'"'s contract (engine/src/contract.rs) by scripts/engine-types: do not edit by hand.'; cat "$out"; } > "$out.tmp" \
    && mv "$out.tmp" "$out" \
    && npx prettier --config prettier.config.js --log-level warn --write "$out")
  rm -f "$document"
}

# edge/.dev.vars holds the secret the edge proves every request and signs checked orders with,
# and the origin verifies: 64 hex characters (32 random bytes; the origin refuses fewer than 32
# characters), written once, and again when the file holds a shorter one. Exports EDGE_SECRET
# for the origin.
ensure_edge_secret() {
  local vars="$ROOT/edge/.dev.vars"
  if [ ! -f "$vars" ] || [ "$(sed -n 's/^EDGE_SECRET=//p' "$vars" | tr -d '\n' | wc -c)" -lt 32 ]; then
    printf 'EDGE_SECRET=%s\n' "$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')" > "$vars"
    chmod 600 "$vars"
  fi
  EDGE_SECRET="$(sed -n 's/^EDGE_SECRET=//p' "$vars")"
  export EDGE_SECRET
}

# 32 random bytes in hex: a secret or key of one's own.
random_key() { head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'; }

# The merchant key the origin and the offline payment provider share (PAY_KEY, PAYGATE_KEY):
# 64 random hex characters, written once into data/pay.key (outside git, like edge/.dev.vars),
# and again if the file holds a shorter one; a PAY_KEY already in the environment is used as it
# is. Neither process starts without a key of its own.
ensure_pay_key() {
  local file="$ROOT/data/pay.key"
  if [ -n "${PAY_KEY:-}" ]; then export PAY_KEY PAYGATE_KEY="$PAY_KEY"; return; fi
  mkdir -p "$ROOT/data"
  if [ ! -f "$file" ] || [ "$(tr -d '\n' < "$file" | wc -c)" -lt 32 ]; then
    (umask 077 && random_key > "$file")
  fi
  PAY_KEY="$(tr -d '\n' < "$file")"
  export PAY_KEY PAYGATE_KEY="$PAY_KEY"
}

setup_chromium() {
  step "Chromium, ChromeDriver and CJK fonts (Debian)"
  # Noto CJK: the shop is in Chinese; without it Chromium draws boxes in the screenshots, and
  # the origin cannot print delivery notes and invoices (documents/, PDF_FONTS).
  apt_install chromium chromium-driver fonts-noto-cjk
}

# The CJK fonts alone, for a machine that only runs the shop: the origin embeds a subset of
# Noto Sans CJK SC in the delivery notes and invoices it prints.
setup_fonts() {
  step "CJK fonts for the printed documents (Debian fonts-noto-cjk)"
  apt_install fonts-noto-cjk
}

# Builds the engine as an npm package into pkg/ (bundler target: Vite with vite-plugin-wasm, and
# Node with --experimental-wasm-modules).
build_pkg() {
  step "Build the engine package into pkg/ (wasm-pack, release)"
  (cd "$ROOT" && wasm-pack --quiet build engine --mode no-install --release --target bundler --out-dir ../pkg)
  skip "pkg/engine_bg.wasm: $(wc -c < "$ROOT/pkg/engine_bg.wasm") bytes, $(gzip -9c "$ROOT/pkg/engine_bg.wasm" | wc -c) gzipped"
}

# The package the tests run rules 20–22 through: pkg/ plus their exports (feature `after-sale`),
# which the browser never calls and the shipped package leaves out. Outside the clone.
TEST_PKG="$SHOP_CACHE/pkg-after-sale"
build_test_pkg() {
  step "Build the engine's test package, with rules 20–22 (wasm-pack, release, feature after-sale)"
  (cd "$ROOT" && wasm-pack --quiet build engine --mode no-install --release --target bundler --out-dir "$TEST_PKG" -- --features after-sale)
}

# A PostgreSQL 15 for the origin's tests: the machine's own when one answers on 5432 (a fresh
# database is made per test), else a throwaway server from Debian's package on 55432.
setup_postgres() {
  step "PostgreSQL for the tests"
  if command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p 5432 \
     && psql -h 127.0.0.1 -p 5432 -U postgres -d postgres -qtAc 'select 1' >/dev/null 2>&1; then
    export TEST_DATABASE_ADMIN_URL="postgres://postgres@127.0.0.1:5432/postgres"
    skip "using the server on 127.0.0.1:5432"
    return
  fi
  if command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p 55432; then
    export TEST_DATABASE_ADMIN_URL="postgres://postgres@127.0.0.1:55432/postgres"
    skip "using the throwaway server on 127.0.0.1:55432"
    return
  fi
  apt_install postgresql
  local bin; bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
  local dir=/tmp/shop-pg
  local sudo_pg="su postgres -c"
  [ "$(id -u)" -eq 0 ] || sudo_pg="sudo -u postgres sh -c"
  if [ ! -d "$dir/data" ]; then
    mkdir -p "$dir" && chown postgres "$dir" 2>/dev/null || sudo chown postgres "$dir"
    $sudo_pg "$bin/initdb -D $dir/data -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" >/dev/null
  fi
  $sudo_pg "$bin/pg_ctl -D $dir/data -l $dir/log -o '-p 55432 -k $dir -c listen_addresses=127.0.0.1' -w start" >/dev/null
  export TEST_DATABASE_ADMIN_URL="postgres://postgres@127.0.0.1:55432/postgres"
  skip "started a throwaway server on 127.0.0.1:55432 (data in $dir)"
}

# Schemathesis (PyPI), the API fuzzer scripts/test runs, in a virtual environment of its own
# under the cache (one per version), made with the machine's Python 3. Exports SCHEMATHESIS.
SCHEMATHESIS_VERSION=4.32.5
setup_fuzzer() {
  step "Schemathesis $SCHEMATHESIS_VERSION (the API fuzzer, PyPI)"
  local venv="$SHOP_CACHE/schemathesis-$SCHEMATHESIS_VERSION"
  export SCHEMATHESIS="$venv/bin/schemathesis"
  if [ -x "$SCHEMATHESIS" ] && "$SCHEMATHESIS" --version 2>/dev/null | grep -qF "$SCHEMATHESIS_VERSION"; then
    skip "schemathesis $SCHEMATHESIS_VERSION already installed"
    return
  fi
  command -v python3 >/dev/null 2>&1 || apt_install python3
  python3 -c 'import venv, ensurepip' 2>/dev/null || apt_install python3-venv
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
}

setup_all() {
  setup_node_tools
  setup_rust
  setup_edge_tools
  setup_chromium
  setup_postgres
}
