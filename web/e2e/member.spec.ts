// The member's own pages in Chromium, through the edge: the member centre and the wallet.
import { expect, test } from '@playwright/test';
import { base, login } from './support';

test('the member centre and the wallet show the demo member their own accounts', async ({ page }, testInfo) => {
  await login(page);
  await page.goto(`${base()}/user`);
  await expect(page).toHaveTitle('会员中心 - 医药批发商城');
  await expect(page.getByTestId('centre-company')).not.toBeEmpty();
  await expect(page.getByText('资质已通过')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('member-centre.png'), fullPage: true });
  await testInfo.attach('member-centre', { path: testInfo.outputPath('member-centre.png'), contentType: 'image/png' });

  // The wallet's figures are the origin's.
  const wallet = (await (await page.request.get(`${base()}/api/user/user_money`)).json()).data;
  await page.getByRole('link', { name: '账户红包' }).first().click();
  await expect(page).toHaveURL(/\/wdqb\/zhhb$/);
  await expect(page.getByTestId('red-packet')).toHaveText(`¥${wallet.red_packet}`);
  const redPackets = page.getByTestId('log-red_packet');
  await expect(redPackets.getByText('开户赠送')).toBeVisible();
  // Money out only: the grant is money in, so it leaves the list.
  await redPackets.getByText('支出').click();
  await expect(redPackets.getByText('开户赠送')).toBeHidden();

  await page.goto(`${base()}/jfgl`);
  await expect(page).toHaveURL(/\/wdqb\/jfgl$/);
  await expect(page.getByTestId('points')).toHaveText(String(wallet.points));

  // Coupons by state: the demo member holds an expired one.
  await page.goto(`${base()}/wdqb/yhq`);
  await expect(page.getByTestId('coupon-card').first()).toBeVisible();
  await page.getByRole('tab', { name: /已过期/ }).click();
  await expect(page.getByTestId('coupon-card')).toHaveCount(1);
  await expect(page.getByTestId('coupon-card')).toContainText('已过期');
  await page.goto(`${base()}/wdqb/xjq`);
  await expect(page.getByTestId('voucher-card').first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('vouchers.png'), fullPage: true });
});

test('a member recharges online and sees the balance and its log change', async ({ page, context }, testInfo) => {
  // Two processes beside the shop (the provider and its notify through the edge).
  test.slow();
  await login(page);
  await page.goto(`${base()}/wdqb/yegl`);
  await expect(page).toHaveTitle('余额管理 - 医药批发商城');
  const before = (await (await page.request.get(`${base()}/api/user/user_money`)).json()).data.balance;
  await expect(page.getByTestId('balance')).toHaveText(`¥${before}`);

  const recharge = page.getByTestId('recharge');
  await recharge.getByText('充¥1000.00').click();
  await recharge.getByRole('button', { name: '立即充值' }).click();
  const payment = page.getByTestId('online-payment');
  await expect(payment).toContainText('¥1000.00');
  await expect(payment.locator('svg')).toBeVisible();

  // The provider's cashier page opens beside the shop; the buyer confirms there.
  const [cashier] = await Promise.all([context.waitForEvent('page'), payment.getByRole('link', { name: '前往支付' }).click()]);
  await expect(cashier.getByRole('heading', { name: '收银台' })).toBeVisible();
  await expect(cashier.getByText('¥1000.00', { exact: true })).toBeVisible();
  await cashier.getByRole('button', { name: '确认支付' }).click();
  await expect(cashier).toHaveURL(/\/wdqb\/yegl\?payment=/);
  await cashier.close();

  // The shop's page learns it from the origin, which learnt it from the provider's notify.
  await expect(page.getByText('充值成功')).toBeVisible({ timeout: 15_000 });
  const after = (await (await page.request.get(`${base()}/api/user/user_money`)).json()).data.balance;
  expect(after).not.toBe(before);
  await expect(page.getByTestId('balance')).toHaveText(`¥${after}`);
  const log = page.getByTestId('log-balance');
  await expect(log.getByRole('row').filter({ hasText: '在线充值' }).first()).toContainText('+1000.00');
  await expect(log.getByRole('row').filter({ hasText: '充值赠送' }).first()).toContainText('+20.00');
  await expect(log.getByRole('row').filter({ hasText: '充值赠送' }).first()).toContainText(after);
  // Filtered by days, as the shop counts them (China's time), both included: today's holds the
  // recharge, a range long past holds nothing.
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const days = log.locator('.ant-picker-range input');
  const pick = async (from: string, to: string) => {
    const asked = page.waitForRequest(
      (request) => request.url().includes('/api/user/user_money_log') && request.url().includes(`start_time=${from}&end_time=${to}`),
    );
    await days.nth(0).click();
    await days.nth(0).fill(from);
    await days.nth(0).press('Enter');
    await days.nth(1).fill(to);
    await days.nth(1).press('Enter');
    await asked;
  };
  await pick(today, today);
  await expect(log.getByRole('row').filter({ hasText: '在线充值' }).first()).toContainText('+1000.00');
  await pick('2001-03-01', '2001-03-02');
  await expect(log.getByText('暂无记录')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('balance.png'), fullPage: true });
  await testInfo.attach('balance', { path: testInfo.outputPath('balance.png'), contentType: 'image/png' });
});
