// The edge in workerd (wrangler dev) in front of a real origin on a fresh SQLite database:
// forwarding with cookies both ways, the cache of public GETs, the web app, and checkout —
// what passes, what the edge refuses before the origin sees it, and the origin refusing every
// request that did not come through the edge, and an order the edge did not check.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { startStack, Client, edgeProof } from '../../scripts/lib/stack.mjs';

let stack;

/** A GET with no Accept-Encoding at all (fetch always sends one): `{ headers, body }`. */
function bareGet(url, cookie) {
  return new Promise((resolve, reject) => {
    get(url, { headers: cookie ? { cookie } : {} }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks).toString() }));
    }).on('error', reject);
  });
}

before(async () => {
  stack = await startStack({ cacheTtl: 60 });
});

after(async () => {
  await stack?.stop();
});

/** Empties the member's cart and puts `number` of each goods in it; answers the cart list. */
async function fillCart(client, goods) {
  const list = await client.get('/api/cart/list');
  const ids = list.json.data.data.map((line) => line.id);
  if (ids.length) assert.equal((await client.post('/api/cart/batch_delete', { ids: ids.join(',') })).status, 200);
  for (const [id, number] of goods) {
    const added = await client.post('/api/cart', { goods_id: id, number });
    assert.equal(added.status, 200, added.text);
  }
  const filled = await client.get('/api/cart/list');
  assert.equal(filled.status, 200);
  return filled.json.data;
}

/** Goods that can be bought in quantity, from the catalogue. */
async function buyableGoods(client, count) {
  const list = await client.get('/api/goods/list?page_size=100');
  const goods = list.json.data.list.filter((item) => item.is_buy === 1 && item.number >= 50);
  assert.ok(goods.length >= count, 'the demo catalogue has goods to buy');
  return goods.slice(0, count).map((item) => item.id);
}

async function orderCount(client) {
  const orders = await client.get('/api/order');
  assert.equal(orders.status, 200, orders.text);
  return orders.json.data.total;
}

/** Answered by the edge itself: the origin marks each of its answers with a request id. */
function answeredByEdge(answer) {
  return !answer.headers.has('x-request-id');
}

test('a proxied call round-trips cookies, status and headers', async () => {
  const client = new Client(stack.edge);
  const visitor = await client.get('/api/user/base');
  assert.equal(visitor.json.data.login, false, 'a visitor is not logged in');
  assert.ok(visitor.headers.has('x-request-id'), 'the origin answered through the edge');
  assert.equal((await client.get('/api/cart/list')).json.code, 10001, 'a visitor is asked to log in');

  const login = await client.login();
  assert.equal(login.json.code, 10000);
  const setCookie = login.headers.getSetCookie().join('\n');
  assert.match(setCookie, /sid=[^;]+;/);
  assert.match(setCookie, /HttpOnly/i);
  const member = await client.get('/api/user/base');
  assert.equal(member.status, 200);
  assert.equal(member.json.code, 10000);
  assert.equal(member.json.data.login, true, 'the session cookie reached the origin');
  assert.equal(member.json.data.username, 'demo');

  const missing = await client.get('/api/goods/detail/99999999?from=edge');
  assert.equal(missing.status, 404, "the origin's status passes unchanged");
  assert.equal(missing.json.code, 404);

  const logout = await client.request('DELETE', '/api/user/logout');
  assert.equal(logout.status, 200);
  assert.equal((await client.get('/api/user/base')).json.data.login, false, 'the cleared cookie came back through the edge');
});

test("the origin sees the browser's host: same-site posts pass, cross-site posts are refused", async () => {
  const client = new Client(stack.edge);
  const sameSite = await client.post('/api/user/login', { username: 'demo', password: 'demo123' }, { headers: { origin: stack.edge } });
  assert.equal(sameSite.status, 200, sameSite.text);
  const crossSite = await client.post(
    '/api/user/login',
    { username: 'demo', password: 'demo123' },
    { headers: { origin: 'http://evil.example' } },
  );
  assert.equal(crossSite.status, 403);
});

test('public GETs are cached at the edge, member data never', async () => {
  const client = new Client(stack.edge);
  await client.login();
  const first = await client.get('/api/global/links?probe=1');
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('x-edge-cache'), 'MISS');
  const second = await new Client(stack.edge).get('/api/global/links?probe=1');
  assert.equal(second.headers.get('x-edge-cache'), 'HIT');
  assert.deepEqual(second.json, first.json, "the cached answer is the origin's");

  // The home data's server clock is the time now even when the rest comes from the cache.
  const home = await client.get('/api/index');
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const homeAgain = await client.get('/api/index');
  assert.equal(homeAgain.headers.get('x-edge-cache'), 'HIT');
  assert.ok(homeAgain.json.data.timestamp > home.json.data.timestamp, 'the clock moved on');
  assert.deepEqual(homeAgain.json.data.nav, home.json.data.nav);
  assert.equal(homeAgain.headers.get('cache-control'), null, 'browsers are not told to keep it');

  // Pictures: the browser keeps them as long as the origin says, from the cache as from the origin.
  const picture = await client.get('/api/images/goods/1.svg');
  const pictureAgain = await client.get('/api/images/goods/1.svg');
  assert.equal(pictureAgain.headers.get('x-edge-cache'), 'HIT');
  for (const answer of [picture, pictureAgain]) assert.equal(answer.headers.get('cache-control'), 'public, max-age=86400');
  assert.equal(pictureAgain.headers.get('x-edge-browser-cache-control'), null, 'the kept header stays inside');

  // Compressed only for clients that accept it, from the origin and from the cache alike; a
  // client that sends no Accept-Encoding at all (curl, say) gets plain JSON, even though
  // wrangler dev hands the Worker an Accept-Encoding of its own.
  for (const path of ['/api/goods/hot', '/api/goods/hot', '/api/goods/list?page_size=2', '/api/cart/total']) {
    const bare = await bareGet(stack.edge + path, client.cookieHeader());
    assert.equal(bare.headers['content-encoding'], undefined, path);
    assert.equal(JSON.parse(bare.body).code, 10000, path);
  }
  for (const path of ['/api/goods/hot', '/api/goods/hot', '/api/goods/list?page_size=2']) {
    const plain = await client.get(path, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.headers.get('content-encoding'), null, path);
    assert.equal(plain.json.code, 10000, path);
    const zipped = await client.get(path, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(zipped.headers.get('content-encoding'), 'gzip', path);
    assert.deepEqual(zipped.json, plain.json, path);
  }

  for (const path of ['/api/focus', '/api/focus/right', '/api/category', '/api/article/category', '/api/goods/hot']) {
    await client.get(path);
    const again = await client.get(path);
    assert.equal(again.headers.get('x-edge-cache'), 'HIT', path);
    assert.equal(again.json.code, 10000, path);
  }
  for (const path of ['/api/user/base', '/api/cart/list', '/api/cart/total']) {
    await client.get(path);
    const again = await client.get(path);
    assert.equal(again.headers.get('x-edge-cache'), null, path);
    assert.ok(again.headers.has('x-request-id'), `${path} always comes from the origin`);
  }
  // A visitor after the member: the member's answers were not kept.
  assert.equal((await new Client(stack.edge).get('/api/user/base')).json.data.login, false);
});

test('everything that is not /api is the web app, with client routes falling back to index.html', async () => {
  const client = new Client(stack.edge);
  const home = await client.get('/');
  assert.equal(home.status, 200);
  assert.match(home.headers.get('content-type'), /text\/html/);
  assert.match(home.text, /医药批发商城/);
  for (const path of ['/cart_step1', '/list/info/12']) {
    const page = await client.get(path, { headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate' } });
    assert.equal(page.status, 200, path);
    // The app's index.html, with the page's first answers written in (src/entry.mjs; tests/assets.test.mjs).
    assert.equal(
      page.text
        .replace(/<script type="application\/json" id="shop-first-answers">[^]*?<\/script>/, '')
        .replace('<meta name="shop-first-answers" content="coming">', ''),
      home.text,
      `${path} is the app's index.html`,
    );
  }
});

test('a valid checkout and order go through, and the edge quotes what the origin quotes', async () => {
  const client = new Client(stack.edge);
  await client.login();
  const [first, second, third] = await buyableGoods(client, 3);
  const cart = await fillCart(client, [
    [first, 12],
    [second, 3],
    [third, 1],
  ]);
  const ids = cart.data.map((line) => line.id).join(',');
  const payable = cart.quote.totals.payable;
  const before = await orderCount(client);

  const preview = await client.post('/api/cart/checkout', { ids, new: 1, expected_payable: payable });
  assert.equal(preview.status, 200, preview.text);
  const { lines, ...summary } = cart.quote;
  assert.equal(lines.length, 3);
  assert.ok(
    summary.totals && summary.counts && summary.manjian_tiers && summary.shipping,
    "cart/list's quote has its summary beside its lines",
  );
  const { due, ...edgeSummary } = JSON.parse(preview.headers.get('x-edge-quote'));
  assert.deepEqual(edgeSummary, summary, "the edge's quote equals cart/list's");
  const { settlement, ...previewQuote } = preview.json.data.quote;
  assert.deepEqual(previewQuote, cart.quote, "and the origin's preview quote");
  assert.equal(due, settlement.due, 'the edge settles to the amount due the origin settles to');
  const address = preview.json.data.addresses[0].id;

  const key = `edge-order-${Date.now()}`;
  const placed = await client.post(
    '/api/order',
    { ids, address_id: address, expected_payable: payable, remark: '边缘校验' },
    { headers: { 'idempotency-key': key } },
  );
  assert.equal(placed.status, 200, placed.text);
  assert.equal(placed.json.code, 10000);
  assert.equal(await orderCount(client), before + 1);
  const again = await client.post(
    '/api/order',
    { ids, address_id: address, expected_payable: payable, remark: '边缘校验' },
    { headers: { 'idempotency-key': key } },
  );
  assert.equal(again.status, 200, 'a retry of a placed order (its lines have left the cart) is not refused');
  assert.deepEqual(again.json, placed.json, 'the same key answers the first order');
  const reused = await client.post(
    '/api/order',
    { ids, address_id: address, expected_payable: payable, remark: '另一单' },
    { headers: { 'idempotency-key': key } },
  );
  assert.equal(reused.status, 422);
  assert.equal(reused.json.msg, '该幂等键已用于其他请求');
  assert.equal(await orderCount(client), before + 1);
  assert.equal((await client.get('/api/cart/list')).json.data.data.length, 0, 'the ordered lines left the cart');
});

test('bad checkouts and orders are refused at the edge with 422 and never reach the origin', async () => {
  const client = new Client(stack.edge);
  await client.login();
  const other = new Client(stack.edge);
  const [hash] = stack.sql("SELECT password_hash FROM members WHERE username = 'demo'")[0];
  // Another pharmacy, approved like the demo one (its business scope holds every class).
  stack.sql(
    "INSERT INTO members (username, phone, password_hash, company, name, is_passed, created_at) VALUES ('edge_other', '13900002222', ?, '别家药房', '王五', 1, 0)",
    hash,
  );
  stack.sql(
    "INSERT INTO member_scopes (member_id, class) SELECT (SELECT id FROM members WHERE username = 'edge_other'), class FROM member_scopes WHERE member_id = (SELECT id FROM members WHERE username = 'demo')",
  );
  await other.login('edge_other', 'demo123');

  const [plain, unbuyable, scarce, foreign] = await buyableGoods(client, 4);
  const otherCart = await fillCart(other, [[foreign, 1]]);
  const foreignLine = otherCart.data[0].id;
  // A goods of a class the others are not of: the demo member's business scope loses that class
  // once it is in the cart (docs/compliance.md), and gets it back at the end.
  const [[outside, outsideClass]] = stack.sql(
    'SELECT id, scope_class FROM goods WHERE is_buy = 1 AND is_kx = 0 AND stock >= 10 AND scope_class NOT IN (SELECT scope_class FROM goods WHERE id IN (?, ?, ?)) AND scope_class IN (1, 2, 3, 4, 5, 6, 8, 9, 10, 11) AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1',
    plain,
    unbuyable,
    scarce,
  );
  const cart = await fillCart(client, [
    [plain, 2],
    [unbuyable, 1],
    [scarce, 5],
    [outside, 1],
  ]);
  const line = (goods) => cart.data.find((item) => item.goods.id === goods).id;
  const plainLine = line(plain);

  stack.sql('UPDATE goods SET is_buy = 0 WHERE id = ?', unbuyable);
  stack.sql('UPDATE goods SET stock = 2 WHERE id = ?', scarce);
  const demoId = stack.sql("SELECT id FROM members WHERE username = 'demo'")[0][0];
  stack.sql('DELETE FROM member_scopes WHERE member_id = ? AND class = ?', demoId, outsideClass);
  const address = stack.sql("SELECT a.id FROM addresses a JOIN members m ON m.id = a.member_id WHERE m.username = 'demo' LIMIT 1")[0][0];
  const ordersBefore = await orderCount(client);
  const cases = [
    ['a tampered expected_payable', { ids: plainLine, expected_payable: '0.01' }, 'expected_payable', '商品价格已变动，请刷新购物车后重试'],
    [
      "another member's cart line",
      { ids: `${plainLine},${foreignLine}`, expected_payable: '1.00' },
      'ids',
      '购物车中没有该商品，请刷新购物车后重试',
    ],
    ['a line that cannot be bought', { ids: line(unbuyable), expected_payable: '1.00' }, 'ids', '部分商品暂不可购买，请刷新购物车后重试'],
    [
      'a line outside the business scope',
      { ids: line(outside), expected_payable: '1.00' },
      'ids',
      '部分商品暂不可购买，请刷新购物车后重试',
    ],
    ['more than the stock', { ids: line(scarce), expected_payable: '1.00' }, 'ids', '部分商品库存不足，请修改数量后重试'],
    ['no expected payable', { ids: plainLine }, 'expected_payable', '缺少应付金额，请刷新购物车后重试'],
    ['nothing chosen', { ids: '', expected_payable: '1.00' }, 'ids', '请选择要结算的商品'],
  ];
  for (const [what, fields, field, message] of cases) {
    for (const path of ['/api/cart/checkout', '/api/order']) {
      const answer = await client.post(
        path,
        { ...fields, address_id: address },
        { headers: { 'idempotency-key': `bad-${Math.random()}` } },
      );
      assert.equal(answer.status, 422, `${what} at ${path}: ${answer.text}`);
      assert.equal(answer.json.code, 422);
      assert.equal(answer.json.msg, message, `${what} at ${path}`);
      assert.deepEqual(answer.json.data.errors[field], [message], `${what} at ${path}`);
      assert.ok(answeredByEdge(answer), `${what} at ${path} was answered by the edge, not the origin`);
    }
  }
  stack.sql('INSERT INTO member_scopes (member_id, class) VALUES (?, ?)', demoId, outsideClass);
  assert.equal(await orderCount(client), ordersBefore, 'no order was made');
  assert.equal(otherCart.data.length, 1);
  assert.equal((await other.get('/api/cart/list')).json.data.data.length, 1, "the other member's cart is untouched");

  const visitor = await new Client(stack.edge).post(
    '/api/order',
    { ids: plainLine, expected_payable: '1.00' },
    { headers: { 'idempotency-key': 'visitor' } },
  );
  assert.equal(visitor.status, 401, 'a visitor is sent to log in, as the origin says');
  assert.equal(visitor.json.code, 10001);
});

test('the origin answers the edge, and refuses the same request sent straight to it', async () => {
  const edge = new Client(stack.edge);
  const through = await edge.get('/api/user/base');
  assert.equal(through.status, 200, through.text);
  assert.ok(through.headers.has('x-request-id'), 'the origin answered through the edge');
  const login = await edge.login();
  assert.equal(login.json.data.login, true, 'a form posted through the edge is proved too');

  const direct = new Client(stack.origin);
  direct.cookies = new Map(edge.cookies);
  for (const [method, path] of [
    ['GET', '/api/user/base'],
    ['GET', '/api/goods/hot'],
  ]) {
    const answer = await direct.request(method, path);
    assert.equal(answer.status, 403, `${method} ${path}: ${answer.text}`);
    assert.deepEqual(answer.json, { code: 403, msg: '禁止直接访问源站', data: null });
  }
  const posted = await direct.post('/api/user/login', { username: 'demo', password: 'demo123' });
  assert.equal(posted.status, 403, posted.text);
  const now = Math.floor(Date.now() / 1000);
  for (const proof of [
    `${now}.${'ab'.repeat(32)}`,
    edgeProof('not the secret', 'GET', '/api/user/base'),
    edgeProof(stack.secret, 'GET', '/api/user/base', now - 600),
    edgeProof(stack.secret, 'GET', '/api/goods/hot'),
  ]) {
    const answer = await direct.get('/api/user/base', { headers: { 'x-edge-proof': proof } });
    assert.equal(answer.status, 403, `${proof}: ${answer.text}`);
  }
  const health = await new Client(stack.origin).get('/healthz');
  assert.equal(health.status, 200, 'the health check needs no proof');

  // A client's own proof stops at the edge, which sends its own.
  const smuggled = await edge.get('/api/user/base', { headers: { 'x-edge-proof': `${now}.${'ab'.repeat(32)}` } });
  assert.equal(smuggled.status, 200, smuggled.text);
  // The edge's proof is what the origin checks: with it, a client straight to the origin is answered.
  const proven = new Client(stack.origin, { proofSecret: stack.secret });
  proven.cookies = new Map(edge.cookies);
  assert.equal((await proven.get('/api/user/base')).json.data.login, true);
});

test("an order posted straight to the origin without the edge's check is refused", async () => {
  const edge = new Client(stack.edge);
  await edge.login();
  const [goods] = await buyableGoods(edge, 1);
  const cart = await fillCart(edge, [[goods, 2]]);
  const ids = String(cart.data[0].id);
  const payable = cart.quote.totals.payable;
  const address = stack.sql("SELECT a.id FROM addresses a JOIN members m ON m.id = a.member_id WHERE m.username = 'demo' LIMIT 1")[0][0];
  const before = await orderCount(edge);

  // Straight to the origin, with the edge's proof of the request but not its check of the order.
  const direct = new Client(stack.origin, { proofSecret: stack.secret });
  direct.cookies = new Map(edge.cookies);
  const fields = { ids, address_id: address, expected_payable: payable };
  const unproven = await new Client(stack.origin).post('/api/order', fields, { headers: { 'idempotency-key': 'direct-0' } });
  assert.equal(unproven.status, 403, unproven.text);
  const unsigned = await direct.post('/api/order', fields, { headers: { 'idempotency-key': 'direct-1' } });
  assert.equal(unsigned.status, 403, unsigned.text);
  assert.equal(unsigned.json.msg, '订单未经校验，请刷新购物车后重新提交');
  const forged = await direct.post('/api/order', fields, {
    headers: { 'idempotency-key': 'direct-2', 'x-edge-check': `${Math.floor(Date.now() / 1000)}.${'ab'.repeat(32)}` },
  });
  assert.equal(forged.status, 403);
  // A client cannot smuggle a check through the edge either: the edge drops it and signs its own.
  const smuggled = await edge.post(
    '/api/order',
    { ...fields, expected_payable: '0.01' },
    { headers: { 'idempotency-key': 'direct-3', 'x-edge-check': 'whatever' } },
  );
  assert.equal(smuggled.status, 422);
  assert.equal(await orderCount(edge), before, 'no order was made');

  const through = await edge.post('/api/order', fields, { headers: { 'idempotency-key': 'through-edge' } });
  assert.equal(through.status, 200, through.text);
  assert.equal(await orderCount(edge), before + 1);
});
