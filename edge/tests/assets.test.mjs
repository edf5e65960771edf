// The built web app as the edge in workerd serves it, in front of a real origin: the build's
// hashed files (web/dist/assets) are kept a year and never revalidated; index.html, and every
// client route that falls back to it, is revalidated with its ETag; a hashed name the build did
// not write is a 404, never index.html. Needs web/dist (the web app built).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStack, Client } from '../../scripts/lib/stack.mjs';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '../../web/dist');
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';

let stack;

before(async () => {
  stack = await startStack();
});

after(async () => {
  await stack?.stop();
});

test('the hashed build files are immutable for a year', async () => {
  const client = new Client(stack.edge);
  // What index.html loads (script, module preloads, stylesheet), and every other built file.
  const linked = [...readFileSync(join(DIST, 'index.html'), 'utf8').matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);
  assert.ok(
    linked.some((path) => path.endsWith('.js')) && linked.some((path) => path.endsWith('.css')),
    'index.html links scripts and styles',
  );
  const files = readdirSync(join(DIST, 'assets')).map((name) => `/assets/${name}`);
  assert.ok(
    files.some((path) => path.endsWith('.wasm')),
    'the engine is among the built files',
  );
  for (const path of new Set([...linked, ...files])) {
    assert.match(path, /-[\w-]{8}\.\w+$/, `${path} is named after its content`);
    const file = await client.get(path);
    assert.equal(file.status, 200, path);
    assert.equal(file.headers.get('cache-control'), IMMUTABLE, path);
    assert.doesNotMatch(file.headers.get('content-type'), /text\/html/, path);
    assert.equal(file.headers.get('x-content-type-options'), 'nosniff', path);
  }
});

test('index.html and the client routes are revalidated, with their ETag', async () => {
  const client = new Client(stack.edge);
  const home = await client.get('/');
  assert.equal(home.status, 200);
  assert.match(home.headers.get('content-type'), /text\/html/);
  assert.equal(home.headers.get('cache-control'), REVALIDATE);
  const etag = home.headers.get('etag');
  assert.ok(etag, 'index.html has an ETag');
  for (const path of ['/cart', '/list/info/12', '/help/xrzn/hyzc?id=66', '/no/such/page']) {
    const page = await client.get(path, { headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate' } });
    assert.equal(page.status, 200, path);
    assert.equal(page.text, home.text, `${path} is the app's index.html`);
    assert.equal(page.headers.get('cache-control'), REVALIDATE, path);
    assert.equal(page.headers.get('etag'), etag, path);
    // A reload asks again, and is told nothing changed.
    const again = await client.get(path, { headers: { 'if-none-match': etag, 'sec-fetch-mode': 'navigate' } });
    assert.equal(again.status, 304, path);
  }
  // The headers file itself is not served.
  const headersFile = await client.get('/_headers');
  assert.equal(headersFile.text, home.text);
});

test('a hashed name the build did not write is a 404, kept by no cache', async () => {
  const client = new Client(stack.edge);
  for (const path of ['/assets/index-AbCd1234.js', '/assets/engine_bg-Zz9Yx8Wv.wasm', '/assets/']) {
    const missing = await client.get(path, { headers: { 'sec-fetch-dest': 'script', 'sec-fetch-mode': 'cors' } });
    assert.equal(missing.status, 404, path);
    assert.equal(missing.headers.get('cache-control'), 'no-store', path);
    assert.doesNotMatch(missing.headers.get('content-type'), /text\/html/, path);
  }
});
