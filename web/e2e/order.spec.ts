// The order centre in Chromium, through the edge: an order followed from payment through the
// operator's shipment to the member's receipt, found again by its number, and bought again; an
// after-sales case; an e-invoice requested, issued and downloaded.
import { expect, test } from '@playwright/test';
import { admin, base, login, orderAndPay, sql } from './support';

test('an order is paid, shipped by the operator, received and bought again', async ({ page }, testInfo) => {
  await login(page);
  const id = await orderAndPay(page, 12, 2);

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
  await page.screenshot({ path: testInfo.outputPath('order-detail.png'), fullPage: true });
  await testInfo.attach('order-detail', { path: testInfo.outputPath('order-detail.png'), contentType: 'image/png' });

  await page.getByRole('button', { name: '再次购买' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('cart-row')).toHaveCount(1);
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082',
  'hex',
);

test('a member opens an after-sales case with a photo, the shop answers, the member resolves it', async ({ page }) => {
  await login(page);
  const id = await orderAndPay(page, 14, 1);

  await page.goto(`${base()}/order/info/${id}`);
  await page.getByRole('button', { name: '申请售后' }).click();
  await expect(page).toHaveURL(new RegExp(`/order/afterSalesInfo/${id}$`));
  const form = page.getByTestId('after-sales-form');
  await form.getByText('质量问题').click();
  await form.getByRole('textbox').fill('收到的药品外包装破损');
  await form.locator('input[type=file]').setInputFiles({ name: 'box.png', mimeType: 'image/png', buffer: PNG });
  await form
    .getByRole('button', { name: '提 交' })
    .or(form.getByRole('button', { name: '提交' }))
    .click();
  const item = page.getByTestId('after-sales-case');
  await expect(item).toContainText('处理中');
  await expect(item).toContainText('收到的药品外包装破损');
  await expect(item.locator('img')).toHaveCount(1);

  const [[caseId]] = sql('SELECT id FROM after_sales WHERE order_id = ?', id) as [[number]];
  expect(admin('answer', String(caseId), '--body', '已为您补发一盒')).toContain('answered');
  await page.reload();
  await expect(item).toContainText('商城客服');
  await expect(item).toContainText('已为您补发一盒');
  await item.getByRole('button', { name: '问题已解决' }).click();
  await expect(item).toContainText('已解决');
});

test('a member requests an e-invoice, the operator issues it, the member downloads it', async ({ page }) => {
  await login(page);
  const id = await orderAndPay(page, 16, 1);
  await page.goto(`${base()}/order/info/${id}`);
  await page.getByRole('button', { name: '申请发票' }).click();
  await expect(page).toHaveURL(new RegExp(`/zzfw/dzfp\\?order=${id}$`));
  const form = page.getByTestId('invoice-form');
  await form.getByLabel('发票抬头').fill('杭州仁心大药房连锁有限公司');
  await form.getByLabel('纳税人识别号').fill('91330106MA2B3C4D5E');
  await form.getByLabel('接收邮箱').fill('caigou@renxin.cn');
  await form.getByRole('button', { name: '提交申请' }).click();
  const row = page.getByTestId('invoice-table').getByRole('row').filter({ hasText: '杭州仁心大药房连锁有限公司' });
  await expect(row).toContainText('待开票');

  const [[request]] = sql('SELECT id FROM invoices WHERE order_id = ?', id) as [[number]];
  expect(admin('issue-invoice', String(request))).toContain('issued invoice');
  await page.reload();
  await expect(row).toContainText('已开票');
  const href = await row.getByRole('link', { name: '下载PDF' }).getAttribute('href');
  const pdf = await page.request.get(`${base()}${href}`);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 8).toString()).toBe('%PDF-1.4');
});
