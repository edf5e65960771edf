// The API under a fuzzer: Schemathesis reads the origin's OpenAPI document through the edge and,
// signed in as the demo member, sends every documented call generated and mutated input for a
// bounded time (examples, then boundary and invalid values, then random ones). No answer may
// be a 5xx: bad input is the client's, and is answered 4xx with a message. The stack is the
// real one (the origin on a fresh SQLite database, the Worker in workerd); `scripts/test` runs
// this after installing Schemathesis (`setup_fuzzer` in scripts/lib/setup.sh).
//   SCHEMATHESIS   the schemathesis executable (scripts/test exports it)
//   FUZZ_SECONDS   the time budget (default 120)
//   FUZZ_SEED      the seed (default: a new one, printed, so that a failure can be replayed)
//   ORIGIN_BIN     the origin executable (default: the debug build under CARGO_TARGET_DIR)
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startStack, Client } from './stack.mjs';

const SECONDS = Number(process.env.FUZZ_SECONDS ?? 120);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

// Calls left out, and why: logging out or in would end the signed-in session the rest is
// fuzzed with (a login ends the session before it), so most calls would only be answered 401.
const EXCLUDED = ['logout', 'login'];

test(`no call answers 5xx to generated input (Schemathesis, ${SECONDS} s, seed ${SEED})`, { timeout: (SECONDS + 300) * 1000 }, async () => {
  const schemathesis = process.env.SCHEMATHESIS;
  assert.ok(schemathesis, 'SCHEMATHESIS names the schemathesis executable (scripts/test installs it)');
  const stack = await startStack();
  const reports = mkdtempSync(join(tmpdir(), 'api-fuzz-'));
  try {
    const member = new Client(stack.edge);
    await member.login();
    const args = [
      'run',
      `${stack.edge}/api/openapi.json`,
      '--url',
      stack.edge,
      '--checks',
      'not_a_server_error',
      '--max-time',
      String(SECONDS),
      '--seed',
      String(SEED),
      '--workers',
      '2',
      '--request-timeout',
      '20',
      '--wait-for-schema',
      '30',
      '--suppress-health-check',
      'all',
      '--header',
      `Cookie: ${member.cookieHeader()}`,
      '--report',
      'ndjson',
      '--report-dir',
      reports,
      '--no-color',
      ...EXCLUDED.flatMap((id) => ['--exclude-operation-id', id]),
    ];
    // Run in the report directory: Schemathesis keeps its example database in the working directory.
    const child = spawn(schemathesis, args, { cwd: reports, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    console.log(output.split('\n').slice(-40).join('\n'));
    // Requests the run made, from its event log: a run that sent nothing proves nothing.
    const events = readFileSync(join(reports, readdirName(reports)), 'utf8');
    const sent = (events.match(/"ScenarioFinished"/g) ?? []).length;
    assert.ok(sent > 50, `the fuzzer ran ${sent} scenarios`);
    assert.equal(code, 0, `Schemathesis found failures (seed ${SEED}, FUZZ_SEED=${SEED} replays them):\n${output.slice(-6000)}`);
  } finally {
    rmSync(reports, { recursive: true, force: true });
    await stack.stop();
  }
});

/** The one ndjson report Schemathesis wrote into `dir`. */
function readdirName(dir) {
  const names = readdirSync(dir).filter((name) => name.endsWith('.ndjson'));
  assert.equal(names.length, 1, `one event log in ${dir}: ${names}`);
  return names[0];
}
