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

setup_chromium() {
  step "Chromium and ChromeDriver (Debian)"
  apt_install chromium chromium-driver
}

# Builds the engine as an npm package into pkg/ (bundler target: Vite with vite-plugin-wasm, and
# Node with --experimental-wasm-modules).
build_pkg() {
  step "Build the engine package into pkg/ (wasm-pack, release)"
  (cd "$ROOT" && wasm-pack --quiet build engine --mode no-install --release --target bundler --out-dir ../pkg)
  skip "pkg/engine_bg.wasm: $(wc -c < "$ROOT/pkg/engine_bg.wasm") bytes, $(gzip -9c "$ROOT/pkg/engine_bg.wasm" | wc -c) gzipped"
}

setup_all() {
  setup_node_tools
  setup_rust
  setup_chromium
}
