// Starts the real stack for the edge's integration tests, its benchmark and the web app's
// browser tests: the origin binary on a fresh SQLite database, and the built Worker in workerd
// through `wrangler dev`, both on free loopback ports, sharing a fresh secret.
//   ORIGIN_BIN  the origin executable (default: the debug build under CARGO_TARGET_DIR)

import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, homedir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHmac, randomBytes } from 'node:crypto';

const EDGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../edge');

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, child, log, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited\n${log()}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${seconds} s\n${log()}`);
}

function start(command, args, options) {
  const child = spawn(command, args, {
    ...options,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return { child, log: () => output };
}

function stop(process) {
  if (process && process.child.exitCode === null) {
    try {
      globalThis.process.kill(-process.child.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
}

/** Runs SQL on an origin's SQLite file with python3's sqlite3; answers the rows. */
export function sqlOn(database, statement, ...params) {
  const script =
    'import json, sqlite3, sys\n' +
    'db = sqlite3.connect(sys.argv[1], timeout=10)\n' +
    'rows = db.execute(sys.argv[2], json.loads(sys.argv[3])).fetchall()\n' +
    'db.commit()\n' +
    'print(json.dumps(rows))\n';
  return JSON.parse(execFileSync('python3', ['-c', script, database, statement, JSON.stringify(params)]).toString());
}

/**
 * Starts the payment provider, the origin (or `origins` of them, on one database, the edge
 * spreading requests over them) and the edge (with `edgeVars`, settings beside wrangler.toml's);
 * answers `{ origin, origins, edge, paygate, secret, sql, killOrigin, stop }`.
 */
export async function startStack({ cacheTtl = 60, originBin, originEnv = {}, origins: originCount = 1, edgeVars = {} } = {}) {
  const work = mkdtempSync(join(tmpdir(), 'shop-edge-'));
  const database = join(work, 'shop.db');
  const secret = randomBytes(32).toString('hex');
  const payKey = randomBytes(16).toString('hex');
  const [edgePort, inspectorPort, paygatePort] = await Promise.all([freePort(), freePort(), freePort()]);
  const originPorts = [];
  for (let n = 0; n < originCount; n++) originPorts.push(await freePort());
  const targetDir = process.env.CARGO_TARGET_DIR ?? join(homedir(), '.cache/pharma-shop/target');
  const bin = originBin ?? process.env.ORIGIN_BIN ?? join(targetDir, 'debug/origin');
  const paygateUrl = `http://127.0.0.1:${paygatePort}`;

  // The offline payment provider, notifying the shop through the edge as a real one would.
  const paygate = start(join(dirname(bin), 'paygate'), [], {
    cwd: work,
    env: {
      ...process.env,
      PAYGATE_ADDR: `127.0.0.1:${paygatePort}`,
      PAYGATE_KEY: payKey,
      RUST_LOG: 'warn',
    },
  });
  const startOrigin = (port) =>
    start(bin, [], {
      cwd: work,
      env: {
        ...process.env,
        ORIGIN_ADDR: `127.0.0.1:${port}`,
        DATABASE_URL: `sqlite://${database}`,
        EDGE_SECRET: secret,
        RUST_LOG: 'warn',
        PAY_PROVIDER_URL: paygateUrl,
        PAY_KEY: payKey,
        SHOP_PUBLIC_URL: `http://127.0.0.1:${edgePort}`,
        ...originEnv,
      },
    });
  const originUrls = originPorts.map((port) => `http://127.0.0.1:${port}`);
  const originProcesses = [];
  const origin = {
    log: () => originProcesses.map((process) => process.log()).join('\n'),
  };
  const originUrl = originUrls[0];
  let edge;
  const stopOrigins = () => originProcesses.forEach(stop);
  try {
    // One after the other: the first loads the demo data into the new database. /healthz is
    // answered without the edge's proof.
    for (const port of originPorts) {
      const started = startOrigin(port);
      originProcesses.push(started);
      await waitFor(`http://127.0.0.1:${port}/healthz`, started.child, started.log, 60);
    }
    await waitFor(`${paygateUrl}/pay/none`, paygate.child, paygate.log, 30);
    edge = start(
      join(EDGE_DIR, 'node_modules/.bin/wrangler'),
      [
        'dev',
        '--ip',
        '127.0.0.1',
        '--port',
        String(edgePort),
        '--inspector-port',
        String(inspectorPort),
        '--persist-to',
        join(work, 'wrangler-state'),
        '--log-level',
        process.env.WRANGLER_LOG_LEVEL ?? 'warn',
        '--var',
        `ORIGIN_URL:${originUrls.join(',')}`,
        '--var',
        `EDGE_SECRET:${secret}`,
        '--var',
        `PUBLIC_CACHE_TTL:${cacheTtl}`,
        ...Object.entries(edgeVars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
      ],
      {
        cwd: EDGE_DIR,
        env: {
          ...process.env,
          WRANGLER_SEND_METRICS: 'false',
          CLOUDFLARE_CF_FETCH_ENABLED: 'false',
          NO_COLOR: '1',
          CI: '1',
        },
      },
    );
    await waitFor(`http://127.0.0.1:${edgePort}/api/goods/hot`, edge.child, edge.log, 60);
  } catch (error) {
    stop(edge);
    stopOrigins();
    stop(paygate);
    throw error;
  }

  // Whatever ends this process, the servers it started end with it.
  const cleanUp = () => {
    stop(edge);
    stopOrigins();
    stop(paygate);
  };
  process.once('exit', cleanUp);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      cleanUp();
      process.exit(130);
    });
  }

  return {
    origin: originUrl,
    origins: originUrls,
    edge: `http://127.0.0.1:${edgePort}`,
    paygate: paygateUrl,
    secret,
    originLog: origin.log,
    edgeLog: edge.log,
    database,
    /** Runs SQL on the origin's SQLite database (fixtures the API cannot make). */
    sql: (statement, ...params) => sqlOn(database, statement, ...params),
    /** Kills origin `n` with SIGKILL, as a crash would; answers when it is gone. */
    async killOrigin(n) {
      const { child } = originProcesses[n];
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      globalThis.process.kill(-child.pid, 'SIGKILL');
      await gone;
    },
    async stop() {
      stop(edge);
      stopOrigins();
      stop(paygate);
      await new Promise((resolve) => setTimeout(resolve, 200));
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** A form-encoded body. */
export function form(fields) {
  return new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, String(value)])).toString();
}

/**
 * The edge's proof (`order_check::proof`, `X-Edge-Proof`) for a `method` request to `target`
 * (the path and query as sent), keyed with the shared secret, made at `time` (Unix seconds).
 */
export function edgeProof(secret, method, target, time = Math.floor(Date.now() / 1000)) {
  const message = `shop-edge-proof/v1\n${time}\n${method.toUpperCase()}\n${target}`;
  return `${time}.${createHmac('sha256', secret).update(message).digest('hex')}`;
}

/**
 * A client with its own cookie jar, talking to `base`. With `proofSecret` it adds the edge's
 * proof to each request, as the edge does: for calls straight to the origin.
 */
export class Client {
  constructor(base, { proofSecret } = {}) {
    this.base = base;
    this.proofSecret = proofSecret;
    this.cookies = new Map();
  }

  cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(method, path, { body, headers = {} } = {}) {
    const response = await fetch(this.base + path, {
      method,
      redirect: 'manual',
      headers: {
        ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
        ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(this.proofSecret ? { 'x-edge-proof': edgeProof(this.proofSecret, method, path) } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : form(body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair.split('=');
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.trim());
    }
    const text = await response.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  get(path, options) {
    return this.request('GET', path, options);
  }

  post(path, body, options = {}) {
    return this.request('POST', path, { ...options, body });
  }

  async login(username = 'demo', password = 'demo123') {
    const answer = await this.post('/api/user/login', { username, password });
    if (answer.status !== 200) throw new Error(`login ${username}: ${answer.text}`);
    return answer;
  }
}
