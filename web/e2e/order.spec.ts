// The order centre in Chromium, through the edge: an order followed from payment through the
// operator's shipment to the member's receipt, found again by its number, and bought again; a
// unit returned and refunded to the wallet; an after-sales case; an e-invoice requested, issued
// and downloaded.
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
  // Its own row, found by the order's number (other walks ask invoices under the same title).
  const { order_no: orderNo } = (await (await page.request.get(`${base()}/api/order/${id}`)).json()).data;
  const row = page.getByTestId('invoice-table').getByRole('row').filter({ hasText: orderNo });
  await expect(row).toContainText('待开票');

  const [[request]] = sql('SELECT id FROM invoices WHERE order_id = ?', id) as [[number]];
  expect(admin('issue-invoice', String(request))).toContain('issued invoice');
  await page.reload();
  await expect(row).toContainText('已开票');
  const href = await row.getByRole('link', { name: '下载PDF' }).getAttribute('href');
  const pdf = await page.request.get(`${base()}${href}`);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
});

/** Rule 20 for one unit of `units` that paid `paid` with none returned before: floor2(paid / units),
 * in whole cents (what the walk expects the page to show). */
function firstUnitRefund(paid: string, units: number): string {
  const [whole, fraction = ''] = paid.split('.');
  const cents = (BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2))) / BigInt(units);
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

test('a member returns one unit of a received order and sees the refund in the wallet log', async ({ page }, testInfo) => {
  await login(page);
  const id = await orderAndPay(page, 18, 3);
  expect(admin('ship', String(id), '--carrier', '中通快递', '--tracking', 'ZT2026112401')).toContain('shipped');
  await page.goto(`${base()}/order/info/${id}`);
  await page.getByRole('button', { name: '确认收货' }).click();
  await page.getByRole('button', { name: /确\s?定/ }).click();
  await expect(page.getByTestId('order-status')).toHaveText('已完成');

  const order = (await (await page.request.get(`${base()}/api/order/${id}`)).json()).data;
  const refund = firstUnitRefund(order.items[0].paid, 3);
  await page.getByRole('button', { name: '申请退货' }).click();
  await expect(page).toHaveURL(new RegExp(`/order/returnInfo/${id}$`));
  await expect(page).toHaveTitle('退货详情 - 医药批发商城');
  const form = page.getByTestId('return-form');
  await expect(page.getByTestId('return-refund')).toHaveText('请选择退货数量');
  await form.getByRole('spinbutton').fill('1');
  await expect(page.getByTestId('return-refund')).toHaveText(`¥${refund}`);
  await form.getByText('商品破损').click();
  await form.getByRole('textbox').fill('一盒外包装破损');
  await form.locator('input[type=file]').setInputFiles({ name: 'box.png', mimeType: 'image/png', buffer: PNG });
  await form.getByRole('button', { name: '提交退货申请' }).click();
  const record = page.getByTestId('return-record');
  await expect(record.getByTestId('return-status')).toHaveText('待审核');
  await expect(record).toContainText(`¥${refund}`);
  await expect(record.locator('img')).toHaveCount(1);

  // The shop approves it and, once the goods are back, refunds it.
  const [[returnId]] = sql('SELECT id FROM returns WHERE order_id = ?', id) as [[number]];
  expect(admin('approve-return', String(returnId), '--note', '请寄回杭州仓')).toContain('approved');
  expect(admin('receive-return', String(returnId))).toContain('received and refunded');
  await page.reload();
  await expect(record.getByTestId('return-status')).toHaveText('已退款');
  await expect(record).toContainText('请寄回杭州仓');
  await page.screenshot({ path: testInfo.outputPath('return.png'), fullPage: true });
  await testInfo.attach('return', { path: testInfo.outputPath('return.png'), contentType: 'image/png' });

  await page.goto(`${base()}/order/info/${id}`);
  await expect(page.getByTestId('order-refunded')).toHaveText(`¥${refund}`);
  await expect(page.getByText('商家已收到退货，退款已到账')).toBeVisible();

  await page.goto(`${base()}/wdqb/yegl`);
  const row = page.getByTestId('log-balance').getByRole('row').filter({ hasText: '退货' }).first();
  await expect(row).toContainText(`+${refund}`);
  await expect(row).toContainText(order.order_no);
});
