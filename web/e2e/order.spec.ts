// The order centre in Chromium, through the edge: an order followed from payment through the
// operator's shipment to the member's receipt, found again by its number, and bought again.
import { expect, test } from '@playwright/test';
import { admin, base, fillCart, login, sql } from './support';

test('an order is paid, shipped by the operator, received and bought again', async ({ page }) => {
  await login(page);
  const [[goods]] = sql(
    'SELECT id FROM goods WHERE is_buy = 1 AND stock > 100 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1 OFFSET 12',
  ) as [[number]];
  await fillCart(page, [[goods, 2]]);
  await page.goto(`${base()}/cart`);
  await page.getByRole('button', { name: '去结算' }).click();
  await expect(page).toHaveURL(/\/cart\/step2$/);
  await page.getByRole('button', { name: '提交订单' }).click();
  await expect(page).toHaveURL(/\/cart\/step3\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  await page.getByRole('button', { name: '确认支付' }).click();
  await expect(page).toHaveURL(/\/cart\/step4\?id=\d+$/);

  // The order centre finds it by its number, waiting to be shipped.
  const order = (await (await page.request.get(`${base()}/api/order/${id}`)).json()).data;
  await page.goto(`${base()}/order`);
  await expect(page).toHaveTitle('我的订单 - 医药批发商城');
  await page.getByRole('searchbox', { name: '搜索订单' }).fill(order.order_no);
  await page.getByRole('searchbox', { name: '搜索订单' }).press('Enter');
  const card = page.getByTestId('order-card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('待发货');

  // The operator ships it; the logistics path opens its detail.
  expect(admin('ship', String(id), '--carrier', '顺丰速运', '--tracking', 'SF2026112400')).toContain('shipped');
  await page.goto(`${base()}/order/wl/${id}`);
  await expect(page).toHaveURL(new RegExp(`/order/info/${id}$`));
  await expect(page.getByTestId('order-status')).toHaveText('待收货');
  await expect(page.getByTestId('order-logistics')).toContainText('SF2026112400');
  await expect(page.getByTestId('order-due')).toHaveText(`¥${order.due}`);

  await page.getByRole('button', { name: '确认收货' }).click();
  await page.getByRole('button', { name: /确\s?定/ }).click();
  await expect(page.getByTestId('order-status')).toHaveText('已完成');
  for (const step of ['订单已提交', '订单已支付', '商家已发货', '已确认收货']) {
    await expect(page.getByText(step).first()).toBeVisible();
  }

  await page.getByRole('button', { name: '再次购买' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('cart-row')).toHaveCount(1);
});
