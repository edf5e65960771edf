// The built Worker in workerd itself, started from a generated config: no wrangler dev and no
// Miniflare in front of it, as close as this machine gets to what the Workers runtime adds.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/lib/stack.mjs';

const EDGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Starts workerd serving edge/build/; answers `{ url, stop }`. */
export async function startWorkerd({ origin, secret, cacheTtl = 60 }) {
  const port = await freePort();
  const text = (value) => JSON.stringify(String(value));
  const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "edge", worker = .edge),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "edge")],
);
const edge :Workerd.Worker = (
  modules = [
    (name = "worker/shim.mjs", esModule = embed "worker/shim.mjs"),
    (name = "index.js", esModule = embed "index.js"),
    (name = "index_bg.wasm", wasm = embed "index_bg.wasm"),
  ],
  compatibilityDate = "2026-04-01",
  bindings = [
    (name = "ORIGIN_URL", text = ${text(origin)}),
    (name = "EDGE_SECRET", text = ${text(secret)}),
    (name = "PUBLIC_CACHE_TTL", text = ${text(cacheTtl)}),
  ],
  globalOutbound = "internet",
);
`;
  const file = join(EDGE_DIR, 'build', 'bench.capnp');
  writeFileSync(file, config);
  const bin = join(EDGE_DIR, 'node_modules', 'workerd', 'bin', 'workerd');
  const child = spawn(bin, ['serve', '--experimental', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited\n${output}`);
    try {
      await (await fetch(`${url}/api/cart/total`)).arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGTERM');
        throw new Error(`workerd did not answer\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { url, stop: () => child.kill('SIGTERM') };
}
