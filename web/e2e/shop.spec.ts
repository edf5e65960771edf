// The shop in Chromium, through the edge, as a buyer uses it.
import { expect, test, type Page, type Route } from '@playwright/test';
import { admin, base, fillCart, login, registerPhone, sql } from './support';

async function serverQuote(page: Page) {
  return (await (await page.request.get(`${base()}/api/cart/list`)).json()).data.quote;
}

const yuan = (value: string) => `¥${value}`;

test('a visitor browses home, searches with the keyboard, opens a list and a detail', async ({ page }, testInfo) => {
  await page.goto(base());
  await expect(page).toHaveTitle('首页 - 医药批发商城');
  await expect(page.getByRole('heading', { name: '限时秒杀' })).toBeVisible();
  await expect(page.getByTestId('spike-countdown')).toContainText('距结束');
  await expect(page.getByText('请登录')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('home.png'), fullPage: true });
  await testInfo.attach('home', { path: testInfo.outputPath('home.png'), contentType: 'image/png' });

  const box = page.getByLabel('搜索关键词');
  await box.fill('阿莫');
  const suggestions = page.getByRole('listbox', { name: '搜索建议' });
  await expect(suggestions.getByRole('option').first()).toBeVisible();
  const first = (await suggestions.getByRole('option').first().textContent())!;
  await box.press('ArrowDown');
  await expect(box).toHaveValue(first);
  const count = await suggestions.getByRole('option').count();
  for (let i = 0; i < count; i++) await box.press('ArrowDown');
  await expect(box).toHaveValue(first);
  await box.press('Escape');
  await expect(suggestions).toBeHidden();
  await box.focus();
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?keyword=/);
  await expect(page).toHaveTitle('搜索结果 - 医药批发商城');
  await expect(page.locator('.goods-card').first()).toContainText('阿莫西林');
  // Pinyin initials find what their characters find.
  await page.getByLabel('搜索关键词').fill('amxl');
  await expect(page.getByRole('listbox', { name: '搜索建议' }).getByRole('option').first()).toContainText('阿莫西林');
  await page.getByLabel('搜索关键词').press('Escape');
  // 厂家: the manufacturer's pinyin initials, Enter, and its goods.
  await page.getByRole('tab', { name: '厂家' }).click();
  await page.getByLabel('搜索关键词').fill('hbzy');
  await expect(page.getByRole('listbox', { name: '搜索建议' }).getByRole('option').first()).toHaveText('华北制药股份有限公司');
  await page.getByLabel('搜索关键词').press('Enter');
  await expect(page).toHaveURL(/\/search\?keyword=hbzy&type=1/);
  await expect(page.getByText('（生产厂家）')).toBeVisible();
  const makers = page.locator('.goods-card .goods-card-meta', { hasText: '厂家：' });
  await expect(makers.first()).toContainText('华北制药');
  for (const maker of await makers.allTextContents()) expect(maker).toContain('华北制药');

  await page.goto(`${base()}/list`);
  await expect(page.locator('.goods-card')).toHaveCount(20);
  await page.screenshot({ path: testInfo.outputPath('list.png') });
  await testInfo.attach('list', { path: testInfo.outputPath('list.png'), contentType: 'image/png' });
  await page.locator('.view-switch').getByText('列表').click();
  await expect(page).toHaveURL(/\/list\/table/);
  await expect(page.locator('.ant-table-row')).toHaveCount(20);
  // The list opens in the view chosen last: back to the cards for the rest of the walk.
  await page.locator('.view-switch').getByText('大图').click();
  await expect(page.locator('.goods-card')).toHaveCount(20);

  await page.goto(`${base()}/list?everyday=1`);
  await page.locator('.goods-card-name').first().click();
  await expect(page).toHaveURL(/\/list\/info\/\d+/);
  await expect(page).toHaveTitle('商品详情 - 医药批发商城');
  await expect(page.getByText('批准文号')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('detail.png') });
  await testInfo.attach('detail', { path: testInfo.outputPath('detail.png'), contentType: 'image/png' });

  await page.goto(`${base()}/no/such/page`);
  await expect(page).toHaveURL(/\/404$/);
});

test('a new member registers with the code the origin sent', async ({ page }) => {
  const phone = `139${String(Date.now()).slice(-8)}`;
  await page.goto(`${base()}/register`);
  await expect(page).toHaveURL(/\/register\/step1$/);
  await expect(page).toHaveTitle('注册会员 - 医药批发商城');
  await registerPhone(page, phone);
  const username = `shop${phone.slice(-6)}`;
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill('secret99');
  await page.getByLabel('确认密码').fill('secret99');
  await page.getByLabel('企业名称').fill('上海仁济大药房有限公司');
  await page.getByLabel('联系人').fill('王芳');
  await page.getByRole('button', { name: '注册并下一步' }).click();
  await expect(page.getByText('请选择企业类型')).toBeVisible();
  await page.getByText('单体药店', { exact: true }).click();
  await page.getByRole('button', { name: '注册并下一步' }).click();
  await expect(page).toHaveURL(/\/register\/step3$/);
  await page.getByLabel('药品经营许可证编号').fill('沪AA0210123');
  await page.getByRole('button', { name: '提交资质' }).click();
  await expect(page.getByText('注册成功')).toBeVisible();
  expect(sql('SELECT COUNT(*) FROM members WHERE username = ?', username)[0][0]).toBe(1);
  expect(sql('SELECT COUNT(*) FROM qualifications q JOIN members m ON m.id = q.member_id WHERE m.username = ?', username)[0][0]).toBe(1);

  // Until its qualifications are approved it sees no prices and buys nothing.
  const [[goods]] = sql(
    'SELECT id FROM goods WHERE is_buy = 1 AND stock > 100 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1',
  ) as [[number]];
  const refused = await page.request.post(`${base()}/api/cart`, { form: { goods_id: String(goods), number: '1' } });
  expect([refused.status(), (await refused.json()).msg]).toEqual([403, '资质认证通过后方可采购']);
  // The operator approves its licences (营业执照 handed in on paper), with a business scope.
  const [[member, licence]] = sql(
    'SELECT m.id, q.id FROM members m JOIN qualifications q ON q.member_id = m.id WHERE m.username = ?',
    username,
  ) as [[number, number]];
  sql(
    "INSERT INTO qualifications (member_id, kind, number, status, created_at) VALUES (?, '营业执照', '91310000MA1K00000X', 0, 0)",
    member,
  );
  const [[business]] = sql("SELECT id FROM qualifications WHERE member_id = ? AND kind = '营业执照'", member) as [[number]];
  expect(admin('approve', String(business))).toContain('approved');
  expect(admin('approve', String(licence), '--scope', '化学药制剂,抗生素制剂,中成药,中药饮片')).toContain('the member is approved');

  // Its first checkout asks for the electronic agreement (459) and opens /dzht; once it is
  // signed, the checkout goes on.
  await fillCart(page, [[goods, 1]]);
  await page.goto(`${base()}/cart`);
  await page.getByRole('button', { name: '去结算' }).click();
  await expect(page.locator('.ant-message-warning')).toContainText('请先签署电子合同');
  await expect(page).toHaveURL(/\/dzht$/);
  await expect(page).toHaveTitle('电子合同 - 医药批发商城');
  await expect(page.getByTestId('agreement')).toContainText('上海仁济大药房有限公司');
  await page.getByRole('button', { name: '同意并签署' }).click();
  await expect(page.getByText('请阅读并同意电子合同')).toBeVisible();
  await page.getByRole('checkbox').check();
  await page.getByLabel('签署人').fill('王芳');
  await page.getByRole('button', { name: '同意并签署' }).click();
  await expect(page.getByText('电子合同已签署')).toBeVisible();
  await expect(page.getByText('签署人：王芳')).toBeVisible();
  expect(sql('SELECT agreement_signed, agreement_signer FROM members WHERE username = ?', username)).toEqual([[1, '王芳']]);
  await page.getByRole('button', { name: '返回购物车' }).click();
  await page.getByRole('button', { name: '去结算' }).click();
  await expect(page).toHaveURL(/\/cart\/step2$/);
});

/** An order's amount due as the origin stored it (ten-thousandths of a yuan), written as money. */
const storedDue = (id: number) =>
  (sql("SELECT printf('%d.%02d', due / 10000, due % 10000 / 100) FROM orders WHERE id = ?", id) as [[string]])[0][0];

test('step 2 settles a chosen coupon and points in the browser, and the order is due what it showed', async ({ page }, testInfo) => {
  await login(page);
  // About 600.00 of one plain goods (not 优选): 满500减20 is the best coupon, 全场98折 takes 12.00.
  const [[goods, number]] = sql(
    'SELECT g.id, 6000000 / g.price + 1 FROM goods g WHERE g.is_buy = 1 AND g.is_youx = 0 AND g.type = 1 AND g.price BETWEEN 200000 AND 600000 AND g.stock > 500 AND g.manjian_id = 0 AND NOT EXISTS (SELECT 1 FROM goods_ladders l WHERE l.goods_id = g.id) AND g.id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY g.id LIMIT 1',
  ) as [[number, number]];
  await fillCart(page, [[goods, number]]);
  await page.goto(`${base()}/cart`);
  await expect(page.getByTestId('cart-row')).toHaveCount(1);
  const previewed = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/cart/checkout');
  await page.getByRole('button', { name: '去结算' }).click();
  const preview = (await (await previewed).json()).data;
  const due = page.getByTestId('checkout-due');
  await expect(due).toHaveText(yuan(preview.quote.settlement.due));

  const coupons = page.getByRole('radiogroup', { name: '优惠券' });
  const couponCard = (title: string) => coupons.locator('label').filter({ hasText: title });
  await expect(couponCard('满500减20').getByRole('radio')).toBeChecked();
  // Not reached: greyed out with how much is missing.
  // (The lucky-draw walk may have won the member a second one: every one is unreached.)
  const unreached = couponCard('满1000减60');
  await expect(unreached.first()).toBeVisible();
  for (const card of await unreached.all()) {
    await expect(card.getByRole('radio')).toBeDisabled();
    await expect(card).toContainText('还差 ¥');
  }

  // From here on the server is held: no preview or order may be asked for, and every amount
  // must change before any answer.
  const asked: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const hold = async (route: Route) => {
    asked.push(route.request().url());
    await held;
    await route.fallback();
  };
  await page.route('**/api/cart/checkout', hold);
  await page.route('**/api/order', hold);
  const before = await due.textContent();
  await couponCard('全场98折').click();
  await expect(couponCard('全场98折').getByRole('radio')).toBeChecked();
  await expect(due).not.toHaveText(before!, { timeout: 1000 });
  const withCoupon = await due.textContent();
  await page.getByRole('checkbox', { name: '使用积分' }).check();
  await expect(due).not.toHaveText(withCoupon!, { timeout: 1000 });
  await expect(page.getByTestId('checkout-points')).not.toHaveText('-¥0.00');
  const shown = (await due.textContent())!;
  expect(asked).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('checkout.png'), fullPage: true });
  await testInfo.attach('checkout', { path: testInfo.outputPath('checkout.png'), contentType: 'image/png' });
  release();
  await page.unroute('**/api/cart/checkout', hold);
  await page.unroute('**/api/order', hold);

  const placed = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/order');
  await page.getByRole('button', { name: '提交订单' }).click();
  const order = (await (await placed).json()).data;
  await expect(page).toHaveURL(/\/cart\/step3\/\d+$/);
  await expect(page.getByTestId('order-payable')).toHaveText(shown);
  expect(yuan(order.due)).toBe(shown);
  expect(yuan(storedDue(order.id))).toBe(shown);
  const [[couponTitle, pointsUsed]] = sql(
    'SELECT c.title, o.points_used FROM orders o JOIN member_coupons m ON m.id = o.member_coupon_id JOIN coupons c ON c.id = m.coupon_id WHERE o.id = ?',
    order.id,
  ) as [[string, number]];
  expect(couponTitle).toBe('全场98折');
  expect(pointsUsed).toBeGreaterThan(0);

  // Payment takes the amount due and earns points.
  await page.getByRole('button', { name: '确认支付' }).click();
  await expect(page).toHaveURL(/\/cart\/step4\?id=\d+$/);
  await expect(page.getByText(`实付 ${shown}`)).toBeVisible();
  await expect(page.getByText(/本单获得积分 \d+/)).toBeVisible();
});

test('the cart recalculates at once, equals the server, and goes through checkout and payment', async ({ page }, testInfo) => {
  await login(page);
  const [[ladderGoods, ladderStart]] = sql(
    'SELECT g.id, MIN(l.number) FROM goods g JOIN goods_ladders l ON l.goods_id = g.id WHERE g.is_buy = 1 AND g.stock > 500 AND g.ladder_price_type = 2 AND g.id NOT IN (SELECT goods_id FROM flash_sales) GROUP BY g.id ORDER BY g.id LIMIT 1',
  ) as [[number, number]];
  const [[plainGoods]] = sql(
    'SELECT g.id FROM goods g WHERE g.is_buy = 1 AND g.stock > 500 AND g.manjian_id = 0 AND NOT EXISTS (SELECT 1 FROM goods_ladders l WHERE l.goods_id = g.id) AND g.id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY g.id LIMIT 1',
  ) as [[number]];
  await fillCart(page, [
    [ladderGoods, 1],
    [plainGoods, 1],
  ]);

  await page.goto(`${base()}/cart`);
  await expect(page).toHaveTitle('购物车 - 医药批发商城');
  await expect(page.getByTestId('right-widget')).toHaveAttribute('data-open', '1');
  const rows = page.getByTestId('cart-row');
  await expect(rows).toHaveCount(2);
  let quote = await serverQuote(page);
  await expect(page.getByTestId('payable')).toHaveText(yuan(quote.totals.payable));
  await expect(page.getByTestId('shipping-hint')).toContainText('免运费');
  const ladderRow = page
    .locator(`[data-line-id]`)
    .filter({ has: page.locator('[data-testid="ladder-hint"]') })
    .first();
  await expect(ladderRow.getByTestId('ladder-hint')).toContainText(`再买 ${ladderStart - 1}`);
  await page.screenshot({ path: testInfo.outputPath('cart.png'), fullPage: true });
  await testInfo.attach('cart', { path: testInfo.outputPath('cart.png'), contentType: 'image/png' });

  // The server is made slow: the totals must change before it answers.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // Each held edit's handler, so that the route is taken away only once every one has let its
  // request go (taking it away sooner would answer a held request under the handler).
  const handled: Promise<void>[] = [];
  await page.route('**/api/cart/*/edit', (route) => {
    const done = held.then(() => route.continue());
    handled.push(done);
    return done;
  });
  const before = await page.getByTestId('payable').textContent();
  const input = ladderRow.getByRole('spinbutton');
  await input.fill(String(ladderStart));
  await expect(page.getByTestId('payable')).not.toHaveText(before!, { timeout: 1000 });
  await expect(ladderRow.getByTestId('ladder-hint')).not.toContainText(`再买 ${ladderStart - 1}`);
  const shown = { payable: await page.getByTestId('payable').textContent(), total: await page.getByTestId('total').textContent() };
  release();
  await Promise.all(handled);
  await page.unroute('**/api/cart/*/edit');
  await expect.poll(async () => (await serverQuote(page)).totals.payable, { timeout: 10_000 }).toBe(shown.payable!.slice(1));
  quote = await serverQuote(page);
  expect(yuan(quote.totals.total)).toBe(shown.total);
  await expect(page.getByTestId('payable')).toHaveText(yuan(quote.totals.payable));

  // Delete a line through the confirmation.
  const plainRow = rows.filter({ hasNot: page.getByTestId('ladder-hint') }).first();
  await plainRow.getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('确定删除这件商品吗?')).toBeVisible();
  await page
    .getByRole('button', { name: '确 定' })
    .or(page.getByRole('button', { name: '确定' }))
    .click();
  await expect(rows).toHaveCount(1);
  await expect.poll(async () => (await serverQuote(page)).lines.length).toBe(1);
  await expect(page.getByTestId('payable')).toHaveText(yuan((await serverQuote(page)).totals.payable));

  // Checkout, order, pay. The demo member holds coupons and vouchers: step 2 shows the amount
  // due of the engine's best choices, the server's preview's own.
  const payable = (await serverQuote(page)).totals.payable;
  const previewed = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/cart/checkout');
  await page.getByRole('button', { name: '去结算' }).click();
  await expect(page).toHaveURL(/\/cart\/step2$/);
  const preview = (await (await previewed).json()).data;
  expect(preview.quote.totals.payable).toBe(payable);
  const due = preview.quote.settlement.due;
  await expect(page.getByTestId('checkout-due')).toHaveText(yuan(due));
  await expect(page.getByTestId('checkout-total')).toHaveText(yuan(preview.quote.totals.total));
  await page.getByPlaceholder('选填：送货时间等要求').fill('工作日上午送货');
  await page.getByRole('button', { name: '提交订单' }).click();
  await expect(page).toHaveURL(/\/cart\/step3\/\d+$/);
  await expect(page.getByTestId('order-payable')).toHaveText(yuan(due));
  await page.getByRole('button', { name: '确认支付' }).click();
  await expect(page).toHaveURL(/\/cart\/step4\?id=\d+$/);
  await expect(page.getByText('支付成功')).toBeVisible();
  await expect(page.getByText('待发货')).toBeVisible();
});

test('a tampered expected_payable is refused with the 422 message', async ({ page }) => {
  await login(page);
  const [[goods]] = sql(
    'SELECT id FROM goods WHERE is_buy = 1 AND stock > 100 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1 OFFSET 5',
  ) as [[number]];
  await fillCart(page, [[goods, 2]]);
  await page.goto(`${base()}/cart`);
  await expect(page.getByTestId('cart-row')).toHaveCount(1);
  await page.getByRole('button', { name: '去结算' }).click();
  await expect(page.getByTestId('checkout-due')).toBeVisible();
  await page.route('**/api/order', async (route) => {
    const body = new URLSearchParams(route.request().postData() ?? '');
    body.set('expected_payable', '0.01');
    await route.continue({ postData: body.toString() });
  });
  await page.getByRole('button', { name: '提交订单' }).click();
  await expect(page.locator('.ant-message-error')).toContainText('商品价格已变动，请刷新购物车后重试');
  await expect(page).toHaveURL(/\/cart\/step2$/);
});
