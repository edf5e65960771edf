// The edge in workerd in front of two origins on one database: it spreads requests over them,
// and once one is killed (SIGKILL) it sends reads and keyed orders on to the other and stops
// sending to the dead one; every request carries a request id from the edge to the origin and
// back.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, Client } from '../../scripts/lib/stack.mjs';

let stack;

before(async () => {
  stack = await startStack({ cacheTtl: 0, origins: 2 });
});

after(async () => {
  await stack?.stop();
});

/** How many `GET route` requests origin `n` answered with 200 (its Prometheus counter). */
async function answered(n, route) {
  const text = await (await fetch(`${stack.origins[n]}/metrics`)).text();
  const line = text.split('\n').find((row) => row.startsWith(`http_requests_total{method="GET",route="${route}",status="200"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

test('requests are spread over the origins, and a dead one is passed over', async () => {
  const client = new Client(stack.edge);
  // The stack's start asked once already.
  const [first0, second0] = [await answered(0, '/api/goods/hot'), await answered(1, '/api/goods/hot')];
  for (let n = 0; n < 20; n++) assert.equal((await client.get('/api/goods/hot')).status, 200);
  const [first, second] = [(await answered(0, '/api/goods/hot')) - first0, (await answered(1, '/api/goods/hot')) - second0];
  assert.equal(first + second, 20);
  assert.ok(first >= 5 && second >= 5, `both origins answer: ${first} and ${second}`);

  await stack.killOrigin(1);
  // Every read is answered: the one that meets the dead origin goes on to the live one.
  for (let n = 0; n < 20; n++) {
    const answer = await client.get('/api/goods/hot');
    assert.equal(answer.status, 200, answer.text);
  }
  assert.equal(await answered(0, '/api/goods/hot'), first0 + first + 20);
  // Writes without a key are not sent twice, but the dead origin rests: they reach the live one.
  for (let n = 0; n < 5; n++) {
    const login = await new Client(stack.edge).post('/api/user/login', {
      username: 'demo',
      password: 'demo123',
    });
    assert.equal(login.status, 200, login.text);
  }
});

test('a request id goes from the edge to the origin and back', async () => {
  const client = new Client(stack.edge);
  const given = await client.get('/api/goods/hot', {
    headers: { 'x-request-id': 'buyer-trace-42' },
  });
  assert.equal(given.headers.get('x-request-id'), 'buyer-trace-42');
  const made = await client.get('/api/goods/hot');
  assert.match(made.headers.get('x-request-id') ?? '', /^[0-9a-f]+-[0-9a-f]{16}$/);
  const odd = await client.get('/api/goods/hot', {
    headers: { 'x-request-id': 'no spaces <allowed>' },
  });
  assert.match(odd.headers.get('x-request-id') ?? '', /^[0-9a-f]+-[0-9a-f]{16}$/);
});
