// The built web app as the edge in workerd serves it, in front of a real origin: the build's
// hashed files (web/dist/assets) are kept a year and never revalidated; index.html is revalidated
// with its ETag; a page the browser asks for comes with its first answers written into it, anew
// on every visit (src/entry.mjs); a hashed name the build did not write is a 404, never
// index.html. Needs web/dist (the web app built).

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

test('index.html, and a client route without first calls, are revalidated with their ETag', async () => {
  const client = new Client(stack.edge);
  const home = await client.get('/');
  assert.equal(home.status, 200);
  assert.match(home.headers.get('content-type'), /text\/html/);
  assert.equal(home.headers.get('cache-control'), REVALIDATE);
  const etag = home.headers.get('etag');
  assert.ok(etag, 'index.html has an ETag');
  assert.doesNotMatch(home.text, /shop-first-answers/, 'a request that is not a navigation gets the file as built');
  const page = await client.get('/no/such/page', { headers: NAVIGATION });
  assert.equal(page.status, 200);
  assert.equal(page.text, home.text, "an address no route shows is the app's index.html");
  assert.equal(page.headers.get('cache-control'), REVALIDATE);
  assert.equal(page.headers.get('etag'), etag);
  // A reload asks again, and is told nothing changed.
  const again = await client.get('/no/such/page', { headers: { ...NAVIGATION, 'if-none-match': etag } });
  assert.equal(again.status, 304);
  // The headers file itself is not served.
  const headersFile = await client.get('/_headers');
  assert.equal(headersFile.text, home.text);
});

/** What a browser sends for a page. */
const NAVIGATION = { accept: 'text/html,application/xhtml+xml', 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' };

/** The first answers written into a page's document: `{ url: [status, envelope] }`. */
function firstAnswers(page) {
  const block = /<script type="application\/json" id="shop-first-answers">([^]*?)<\/script><\/body>/.exec(page.text);
  assert.ok(block, 'the document carries its first answers, at the end of its body');
  assert.ok(
    page.text.startsWith('<!doctype html>') && page.text.includes('<head><meta name="shop-first-answers" content="coming">'),
    'its head says they are coming',
  );
  assert.doesNotMatch(block[1], /</, 'nothing in them can end the element');
  return JSON.parse(block[1]);
}

test("a page's document carries the member's first answers, written anew on every visit", async () => {
  const visitor = new Client(stack.edge);
  const member = new Client(stack.edge);
  await member.login();
  await member.post('/api/cart', { goods_id: 1, number: 3 });
  const built = readFileSync(join(DIST, 'index.html'), 'utf8');
  const policy = (await visitor.get('/')).headers.get('content-security-policy');
  assert.match(policy, /script-src 'self'/);
  for (const path of ['/', '/cart', '/list/info/12', '/help/xrzn/hyzc?id=66']) {
    const page = await member.get(path, { headers: NAVIGATION });
    assert.equal(page.status, 200, path);
    assert.equal(page.headers.get('cache-control'), 'no-store', `${path}: kept by no cache, not even for the back button`);
    assert.equal(page.headers.get('etag'), null, path);
    assert.equal(page.headers.get('content-security-policy'), policy, `${path}: the pages' policy`);
    assert.equal(
      page.text
        .replace(/<script type="application\/json" id="shop-first-answers">[^]*?<\/script>/, '')
        .replace('<meta name="shop-first-answers" content="coming">', ''),
      built,
      path,
    );
    const answers = firstAnswers(page);
    for (const call of ['/api/index', '/api/user/base', '/api/cart/total']) assert.ok(call in answers, `${path}: ${call}`);
    // Each is what the member would have been answered by the call itself.
    const [status, envelope] = answers['/api/cart/total'];
    const asked = await member.get('/api/cart/total');
    assert.equal(status, 200);
    assert.deepEqual(envelope, asked.json, `${path}: the cart count`);
    assert.equal(answers['/api/user/base'][1].data.username, 'demo', path);
    // Asked with the ETag of the built file, the page is still written anew.
    const again = await member.get(path, { headers: { ...NAVIGATION, 'if-none-match': page.headers.get('etag') ?? '"x"' } });
    assert.equal(again.status, 200, path);
  }
  const detail = firstAnswers(await member.get('/list/info/12', { headers: NAVIGATION }));
  assert.deepEqual(detail['/api/goods/detail/12'][1], (await member.get('/api/goods/detail/12')).json);
  // A visitor's page carries a visitor's answers.
  const seen = firstAnswers(await visitor.get('/', { headers: NAVIGATION }));
  assert.notEqual(seen['/api/user/base'][1].data?.username, 'demo');
  // A change is in the next page's answers, not an older one's.
  await member.post('/api/cart', { goods_id: 2, number: 1 });
  const after = firstAnswers(await member.get('/cart', { headers: NAVIGATION }));
  assert.deepEqual(after['/api/cart/total'][1], (await member.get('/api/cart/total')).json);
  assert.notDeepEqual(after['/api/cart/list'][1].data, undefined);
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
