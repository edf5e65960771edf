// The frame at the widths buyers' screens have: equal goods columns that never run under the
// right rail, an ad that never covers the page and closes, the home panel's member figures
// equal to the server's, and no lucky-draw popup over login or checkout.
import { expect, test, type Page } from '@playwright/test';
import { base, fillCart, login, sql } from './support';

async function box(page: Page, selector: string) {
  const found = await page.locator(selector).first().boundingBox();
  expect(found, selector).not.toBeNull();
  return found!;
}

for (const width of [1280, 1440, 1920]) {
  test(`at ${width} px the goods grid has equal columns clear of the rail, and the ad covers nothing`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ['/list', '/search?keyword=%E8%83%B6%E5%9B%8A', '/zyyp']) {
      await page.goto(`${base()}${path}`);
      await expect(page.locator('.goods-grid .goods-card').nth(4)).toBeVisible();
      const widths = await page
        .locator('.goods-grid')
        .first()
        .evaluate((grid) => getComputedStyle(grid).gridTemplateColumns.split(' ').map(parseFloat));
      // Five columns, four beside a zone's right-hand ad.
      expect(widths.length, path).toBe(path === '/zyyp' ? 4 : 5);
      expect(Math.max(...widths) - Math.min(...widths), `${path}: ${widths}`).toBeLessThan(0.5);
      const grid = await box(page, '.goods-grid');
      const rail = await box(page, '.rail');
      expect(grid.x + grid.width, path).toBeLessThanOrEqual(rail.x);
      // A card's long name wraps inside its column.
      const card = await box(page, '.goods-grid .goods-card');
      expect(card.width).toBeLessThanOrEqual(widths[0] + 1);
    }
    // The top-right ad: over nothing of the page, and closed for good by its button.
    await page.goto(`${base()}/`);
    const ad = page.getByRole('complementary', { name: '广告' });
    if (await ad.count()) {
      const shown = await ad.boundingBox();
      const content = await box(page, '.shop-main .container');
      const overlaps =
        shown!.x < content.x + content.width &&
        shown!.x + shown!.width > content.x &&
        shown!.y < content.y + content.height &&
        shown!.y + shown!.height > content.y;
      const inFlow = await ad.evaluate((element) => getComputedStyle(element).position !== 'fixed');
      expect(overlaps && !inFlow, `ad at ${JSON.stringify(shown)} over ${JSON.stringify(content)}`).toBe(false);
      await ad.getByRole('button', { name: '关闭广告' }).click();
      await expect(ad).toHaveCount(0);
      await page.reload();
      await expect(page.getByRole('complementary', { name: '广告' })).toHaveCount(0);
    }
  });
}

test("the home panel shows the member's company, manager, certificates, balance, coupons and unread messages", async ({ page }) => {
  await login(page);
  await page.goto(`${base()}/`);
  const centre = (await (await page.request.get(`${base()}/api/user/center`)).json()).data;
  const panel = page.getByTestId('member-panel');
  await expect(panel).toContainText(centre.company);
  await expect(panel).toContainText(centre.manager.name);
  await expect(panel.getByTestId('panel-approval')).toHaveText(centre.is_passed === 1 ? '资质已通过' : /资质/);
  await expect(panel.getByTestId('panel-balance')).toContainText(`¥${centre.balance}`);
  await expect(panel.getByTestId('panel-coupons')).toContainText(`${centre.coupons}`);
  await expect(panel.getByTestId('panel-messages')).toContainText(`${centre.unread_messages}`);
  // A message read elsewhere lowers the count the panel shows when the buyer comes back.
  await page.goto(`${base()}/zhzx/wdxx`);
  const [[unread]] = sql(
    "SELECT COUNT(*) FROM messages m JOIN members u ON u.id = m.member_id WHERE u.username = 'demo' AND m.read_at IS NULL",
  ) as [[number]];
  expect(unread).toBe(centre.unread_messages);
});

test('the lucky-draw popup does not open over login, registration, checkout or the cashier', async ({ page }) => {
  const popup = page.getByRole('dialog').filter({ hasText: '幸运大抽奖' });
  await login(page);
  const [[goods]] = sql(
    'SELECT id FROM goods WHERE is_buy = 1 AND stock > 100 AND is_kx = 0 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1 OFFSET 120',
  ) as [[number]];
  await fillCart(page, [[goods, 1]]);
  await page.goto(`${base()}/cart`);
  await page.getByRole('button', { name: '去结算' }).click();
  await expect(page).toHaveURL(/\/cart\/step2$/);
  // A draw opens now: checkout, its reload, the cashier and login stay clear of it.
  sql('UPDATE draw_activities SET is_on = 1');
  try {
    await page.reload();
    await expect(page.getByRole('button', { name: '提交订单' })).toBeVisible();
    await page.waitForTimeout(1500);
    await expect(popup).toHaveCount(0);
    await page.getByRole('button', { name: '提交订单' }).click();
    await expect(page).toHaveURL(/\/cart\/step3\/\d+$/);
    await page.waitForTimeout(1500);
    await expect(popup).toHaveCount(0);
    await page.getByRole('button', { name: '取消订单' }).click();
    await page
      .getByRole('button', { name: '确 定' })
      .or(page.getByRole('button', { name: '确定' }))
      .click();
    await page.goto(`${base()}/login`);
    await page.waitForTimeout(1000);
    await expect(popup).toHaveCount(0);
    await page.goto(`${base()}/register/step1`);
    await page.waitForTimeout(1000);
    await expect(popup).toHaveCount(0);
    // Where the popup belongs (home), it opens: the draw was there to be shown.
    await page.goto(`${base()}/`);
    await expect(popup).toBeVisible();
  } finally {
    sql('UPDATE draw_activities SET is_on = 0');
    await fillCart(page, []);
  }
});
