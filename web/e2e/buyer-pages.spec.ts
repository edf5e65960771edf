// What a wholesale buyer reads and does on the goods pages: packs, approval numbers, limits and
// sales on every card; ＋ and － by the middle pack; the detail's price following the ladder; the
// list opening in the view chosen last; pages that need an order or a member sending the buyer
// where they belong.
import { expect, test } from '@playwright/test';
import { afterLoginReload, base, login, sql } from './support';

test('cards show packs and sales, ＋ steps by the middle pack, and the list remembers its view', async ({ page }) => {
  await login(page);
  const [[id, name, zbz, jzl, pzwh, bzdw]] = sql(
    'SELECT id, name, zbz, jzl, pzwh, bzdw FROM goods WHERE zbz > 1 AND jzl > 0 AND is_buy = 1 AND stock > 100 AND is_kx = 0 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1',
  ) as [[number, string, number, number, string, string]];
  await page.goto(`${base()}/search?keyword=${encodeURIComponent(name)}`);
  const card = page.locator(`[data-goods-id="${id}"]`);
  const facts = card.getByTestId('pack-facts');
  await expect(facts).toContainText(`中包装 ${zbz}${bzdw}`);
  await expect(facts).toContainText(`件装 ${jzl}${bzdw}`);
  await expect(facts).toContainText(`批准文号 ${pzwh}`);
  await expect(facts).toContainText('销量');
  // The quantity starts at one middle pack; ＋ adds one, － takes it back, never below 1.
  const input = card.getByRole('spinbutton');
  await expect(input).toHaveValue(String(zbz));
  await card.getByRole('button', { name: /^增加/ }).click();
  await expect(input).toHaveValue(String(2 * zbz));
  await card.getByRole('button', { name: /^减少/ }).click();
  await card.getByRole('button', { name: /^减少/ }).click();
  await expect(input).toHaveValue('1');
  await expect(card.getByRole('button', { name: /^减少/ })).toBeDisabled();
  await card.getByRole('button', { name: /^增加/ }).click();
  await expect(input).toHaveValue(String(zbz));

  // The table view, chosen once, is where lists open from now on, after a reload too.
  await page.goto(`${base()}/list`);
  await page.getByText('列表', { exact: true }).click();
  await expect(page).toHaveURL(/\/list\/table/);
  await page.goto(`${base()}/list`);
  await expect(page).toHaveURL(/\/list\/table/);
  await page.reload();
  await expect(page).toHaveURL(/\/list\/table/);
  await expect(page.getByTestId('pack-facts').first()).toBeVisible();
  // And back to 大图.
  await page.getByText('大图', { exact: true }).click();
  await expect(page).toHaveURL(/\/list(\?|$)/);
  await page.goto(`${base()}/list`);
  await expect(page).toHaveURL(/\/list(\?|$)/);
});

test("the detail page's price follows the ladder as the quantity changes, and back", async ({ page }) => {
  const [[id, price]] = sql(
    'SELECT g.id, g.price FROM goods g WHERE g.is_buy = 1 AND g.stock > 500 AND g.ladder_price_type = 2 AND EXISTS (SELECT 1 FROM goods_ladders l WHERE l.goods_id = g.id) AND g.id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY g.id LIMIT 1',
  ) as [[number, number]];
  const [[from, stepPrice]] = sql('SELECT number, price FROM goods_ladders WHERE goods_id = ? ORDER BY number LIMIT 1', id) as [
    [number, number],
  ];
  await login(page);
  await page.goto(`${base()}/list/info/${id}`);
  const detail = (await (await page.request.get(`${base()}/api/goods/detail/${id}`)).json()).data;
  const shown = page.getByTestId('detail-price');
  await expect(shown).toHaveText(`¥${detail.price}`);
  const input = page.getByRole('spinbutton', { name: '购买 数量' });
  await input.fill(String(from));
  await input.blur();
  const step = detail.ladder_price.find((row: { number: number }) => row.number === from);
  await expect(shown).toHaveText(`¥${step.price}`);
  expect(stepPrice).toBeLessThan(price);
  await input.fill('1');
  await input.blur();
  await expect(shown).toHaveText(`¥${detail.price}`);
});

test('pages that need an order or a member send the buyer where they belong', async ({ page }) => {
  // Signed out: a member page goes to login and, once signed in, back to it.
  await page.goto(`${base()}/wdqb/yegl`);
  await expect(page).toHaveURL(/\/login\?redirect=%2Fwdqb%2Fyegl/);
  await page.getByLabel('账号').fill('demo');
  await page.getByLabel('密码', { exact: true }).fill('demo123');
  await page
    .getByRole('button', { name: '登 录' })
    .or(page.getByRole('button', { name: '登录' }))
    .click();
  await expect(page).toHaveURL(/\/wdqb\/yegl$/);
  await afterLoginReload(page);
  // The payment result without an order is the cart.
  await page.goto(`${base()}/cart/step4`);
  await expect(page).toHaveURL(/\/cart$/);
});
