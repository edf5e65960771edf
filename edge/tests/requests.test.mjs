// What a client cannot choose at the edge (the Worker in workerd in front of a real origin):
// its address (a client's own CF-Connecting-IP and X-Forwarded-For are not believed where the
// edge does not run on Cloudflare), the size of its body (refused with 413 by the edge, which
// keeps none of it, never a 5xx, whatever the origin does with it), the id its request is logged under
// (only a plain token is kept); and the headers every answer carries.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { startStack, Client } from '../../scripts/lib/stack.mjs';

const NOSNIFF = 'nosniff';
let stack;

before(async () => {
  stack = await startStack();
});

after(async () => {
  await stack?.stop();
});

/** The addresses the origin's per-address count of page views has seen. */
function countedAddresses(on) {
  return on
    .sql("SELECT key FROM rate_limits WHERE key LIKE 'stat-address:%' ORDER BY key")
    .map(([key]) => key.slice('stat-address:'.length));
}

/** A page view sent with a client's own address headers. */
async function pageViewFrom(base, address) {
  const answer = await new Client(base).post(
    '/api/stat/page_view',
    { path: '/', route: 'home' },
    {
      headers: {
        'cf-connecting-ip': address,
        'x-forwarded-for': '192.0.2.1',
        'x-real-ip': '192.0.2.2',
      },
    },
  );
  assert.equal(answer.status, 200, answer.text);
}

test("locally a client's own CF-Connecting-IP is not its address", async () => {
  for (const address of ['198.51.100.23', '198.51.100.24', '2001:db8::5']) await pageViewFrom(stack.edge, address);
  // The origin counted every one under the edge's own address (the connection it saw), not
  // under any address the client wrote.
  const counted = countedAddresses(stack);
  assert.deepEqual(counted, ['127.0.0.1'], `counted under ${counted}`);
});

test('on Cloudflare (TRUST_CF_CONNECTING_IP=1) CF-Connecting-IP is the address, and the client’s list is not', async () => {
  const cloudflare = await startStack({
    edgeVars: { TRUST_CF_CONNECTING_IP: '1' },
  });
  try {
    await pageViewFrom(cloudflare.edge, '198.51.100.23');
    assert.deepEqual(countedAddresses(cloudflare), ['198.51.100.23']);
  } finally {
    await cloudflare.stop();
  }
});

/**
 * A POST of `size` bytes to the edge's `path`, announced (Content-Length) unless `chunked`.
 * Answers `{ status, headers, json, text }`.
 */
function post(path, size, { chunked = false, contentType = 'application/x-www-form-urlencoded' } = {}) {
  const url = new URL(stack.edge + path);
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': contentType };
    if (!chunked) headers['content-length'] = String(size);
    const sent = httpRequest(url, { method: 'POST', headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let json = null;
        try {
          json = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({
          status: response.statusCode,
          headers: response.headers,
          json,
          text,
        });
        sent.destroy();
      });
    });
    sent.on('error', reject);
    const chunk = Buffer.alloc(16 * 1024, 'a');
    let left = size;
    const write = () => {
      while (left > 0) {
        const part = chunk.subarray(0, Math.min(left, chunk.length));
        left -= part.length;
        if (!sent.write(part)) return sent.once('drain', write);
      }
      sent.end();
    };
    write();
  });
}

function tooLarge(answer, what) {
  assert.equal(answer.status, 413, `${what}: ${answer.text}`);
  assert.deepEqual(answer.json, { code: 413, msg: '请求内容过大', data: null }, what);
  assert.equal(answer.headers['x-request-id'], undefined, `${what}: answered by the edge, the origin never saw it`);
  assert.equal(answer.headers['x-content-type-options'], NOSNIFF, what);
}

test('a body larger than its call allows is refused by the edge, which keeps none of it', async () => {
  // Announced: 50 MB to an order, a checkout or any other form. (Locally wrangler dev takes the
  // whole body before the Worker runs; on Cloudflare the Worker answers on the header alone.)
  for (const path of ['/api/order', '/api/cart/checkout', '/api/cart']) {
    tooLarge(await post(path, 50 * 1024 * 1024), `announced, ${path}`);
  }
  // Not announced (chunked): read up to the limit, then refused.
  tooLarge(await post('/api/order', 200 * 1024, { chunked: true }), 'chunked order');
  tooLarge(await post('/api/user/login', 64 * 1024 + 1), 'one byte over 64 KiB');
  // An upload may be larger than a form, up to its own limit.
  tooLarge(
    await post('/api/user/feedback', 31 * 1024 * 1024, {
      contentType: 'multipart/form-data; boundary=x',
    }),
    'upload',
  );
});

test('bodies within their limits get the answers of the calls, never a 5xx', async () => {
  // The origin answers these before reading the body (not logged in: 10001): the edge has
  // read it whole first, so the answer is never lost to a connection cut mid-body.
  for (let round = 0; round < 3; round++) {
    for (const size of [8 * 1024, 9000, 32 * 1024, 60 * 1024, 64 * 1024]) {
      for (const path of ['/api/cart', '/api/user/address', '/api/favorite']) {
        const answer = await post(path, size);
        assert.ok(answer.status < 500, `${size} bytes to ${path}: ${answer.status} ${answer.text}`);
        assert.equal(answer.json?.code, 10001, `${size} bytes to ${path}: ${answer.text}`);
      }
    }
  }
  // A checkout preview and an order of 60 KB: the edge reads the form and refuses it itself.
  for (const path of ['/api/cart/checkout', '/api/order']) {
    const answer = await post(path, 60 * 1024, { chunked: true });
    assert.equal(answer.status, 422, `${path}: ${answer.text}`);
  }
  // An upload of 1 MB, chunked: past the form limit, within the upload limit.
  const upload = await post('/api/user/feedback', 1024 * 1024, {
    chunked: true,
    contentType: 'multipart/form-data; boundary=x',
  });
  assert.ok(upload.status < 500 && upload.status !== 413, `${upload.status} ${upload.text}`);
});

test('only a plain X-Request-Id is kept', async () => {
  const client = new Client(stack.edge);
  const plain = await client.get('/api/user/base', {
    headers: { 'x-request-id': 'Plain-Token-0123' },
  });
  assert.equal(plain.headers.get('x-request-id'), 'Plain-Token-0123');
  for (const bad of ['has_underscore', 'has space', 'x'.repeat(65), 'ansi%1B[31m']) {
    const answer = await client.get('/api/user/base', {
      headers: { 'x-request-id': bad },
    });
    const id = answer.headers.get('x-request-id');
    assert.notEqual(id, bad);
    assert.match(id, /^[A-Za-z0-9-]{1,64}$/, `${bad} became ${id}`);
  }
});

test('every answer says nosniff; pages carry their policy', async () => {
  const client = new Client(stack.edge);
  const answers = {
    'a forwarded call': await client.get('/api/user/base'),
    'a cached read': await client.get('/api/index'),
    "the edge's refusal": await client.post('/api/cart/checkout', { ids: '' }),
    'a missing hashed file': await client.get('/assets/missing-00000000.js'),
    'a client route': await client.get('/cart'),
    'the home page': await client.get('/'),
  };
  for (const [what, answer] of Object.entries(answers)) {
    assert.equal(answer.headers.get('x-content-type-options'), NOSNIFF, what);
  }
  for (const what of ['a client route', 'the home page']) {
    const policy = answers[what].headers.get('content-security-policy') ?? '';
    assert.match(policy, /script-src 'self' 'wasm-unsafe-eval'/, what);
    assert.match(policy, /frame-ancestors 'none'/, what);
    assert.equal(answers[what].headers.get('referrer-policy'), 'strict-origin-when-cross-origin', what);
  }
});
