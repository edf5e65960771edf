// Self-service in Chromium, through the edge: quick purchase puts three goods bought before into
// the cart at today's prices; a wanted variety is asked for, listed and answered.
import { expect, test } from '@playwright/test';
import { admin, base, fillCart, keepAccounts, login, sql } from './support';

test("quick purchase adds three goods bought before to the cart at today's prices", async ({ page }) => {
  await login(page);
  // An order of three goods, paid, so that there is something bought before.
  const goods = sql(
    'SELECT g.id FROM goods g WHERE g.is_buy = 1 AND g.stock > 100 AND g.is_kx = 0 AND NOT EXISTS (SELECT 1 FROM goods_ladders l WHERE l.goods_id = g.id) AND g.id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY g.id LIMIT 3 OFFSET 30',
  ).map(([id]) => id as number);
  await fillCart(
    page,
    goods.map((id) => [id, 2]),
  );
  await page.goto(`${base()}/cart`);
  await page.getByRole('button', { name: '去结算' }).click();
  await keepAccounts(page);
  await page.getByRole('button', { name: '提交订单' }).click();
  await expect(page).toHaveURL(/\/cart\/step3\/\d+$/);
  await page.getByRole('button', { name: '确认支付' }).click();
  await expect(page).toHaveURL(/\/cart\/step4\?id=\d+$/);
  await fillCart(page, []);

  await page.goto(`${base()}/zzfw/kjcg`);
  await expect(page).toHaveTitle('快速采购 - 医药批发商城');
  const rows = page.getByTestId('bought').locator('tr.ant-table-row');
  for (const id of goods) await expect(rows.filter({ has: page.locator(`a[href="/list/info/${id}"]`) })).toHaveCount(1);
  for (const id of goods)
    await rows
      .filter({ has: page.locator(`a[href="/list/info/${id}"]`) })
      .getByRole('checkbox')
      .check();
  await expect(page.getByText('已选 3 种')).toBeVisible();
  await page.getByRole('button', { name: '加入购物车' }).click();
  await expect(page.getByText('已将3种商品加入购物车')).toBeVisible();
  const cart = (await (await page.request.get(`${base()}/api/cart/list`)).json()).data;
  expect(cart.data.map((line: { goods: { id: number } }) => line.goods.id).sort()).toEqual([...goods].sort());
  // Today's prices: each line quoted at its goods' card price.
  for (const line of cart.data as { id: number; goods: { price: string } }[]) {
    const quoted = cart.quote.lines.find((entry: { id: number }) => entry.id === line.id);
    expect(quoted.unit_price).toBe(line.goods.price);
  }
  await fillCart(page, []);
});

test('a wanted variety is asked for, listed and answered by the shop', async ({ page }) => {
  await login(page);
  await page.goto(`${base()}/pzqg`);
  await expect(page).toHaveURL(/\/zzfw\/pzqg$/);
  await page.getByRole('link', { name: '添加求购' }).click();
  await expect(page).toHaveURL(/\/zzfw\/pzqg\/add$/);
  const name = `银杏叶片${Date.now() % 10000}`;
  await page.getByLabel('品种名称').fill(name);
  await page.getByLabel('生产厂家').fill('扬子江药业集团有限公司');
  await page.getByLabel('规格').fill('19.2mg*24片');
  await page.getByLabel('求购数量').fill('50');
  await page.getByRole('button', { name: '提交求购' }).click();
  await expect(page).toHaveURL(/\/zzfw\/pzqg\/info\?id=\d+$/);
  await expect(page.getByTestId('wanted-info')).toContainText(name);
  await expect(page.getByTestId('wanted-info')).toContainText('等待处理');

  const [[id]] = sql('SELECT id FROM wanted_varieties WHERE name = ?', name) as [[number]];
  expect(admin('reply-wanted', String(id), '--status', '1', '--reply', '已上架，可搜索采购')).toContain('已上架');
  await page.getByRole('link', { name: '返回求购列表' }).click();
  const row = page.getByTestId('wanted-list').locator('tr.ant-table-row').filter({ hasText: name });
  await expect(row).toContainText('已上架');
  await row.getByRole('link', { name }).click();
  await expect(page.getByTestId('wanted-info')).toContainText('已上架，可搜索采购');
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082',
  'hex',
);

test("feedback with a picture is sent, and the shop's reply shows beside it", async ({ page }) => {
  await login(page);
  await page.goto(`${base()}/yjfk`);
  await expect(page).toHaveURL(/\/zzfw\/yjfk$/);
  await expect(page).toHaveTitle('意见反馈 - 医药批发商城');
  const form = page.getByTestId('feedback-form');
  await form.getByRole('radio', { name: '商品问题' }).check();
  const text = `希望增加更多中药饮片规格 ${Date.now() % 10000}`;
  await form.getByLabel('反馈内容').fill(text);
  await form.locator('input[type=file]').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: PNG });
  await form.getByRole('button', { name: '提交反馈' }).click();
  await expect(page.getByText('感谢您的反馈，我们会尽快处理')).toBeVisible();
  const item = page.getByTestId('feedback-item').filter({ hasText: text });
  await expect(item).toContainText('待回复');
  await expect(item.getByRole('img', { name: '反馈图片' })).toBeVisible();

  const [[id]] = sql('SELECT id FROM feedback WHERE body = ?', text) as [[number]];
  expect(admin('reply-feedback', String(id), '--reply', '已安排采购部门补充规格')).toContain('已回复');
  await page.reload();
  await expect(item).toContainText('已回复');
  await expect(item).toContainText('商城回复：已安排采购部门补充规格');
});
