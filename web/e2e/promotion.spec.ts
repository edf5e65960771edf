// The coupon centre, the points mall and the lucky draw in Chromium, through the edge: a coupon
// claimed at /lqzx and spent at checkout; goods redeemed for points at /jfsc, shipped by the
// operator's command and received under 积分订单 (/jfdd); the draw popup's lock, its question
// before closing, its result after 2 s (a fake clock) and its staying closed.
import { expect, test } from '@playwright/test';
import { admin, base, fillCart, login, sql } from './support';

test('a member claims a coupon in the coupon centre and spends it at checkout', async ({ page }, testInfo) => {
  await login(page);
  await page.goto(`${base()}/lqzx`);
  await expect(page).toHaveTitle('领券中心 - 医药批发商城');
  const card = page.getByTestId('centre-coupon').filter({ hasText: '领券中心专享满800减40' });
  await expect(card).toContainText('领取后15天内有效');
  await card.getByRole('button', { name: '立即领取' }).click();
  await expect(card.getByRole('button', { name: '已领取' })).toBeDisabled();
  await expect(card).toContainText('已领1张');
  await page.screenshot({ path: testInfo.outputPath('coupon-centre.png'), fullPage: true });
  await testInfo.attach('coupon-centre', { path: testInfo.outputPath('coupon-centre.png'), contentType: 'image/png' });

  // About 900.00 of one plain goods: the claimed 满800减40 takes off most.
  const [[goods, number]] = sql(
    'SELECT g.id, 9000000 / g.price + 1 FROM goods g WHERE g.is_buy = 1 AND g.is_youx = 0 AND g.type = 1 AND g.price BETWEEN 200000 AND 600000 AND g.stock > 500 AND g.manjian_id = 0 AND NOT EXISTS (SELECT 1 FROM goods_ladders l WHERE l.goods_id = g.id) AND g.id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY g.id DESC LIMIT 1',
  ) as [[number, number]];
  await fillCart(page, [[goods, number]]);
  await page.goto(`${base()}/cart`);
  await page.getByRole('button', { name: '去结算' }).click();
  await expect(page).toHaveURL(/\/cart\/step2$/);
  const claimed = page.getByRole('radiogroup', { name: '优惠券' }).locator('label').filter({ hasText: '领券中心专享满800减40' });
  await claimed.click();
  await expect(claimed.getByRole('radio')).toBeChecked();
  await page.getByRole('radio', { name: '不使用现金券' }).check();
  await page.getByRole('button', { name: '提交订单' }).click();
  await expect(page).toHaveURL(/\/cart\/step3\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  const [[title, value]] = sql(
    'SELECT c.title, o.coupon_value FROM orders o JOIN member_coupons m ON m.id = o.member_coupon_id JOIN coupons c ON c.id = m.coupon_id WHERE o.id = ?',
    id,
  ) as [[string, number]];
  expect([title, value]).toEqual(['领券中心专享满800减40', 400000]);
  await page.getByRole('button', { name: '确认支付' }).click();
  await expect(page).toHaveURL(/\/cart\/step4\?id=\d+$/);
});

test('a member redeems goods for points, the operator ships them, the member receives them', async ({ page }, testInfo) => {
  await login(page);
  const [[points]] = sql("SELECT points FROM members WHERE username = 'demo'") as [[number]];
  await page.goto(`${base()}/jfsc`);
  await expect(page).toHaveTitle('积分商城 - 医药批发商城');
  await expect(page.getByTestId('mall-points')).toHaveText(String(points));
  await page.locator('.mall-filters').getByText('实物商品', { exact: true }).click();
  await expect(page.getByTestId('mall-item')).toHaveCount(4);
  const item = page.getByTestId('mall-item').filter({ hasText: '维生素C片 0.1g*100片' });
  await item.getByRole('button', { name: '立即兑换' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('redeem-points')).toContainText('300');
  const [[detail]] = sql(
    "SELECT a.detail FROM addresses a JOIN members m ON m.id = a.member_id WHERE m.username = 'demo' ORDER BY a.is_default DESC, a.id LIMIT 1",
  ) as [[string]];
  await expect(dialog).toContainText(detail);
  await page.screenshot({ path: testInfo.outputPath('points-mall.png'), fullPage: true });
  await testInfo.attach('points-mall', { path: testInfo.outputPath('points-mall.png'), contentType: 'image/png' });
  await dialog.getByRole('button', { name: '确认兑换' }).click();
  await expect(page.getByText('兑换成功，商品将尽快为您发出')).toBeVisible();
  await expect(page.getByTestId('mall-points')).toHaveText(String(points - 300));

  await page.goto(`${base()}/jfdd`);
  await expect(page).toHaveTitle('积分订单 - 医药批发商城');
  const row = page.getByTestId('points-orders').getByRole('row').filter({ hasText: '维生素C片' });
  await expect(row).toContainText('待发货');
  const [[order]] = sql("SELECT id FROM points_orders WHERE name = '维生素C片 0.1g*100片' ORDER BY id DESC LIMIT 1") as [[number]];
  expect(admin('ship-points', String(order), '--carrier', '京东物流', '--tracking', 'JD2026112501')).toContain('shipped points order');
  await page.reload();
  await expect(row).toContainText('京东物流 JD2026112501');
  await row.getByRole('button', { name: '确认收货' }).click();
  await page.getByRole('button', { name: /确\s?定/ }).click();
  await expect(row).toContainText('已完成');
});

test('the lucky-draw popup locks while drawing, asks before closing, shows the prize after 2 s and stays closed', async ({
  page,
}, testInfo) => {
  sql('UPDATE draw_activities SET is_on = 1');
  try {
    await page.clock.install();
    await login(page);
    const popup = page.getByRole('dialog').filter({ hasText: '会员感恩季 · 幸运大抽奖' });
    await expect(popup).toBeVisible();
    await expect(popup.getByTestId('draw-prizes')).toContainText('谢谢参与');
    await popup.getByRole('button', { name: '立即抽奖' }).click();
    // From the press on the page's time stands still until the walk moves it.
    await page.clock.pauseAt(Date.now() + 500);
    await expect(popup.getByRole('button', { name: /抽奖中/ })).toBeVisible();

    // Closing while drawing asks first; 取消 keeps it drawing.
    await popup.getByRole('button', { name: '关闭', exact: true }).click();
    const ask = page.getByRole('dialog').filter({ hasText: '抽奖进行中 , 如果关闭后未出结果 , 请移步至个人中心查看结果。' });
    await expect(ask.getByRole('button', { name: '关闭', exact: true })).toBeVisible();
    await ask.getByRole('button', { name: '取消', exact: true }).click();
    await expect(popup).toBeVisible();
    await expect(popup.getByTestId('draw-result')).toHaveCount(0);

    // The result appears 2 s after the press, as the server decided it.
    await page.clock.runFor(2000);
    const [[name, remarks]] = sql(
      `SELECT r.name, r.remarks FROM draw_records r JOIN members m ON m.id = r.member_id JOIN draw_activities a ON a.id = r.activity_id
         WHERE m.username = 'demo' AND a.title = '会员感恩季 · 幸运大抽奖'`,
    ) as [[string, string]];
    await expect(popup.getByTestId('draw-result')).toContainText(`恭喜您 , 抽中${name} ( ${remarks} )`);
    await page.screenshot({ path: testInfo.outputPath('draw.png'), fullPage: false });
    await testInfo.attach('draw', { path: testInfo.outputPath('draw.png'), contentType: 'image/png' });
    await page.clock.resume();
    await popup.getByRole('button', { name: '知道了' }).click();
    await expect(popup).toHaveCount(0);

    // Closed: not asked for again on the next page.
    let asked = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/draw/simple') asked += 1;
    });
    await page.goto(`${base()}/user`);
    await expect(page.getByTestId('draw-records')).toContainText(name);
    await page.goto(`${base()}/jfsc`);
    await expect(page.getByTestId('mall-item').first()).toBeVisible();
    expect(asked).toBe(0);
  } finally {
    sql('UPDATE draw_activities SET is_on = 0');
  }
});
