// The zones in Chromium, through the edge: each opens with its own goods, sorting, paging and
// right-hand ad; what a zone shows is what the cart charges.
import { expect, test } from '@playwright/test';
import { admin, adminAs, base, fillCart, keepAccounts, login, sql } from './support';

test('the herb, device, everyday and near-expiry zones list their own goods', async ({ page }) => {
  await page.goto(`${base()}/zyyp`);
  await expect(page).toHaveTitle('中药专区 - 医药批发商城');
  const herbs = sql('SELECT COUNT(*) FROM goods WHERE type = 2')[0][0] as number;
  await expect(page.getByText(`共 ${herbs} 件商品`)).toBeVisible();
  await expect(page.getByLabel('专区广告').getByRole('img')).toHaveAttribute('alt', '道地药材产地直供');
  const [[herb]] = sql('SELECT name FROM goods WHERE type = 2 ORDER BY sales DESC, id ASC LIMIT 1') as [[string]];
  await page.getByText('销量', { exact: true }).click();
  await expect(page.getByTestId('zone-goods').locator('.goods-card').first()).toContainText(herb);

  await page.goto(`${base()}/qxzq`);
  await expect(page).toHaveTitle('器械专区 - 医药批发商城');
  const devices = sql('SELECT COUNT(*) FROM goods WHERE type = 3')[0][0] as number;
  await expect(page.getByText(`共 ${devices} 件商品`)).toBeVisible();

  await page.goto(`${base()}/mrtj`);
  await expect(page).toHaveTitle('天天特价 - 医药批发商城');
  const specials = sql('SELECT COUNT(*) FROM everyday_specials')[0][0] as number;
  await expect(page.getByText(`共 ${specials} 件商品`)).toBeVisible();

  // Near-expiry: only batches within 180 days, earliest first, the date on every card.
  await page.goto(`${base()}/jxqzc`);
  await expect(page).toHaveTitle('近效期专区 - 医药批发商城');
  const dates = sql(
    "SELECT expires_on FROM goods WHERE expires_on >= date('now', '+8 hours') AND expires_on <= date('now', '+8 hours', '+180 days') ORDER BY expires_on, id",
  ).map(([date]) => `效期至：${date as string}`);
  expect(dates.length).toBeGreaterThanOrEqual(10);
  await expect(page.getByTestId('goods-expiry')).toHaveText(dates);
});

test('the free-shipping zone shows the threshold, its table view and its rules page without header or footer', async ({ page }) => {
  await page.goto(`${base()}/yx`);
  await expect(page).toHaveTitle('包邮专区 - 医药批发商城');
  await expect(page.locator('.promotion-banner')).toContainText('订单满¥800.00包邮');
  const preferred = sql('SELECT COUNT(*) FROM goods WHERE is_youx = 1')[0][0] as number;
  await expect(page.getByText(`共 ${preferred} 件商品`)).toBeVisible();
  await page.getByRole('link', { name: '列表' }).click();
  await expect(page).toHaveURL(/\/yx\/table$/);
  await expect(page.getByRole('columnheader', { name: '生产厂家' })).toBeVisible();
  await page.getByRole('link', { name: '包邮规则' }).first().click();
  await expect(page).toHaveURL(/\/yx\/rule$/);
  await expect(page.getByTestId('yx-rule')).toContainText('满¥800.00');
  await expect(page.locator('.footer')).toHaveCount(0);
  await expect(page.locator('.top-bar')).toHaveCount(0);
});

test('the brand zone pages its brands, and a brand lists its goods at the price the cart charges', async ({ page }) => {
  await login(page);
  await fillCart(page, []);
  await page.goto(`${base()}/ppzq`);
  await expect(page).toHaveTitle('品牌专区 - 医药批发商城');
  const [[brand, name, count]] = sql(
    'SELECT b.id, b.name, (SELECT COUNT(*) FROM goods g WHERE g.brand_id = b.id) FROM brands b ORDER BY b.sort, b.id LIMIT 1',
  ) as [[number, string, number]];
  const tile = page.getByTestId('brands').getByRole('link').first();
  await expect(tile).toContainText(name);
  await expect(tile).toContainText(`${count} 种商品`);
  await tile.click();
  await expect(page).toHaveURL(new RegExp(`/ppzq/info/${brand}$`));
  await expect(page.getByTestId('brand-head')).toContainText(name);
  await expect(page.getByText(`共 ${count} 件商品`)).toBeVisible();

  // The card's price is the cart's: add one unit and compare with the server's quote.
  const card = page.getByTestId('zone-goods').locator('.goods-card').first();
  const shown = (await card.locator('.price').first().textContent())!.trim();
  await card.getByRole('button', { name: /加入购物车|加入采购单/ }).click();
  await expect.poll(async () => (await (await page.request.get(`${base()}/api/cart/list`)).json()).data.data.length).toBe(1);
  const quote = (await (await page.request.get(`${base()}/api/cart/list`)).json()).data.quote;
  expect(`¥${quote.lines[0].unit_price}`).toBe(shown);
  await fillCart(page, []);

  // /ppzq/info/{id}/{page}: the page in the address is the list's page, and paging moves it.
  const asked = (number: number) =>
    page.waitForRequest(
      (request) =>
        /\/api\/goods\/list\?/.test(request.url()) && request.url().includes(`brand=${brand}`) && request.url().includes(`page=${number}&`),
    );
  const second = asked(2);
  await page.goto(`${base()}/ppzq/info/${brand}/2`);
  await second;
  await expect(page.getByTestId('brand-head')).toContainText(name);
});

test('全场94折: the operator starts it, every card and the cart charge the discounted price, and it ends', async ({ page }) => {
  await login(page);
  await fillCart(page, []);
  await page.goto(`${base()}/welfare`);
  await expect(page.getByText('活动未开始')).toBeVisible();

  expect(admin('welfare', '--rate', '0.94', '--days', '1')).toContain('9.4折');
  await page.reload();
  await expect(page.locator('.promotion-banner h1')).toHaveText('全场9.4折');
  await expect(page.getByTestId('welfare-intro')).toContainText('距结束');
  const card = page
    .getByTestId('zone-goods')
    .locator('.goods-card')
    .filter({ has: page.locator('del') })
    .first();
  await expect(card.locator('.goods-card-tags')).toContainText('折');
  const shown = (await card.locator('.price').first().textContent())!.trim();
  const listed = (await card.locator('del').textContent())!.trim();
  expect(shown).not.toBe(listed);
  await card.getByRole('button', { name: '加入购物车' }).click();
  await expect.poll(async () => (await (await page.request.get(`${base()}/api/cart/list`)).json()).data.data.length).toBe(1);
  // The cart page quotes in the browser's engine what the card showed, and so does the origin.
  await page.goto(`${base()}/cart`);
  await expect(page.getByTestId('cart-row')).toContainText(shown);
  const quote = (await (await page.request.get(`${base()}/api/cart/list`)).json()).data.quote;
  expect(`¥${quote.lines[0].unit_price}`).toBe(shown);
  await fillCart(page, []);

  expect(admin('welfare', '--off')).toContain('ended 1');
  await page.goto(`${base()}/welfare`);
  await expect(page.getByText('活动未开始')).toBeVisible();
});

test('满额返现: an order over the first tier completes and its cash back reaches the balance', async ({ page }) => {
  sql('UPDATE cashback_activities SET is_on = 1');
  try {
    await login(page);
    await page.goto(`${base()}/hb`);
    await expect(page).toHaveTitle('满额返现 - 医药批发商城');
    const tiers = page.getByTestId('cashback-tiers');
    await expect(tiers).toContainText('¥1000.00');
    await expect(tiers).toContainText('¥20.00');

    // Enough units of one plain goods for more than 1000.00 (no ladder, sale or 满减 to lower it).
    const [[member]] = sql("SELECT id FROM members WHERE username = 'demo'") as [[number]];
    // Above ¥1,000.00 a balance gift waits for a second operator.
    const asked = admin('grant', 'balance', '--member', String(member), '--amount', '2000.00', '--note', '对公转账');
    const request = asked.match(/request (\d+) waits/)![1];
    expect(adminAs('e2e-finance', 'decide-balance', request, '--approve')).toContain('审批通过余额¥2000.00');
    const [[goods, number]] = sql(
      'SELECT g.id, 11000000 / g.price + 1 FROM goods g WHERE g.is_buy = 1 AND g.stock > 2000 AND g.manjian_id = 0 AND g.price BETWEEN 100000 AND 500000 AND NOT EXISTS (SELECT 1 FROM goods_ladders l WHERE l.goods_id = g.id) AND g.id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY g.id LIMIT 1',
    ) as [[number, number]];
    await fillCart(page, [[goods, number]]);
    await page.goto(`${base()}/cart`);
    await page.getByRole('button', { name: '去结算' }).click();
    await expect(page).toHaveURL(/\/cart\/step2$/);
    await keepAccounts(page);
    await page.getByRole('button', { name: '提交订单' }).click();
    await expect(page).toHaveURL(/\/cart\/step3\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('button', { name: '确认支付' }).click();
    await expect(page).toHaveURL(/\/cart\/step4\?id=\d+$/);

    expect(admin('ship', String(id), '--carrier', '顺丰速运', '--tracking', 'SF2026112601')).toContain('shipped');
    await page.goto(`${base()}/order/info/${id}`);
    await page.getByRole('button', { name: '确认收货' }).click();
    await page.getByRole('button', { name: /确\s?定/ }).click();
    await expect(page.getByTestId('order-status')).toHaveText('已完成');

    const [[orderNo]] = sql('SELECT order_no FROM orders WHERE id = ?', id) as [[string]];
    await page.goto(`${base()}/hb`);
    const mine = page.getByTestId('cashback-orders');
    await expect(mine).toContainText(orderNo);
    await expect(mine).toContainText('¥20.00');
    await page.goto(`${base()}/wdqb/yegl`);
    await expect(page.getByText(`订单${orderNo}满额返现`)).toBeVisible();
  } finally {
    sql('UPDATE cashback_activities SET is_on = 0');
  }
});

test('the herb zone shows the herb categories, and a combination goes into the cart at its price', async ({ page }) => {
  await page.goto(`${base()}/zyyp`);
  await expect(page.getByTestId('menu-title')).toHaveText('中药饮片分类');
  await page.getByTestId('menu-title').hover();
  const [[herbTop]] = sql("SELECT name FROM categories WHERE parent_id IS NULL AND shop = 'zy' ORDER BY sort, id LIMIT 1") as [[string]];
  await expect(page.locator('.category-top').getByText(herbTop)).toBeVisible();
  await page.goto(`${base()}/`);
  await expect(page.getByTestId('menu-title')).toHaveText('全部商品分类');

  await login(page);
  await fillCart(page, []);
  await page.goto(`${base()}/zhzq`);
  await expect(page).toHaveTitle('组合购 - 医药批发商城');
  await expect(page.locator('.nav-items')).toHaveCount(0);
  const set = page.getByTestId('combination-set').first();
  const price = (await set.locator('.price.big').textContent())!.trim();
  await set.getByRole('button', { name: '加入购物车' }).click();
  await expect.poll(async () => (await (await page.request.get(`${base()}/api/cart/list`)).json()).data.data.length).toBe(1);
  const quote = (await (await page.request.get(`${base()}/api/cart/list`)).json()).data.quote;
  expect([`¥${quote.lines[0].unit_price}`, quote.lines[0].price_kind]).toEqual([price, 'combination']);
  await page.goto(`${base()}/cart`);
  await expect(page.getByTestId('cart-row')).toContainText('组合价');
  await fillCart(page, []);
});

test('控销专区: a member applies, the operator approves, and only then its goods go into the cart', async ({ page }) => {
  await login(page);
  await fillCart(page, []);
  const [[member]] = sql("SELECT id FROM members WHERE username = 'demo'") as [[number]];
  sql('DELETE FROM kx_members WHERE member_id = ?', member);
  try {
    await page.goto(`${base()}/kxzq`);
    await expect(page).toHaveTitle('控销专区 - 医药批发商城');
    await expect(page.getByTestId('kx-standing')).toContainText('请先申请控销资格');
    await expect(page.getByTestId('kx-ads')).toContainText('心脑血管控销 区域保护');
    const controlled = sql('SELECT COUNT(*) FROM goods WHERE is_kx = 1')[0][0] as number;
    await expect(page.getByText(`共 ${controlled} 件商品`)).toBeVisible();
    const card = page.getByTestId('zone-goods').locator('.goods-card').first();
    await card.getByRole('button', { name: '加入购物车' }).click();
    await expect(page.getByRole('dialog')).toContainText('控销品种仅限审核通过的会员采购');
    await page.getByRole('button', { name: /确\s?定/ }).click();

    await page.getByRole('button', { name: '申请控销资格' }).click();
    await expect(page.getByTestId('kx-standing')).toContainText('正在审核中');
    expect(admin('approve-kx', String(member))).toContain('已通过');
    await page.reload();
    await expect(page.getByTestId('kx-standing')).toContainText('您已获得控销品种采购资格');
    await page.getByTestId('zone-goods').locator('.goods-card').first().getByRole('button', { name: '加入购物车' }).click();
    await expect.poll(async () => (await (await page.request.get(`${base()}/api/cart/list`)).json()).data.data.length).toBe(1);

    // A programme with its ad on top; the new goods.
    await page.getByRole('link', { name: /心脑血管控销 区域保护/ }).click();
    await expect(page).toHaveURL(/\/kxzq\/goods\/xnxg\/1$/);
    await expect(page.locator('.promotion-banner h1')).toHaveText('心脑血管控销品种');
    await page.goto(`${base()}/kxzq/new`);
    const fresh = sql("SELECT COUNT(*) FROM goods WHERE is_kx = 1 AND kx_listed_at > strftime('%s', 'now') - 30 * 86400")[0][0] as number;
    await expect(page.getByTestId('zone-goods').locator('.goods-card')).toHaveCount(fresh);
  } finally {
    sql(
      'INSERT INTO kx_members (member_id, status, created_at, reviewed_at) VALUES (?, 1, 0, 0) ON CONFLICT (member_id) DO UPDATE SET status = 1',
      member,
    );
    await fillCart(page, []);
  }
});
