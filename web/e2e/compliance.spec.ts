// Compliance as a clinic meets it (docs/compliance.md): a visitor sees 登录可见 and the clinic,
// until approved, 认证后可见 in place of every price; registering as a 诊所 asks for its
// 医疗机构执业许可证; approved for 中成药 only, it sees an antibiotic marked 处方药 and
// 超出经营范围 with no add button, in the list and on the detail; an antibiotic already in its cart
// (its scope narrowed after) is greyed with the reason, stays out of 全选 however often it is
// ticked, and the edge refuses a checkout that names it; the 中成药 beside it orders. Then its
// licence expires: the checkout names the certificate, the certificates page says so, and an
// approved renewal lets it order again. After each step the page is compared with the server.
import { expect, test, type Page } from '@playwright/test';
import { admin, base, registerPhone, sql } from './support';

const SCOPE_ALL = '中成药,抗生素制剂';

/** The cart as the server quotes it: each line's id, ticked and sellable; the payable total. */
async function serverCart(page: Page) {
  const list = await (await page.request.get(`${base()}/api/cart/list`)).json();
  const lines = list.data.quote.lines as { id: number; is_selected: number; sellable: boolean }[];
  return { lines, payable: list.data.quote.totals.payable as string };
}

async function pagePayable(page: Page) {
  return (await page.getByTestId('payable').textContent())?.replace(/[¥,\s]/g, '');
}

/** Every price the goods cards of the page show, and what stands in for the hidden ones. */
async function cardPrices(page: Page) {
  const cards = page.locator('.goods-card');
  await expect(cards.first()).toBeVisible();
  return {
    cards: await cards.count(),
    shown: await page.locator('.goods-card .goods-card-price .price').count(),
    hidden: await page.locator('.goods-card .goods-card-price').getByTestId('price-hidden').allTextContents(),
  };
}

test('a clinic buys only within its business scope, and not once its licence has expired', async ({ page }, testInfo) => {
  // A visitor sees 登录可见 in place of every price, on the list and the detail, with no add
  // button; the answers themselves carry no price.
  await page.goto(`${base()}/list`);
  let prices = await cardPrices(page);
  expect(prices.shown).toBe(0);
  expect(prices.hidden).toEqual(Array(prices.cards).fill('登录可见'));
  const answer = await (await page.request.get(`${base()}/api/goods/list`)).json();
  expect(answer.data.list.every((card: { price: unknown }) => card.price === null)).toBe(true);
  const [[laddered]] = sql('SELECT goods_id FROM goods_ladders ORDER BY id LIMIT 1') as [[number]];
  await page.goto(`${base()}/list/info/${laddered}`);
  await expect(page.getByTestId('detail-price')).toHaveText('登录可见');
  await expect(page.getByRole('table', { name: '阶梯价' })).toHaveCount(0);
  await expect(page.getByTestId('goods-refusal')).toHaveText('登录后采购');
  await expect(page.getByRole('button', { name: '加入购物车' })).toHaveCount(0);

  // Registration: the kind of business decides the licence asked for.
  const phone = `137${String(Date.now()).slice(-8)}`;
  const username = `clinic${phone.slice(-6)}`;
  await page.goto(`${base()}/register`);
  await registerPhone(page, phone);
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill('clinic88');
  await page.getByLabel('确认密码').fill('clinic88');
  await page.getByLabel('企业名称').fill('杭州康宁诊所');
  await page.getByLabel('联系人').fill('孙医生');
  await page.getByText('诊所', { exact: true }).click();
  await page.getByRole('button', { name: '注册并下一步' }).click();
  await expect(page).toHaveURL(/\/register\/step3$/);
  await expect(page.getByLabel('药品经营许可证编号')).toHaveCount(0);
  await page.getByLabel('医疗机构执业许可证登记号').fill('PDY12345633010219D2192');
  await page.getByRole('button', { name: '提交资质' }).click();
  await expect(page.getByText('注册成功')).toBeVisible();
  const [[member, buyerType]] = sql('SELECT id, buyer_type FROM members WHERE username = ?', username) as [[number, number]];
  expect(buyerType).toBe(3);
  const [[licence]] = sql("SELECT id FROM qualifications WHERE member_id = ? AND kind = '医疗机构执业许可证'", member) as [[number]];

  // Signed in but not approved: 认证后可见, and 认证后采购 leads to the certificates.
  await page.goto(`${base()}/list`);
  prices = await cardPrices(page);
  expect(prices.shown).toBe(0);
  expect(prices.hidden).toEqual(Array(prices.cards).fill('认证后可见'));
  await page.goto(`${base()}/list/info/${laddered}`);
  await expect(page.getByTestId('detail-price')).toHaveText('认证后可见');
  await page.getByTestId('goods-refusal').click();
  await expect(page).toHaveURL(/\/zhzx\/zzzj$/);
  await expect(page.getByTestId('certificate-standing')).toContainText('诊所需上传并通过审核：医疗机构执业许可证');

  // The operator approves it for 中成药 and antibiotics; the clinic signs and has an address.
  expect(admin('approve', String(licence), '--scope', SCOPE_ALL)).toContain('the member is approved');
  await page.goto(`${base()}/list`);
  prices = await cardPrices(page);
  expect([prices.shown, prices.hidden.length]).toEqual([prices.cards, 0]);
  sql('UPDATE members SET agreement_signed = 1 WHERE id = ?', member);
  sql(
    "INSERT INTO addresses (member_id, contact, phone, province, city, district, detail, is_default) VALUES (?, '孙医生', ?, '浙江省', '杭州市', '西湖区', '文一路1号', 1)",
    member,
    phone,
  );
  const [[antibiotic, antibioticName]] = sql(
    'SELECT id, name FROM goods WHERE scope_class = 2 AND dispensing = 1 AND is_buy = 1 AND stock > 50 AND is_kx = 0 ORDER BY id LIMIT 1',
  ) as [[number, string]];
  const [[patent]] = sql(
    'SELECT id FROM goods WHERE scope_class = 3 AND is_buy = 1 AND stock > 50 AND is_kx = 0 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1',
  ) as [[number]];

  // Within its scope the antibiotic can be added; it is marked 处方药.
  await page.goto(`${base()}/list/info/${antibiotic}`);
  await expect(page.locator('.detail-info h1').getByTestId('dispensing')).toHaveText('处方药');
  await page.getByRole('button', { name: '加入购物车' }).click();
  await expect(page.locator('.ant-message-success')).toContainText('已加入购物车');
  await page.goto(`${base()}/list/info/${patent}`);
  await page.getByRole('button', { name: '加入购物车' }).click();
  await expect(page.locator('.ant-message-success').last()).toContainText('已加入购物车');

  // The operator narrows the scope to 中成药 (the licence was re-read).
  expect(admin('approve', String(licence), '--scope', '中成药')).toContain('business scope: 中成药');

  // The detail and the list say why, with no add button.
  await page.goto(`${base()}/list/info/${antibiotic}`);
  await expect(page.getByTestId('goods-refusal')).toContainText('超出经营范围');
  await expect(page.getByTestId('goods-refusal')).toContainText('您的经营范围不含抗生素制剂');
  await expect(page.getByRole('button', { name: '加入购物车' })).toHaveCount(0);
  await page.goto(`${base()}/list?keyword=${encodeURIComponent(antibioticName)}`);
  const card = page.locator(`[data-goods-id="${antibiotic}"]`);
  await expect(card.getByTestId('goods-refusal')).toHaveText('超出经营范围');
  await expect(card.getByRole('button', { name: '加入购物车' })).toHaveCount(0);
  await expect(card.getByTestId('dispensing')).toHaveText('处方药');
  // Goods under special control show their limits on the card.
  await page.goto(`${base()}/list?keyword=${encodeURIComponent('伪麻黄碱')}`);
  await expect(page.locator('.goods-card').first().getByTestId('pack-facts')).toContainText('特管药品 每单限购 50盒');
  await expect(page.locator('.goods-card').first().getByTestId('pack-facts')).toContainText('每月限购 200盒');
  // Adding it by the API is refused with the reason.
  const refused = await page.request.post(`${base()}/api/cart`, { form: { goods_id: String(antibiotic), number: '1' } });
  expect(refused.status()).toBe(422);
  expect((await refused.json()).msg).toBe('超出经营范围');

  // The cart: the antibiotic greyed with the reason, unticked, and kept out however the buyer
  // ticks; the page's totals equal the server's after every step.
  await page.goto(`${base()}/cart`);
  const rows = page.getByTestId('cart-row');
  await expect(rows).toHaveCount(2);
  const stale = rows.filter({ has: page.locator(`a[href="/list/info/${antibiotic}"]`) });
  await expect(stale).toHaveClass(/unbuyable/);
  await expect(stale.getByTestId('unsellable-reason')).toHaveText('超出经营范围');
  await expect(stale.getByRole('checkbox')).toBeDisabled();
  // 全选 at the top and in the bar, in turn.
  const selectAll = page.getByTestId('select-all');
  for (let round = 0; round < 4; round++) {
    await selectAll.nth(round % 2).click();
    await expect
      .poll(async () => {
        const server = await serverCart(page);
        return [server.payable === (await pagePayable(page)), server.lines.some((line) => !line.sellable && line.is_selected === 1)];
      })
      .toEqual([true, false]);
  }
  await page.screenshot({ path: testInfo.outputPath('clinic-cart.png'), fullPage: true });

  // The edge refuses a checkout naming the antibiotic (the engine sees it unsellable): the
  // origin, which names the goods, never answers it.
  const { lines, payable } = await serverCart(page);
  const ids = lines.map((line) => line.id).join(',');
  const edge = await page.request.post(`${base()}/api/cart/checkout`, { form: { ids, expected_payable: payable } });
  expect(edge.status()).toBe(422);
  expect((await edge.json()).msg).toBe('部分商品暂不可购买，请刷新购物车后重试');

  // The 中成药 alone goes to checkout and orders.
  const patentLine = lines.find((line) => line.sellable)!;
  if (patentLine.is_selected !== 1)
    await rows
      .filter({ has: page.locator(`a[href="/list/info/${patent}"]`) })
      .getByRole('checkbox')
      .check();
  await page.getByRole('button', { name: '去结算' }).click();
  await expect(page).toHaveURL(/\/cart\/step2$/);
  await page.getByRole('button', { name: '提交订单' }).click();
  await expect(page).toHaveURL(/\/cart\/step3\/\d+$/);
  expect(sql('SELECT COUNT(*) FROM orders WHERE member_id = ?', member)[0][0]).toBe(1);

  // The licence expires: checking out names it; the certificates page says so.
  sql("UPDATE qualifications SET expires_on = '2026-01-31' WHERE id = ?", licence);
  await page.goto(`${base()}/list/info/${patent}`);
  await page.getByRole('button', { name: '加入购物车' }).click();
  await page.goto(`${base()}/cart`);
  await page.getByRole('button', { name: '去结算' }).click();
  const why = '您的医疗机构执业许可证已于2026-01-31过期，请在“资质证件”上传新证，审核通过后方可下单';
  await expect(page.getByRole('dialog')).toContainText(why);
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(page.locator('.ant-result-title')).toHaveText(why);
  await page.goto(`${base()}/zhzx/zzzj`);
  await expect(page.getByTestId('certificate-expiring')).toContainText('医疗机构执业许可证已于2026-01-31过期，暂不能下单');

  // The renewal is uploaded and approved: ordering resumes.
  await page.getByRole('combobox').first().click();
  await page.getByTitle('医疗机构执业许可证', { exact: true }).click();
  await page.getByLabel('证件编号').fill('PDY12345633010219D2199');
  await page.locator('input[type=file]').setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: PNG });
  await page
    .getByRole('button', { name: '上 传' })
    .or(page.getByRole('button', { name: '上传' }))
    .click();
  await expect(page.locator('.ant-message-success')).toContainText('上传成功，待审核');
  const [[renewal]] = sql(
    "SELECT MAX(id) FROM qualifications WHERE member_id = ? AND kind = '医疗机构执业许可证' AND status = 0",
    member,
  ) as [[number]];
  expect(admin('approve', String(renewal))).toContain('approved');
  await page.goto(`${base()}/cart`);
  await page.getByRole('button', { name: '去结算' }).click();
  await expect(page).toHaveURL(/\/cart\/step2$/);
});

/** A 1×1 PNG, as a scan. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
