// Lots, parcels and the papers that travel with them, in Chromium through the edge: the expiry a
// goods shows comes from its lots; a paid order ships in two parcels, each taking the earliest
// expiry first; the buyer reloads and goes back between them, cannot confirm receipt while a
// part is still to come, reads each lot's inspection report and each parcel's delivery note;
// a return names the lot that comes back, and the invoice issued before it is reversed by a
// red-letter one. After each step the page is compared with the server.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { admin, base, login, orderGoodsAndPay, sql } from './support';

/** `YYYY-MM-DD`, `days` from today in the shop's time (UTC+8). */
function day(days: number): string {
  return new Date(Date.now() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

async function orderDetail(page: Page, id: number) {
  return (await (await page.request.get(`${base()}/api/order/${id}`)).json()).data;
}

test('an order ships in two parcels from the earliest lots, and its lots, notes, return and red-letter invoice follow it', async ({
  page,
}, testInfo) => {
  // A goods holding two lots of the test's own: 4 units expiring in 200 days, 30 in 300.
  const [[goods]] = sql(
    'SELECT id FROM goods WHERE is_buy = 1 AND stock > 100 AND control_per_order = 0 AND is_kx = 0 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1 OFFSET 40',
  ) as [[number]];
  sql('UPDATE goods_lots SET quantity = 0 WHERE goods_id = ?', goods);
  sql("UPDATE goods SET stock = 0, expires_on = '' WHERE id = ?", goods);
  const [early, late] = [day(200), day(300)];
  const lotAdd = (lot: string, expires: string, quantity: number) =>
    admin('lot', 'add', String(goods), '--lot', lot, '--produced', day(-300), '--expires', expires, '--quantity', String(quantity));
  expect(lotAdd('W2501', early, 4)).toContain('received');
  expect(lotAdd('W2502', late, 30)).toContain('received');
  const [[first], [second]] = sql('SELECT id FROM goods_lots WHERE goods_id = ? AND quantity > 0 ORDER BY expires_on', goods) as [
    [number],
    [number],
  ];
  const report = join(tmpdir(), `report-${Date.now()}.pdf`);
  writeFileSync(report, '%PDF-1.4\n% inspection report of W2501\n');
  expect(admin('lot', 'report', String(first), report)).toContain('kept');

  await login(page);
  // The goods' page: the nearest expiry, and both lots on sale.
  await page.goto(`${base()}/list/info/${goods}`);
  await expect(page.getByTestId('detail-expiry')).toHaveText(early);
  await expect(page.getByTestId('detail-lots')).toContainText('W2501');
  await expect(page.getByTestId('detail-lots')).toContainText('W2502');

  // Six units, paid from the balance.
  const id = await orderGoodsAndPay(page, goods, 6);
  const line = (await orderDetail(page, id)).items[0].id as number;

  // The invoice is asked for and issued before anything comes back.
  const asked = await page.request.post(`${base()}/api/order/${id}/invoice`, {
    form: { kind: '1', title: '杭州仁心大药房连锁有限公司', tax_no: '91330106MA2B3C4D5E', email: 'a@b.cn' },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  expect(admin('issue-invoice', String((await asked.json()).data.id))).toContain('issued invoice');

  // Parcel 1: three units, all from the earliest lot.
  expect(admin('ship', String(id), '--carrier', '顺丰速运', '--tracking', 'SF2026112801', '--lines', `${line}:3`)).toContain(
    '3 units left',
  );
  await page.goto(`${base()}/order/info/${id}`);
  await expect(page.getByTestId('order-status')).toHaveText('待收货');
  await expect(page.getByTestId('order-unshipped')).toContainText('还有3件待发货');
  const parcel1 = page.getByTestId('parcel-1');
  await expect(parcel1).toContainText('SF2026112801');
  await expect(parcel1.getByRole('row').filter({ hasText: 'W2501' })).toContainText(early);
  await expect(page.getByRole('button', { name: '确认收货' })).toHaveCount(0);
  let server = await orderDetail(page, id);
  expect(server.unshipped).toBe(3);
  expect(server.shipments[0].items[0].lots.map((lot: { lot_id: number; number: number }) => [lot.lot_id, lot.number])).toEqual([
    [first, 3],
  ]);

  // The buyer reloads, and leaves and comes back: the same parcel, still nothing to confirm.
  await page.reload();
  await expect(page.getByTestId('order-unshipped')).toContainText('还有3件待发货');
  await page.goto(`${base()}/order`);
  await page.goBack();
  await expect(page.getByTestId('parcel-1')).toContainText('W2501');
  await expect(page.getByRole('button', { name: '确认收货' })).toHaveCount(0);

  // The lot's inspection report and the parcel's delivery note, from the links on the page.
  const reportLink = parcel1.getByRole('link', { name: '查看' });
  const reportAnswer = await page.request.get(new URL((await reportLink.getAttribute('href'))!, base()).toString());
  expect(reportAnswer.status()).toBe(200);
  expect(reportAnswer.headers()['content-type']).toBe('application/pdf');
  const noteLink = parcel1.getByRole('link', { name: '随货同行单' });
  const note = await page.request.get(new URL((await noteLink.getAttribute('href'))!, base()).toString());
  expect(note.status()).toBe(200);
  expect(note.headers()['content-type']).toBe('application/pdf');
  expect((await note.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // Parcel 2: the rest — the last unit of the earliest lot, then two of the next.
  expect(admin('ship', String(id), '--carrier', '中通快递', '--tracking', 'ZT2026112802')).toContain('nothing left to ship');
  await page.reload();
  await expect(page.getByTestId('order-unshipped')).toHaveCount(0);
  const parcel2 = page.getByTestId('parcel-2');
  await expect(parcel2.getByRole('row').filter({ hasText: 'W2501' })).toContainText('1');
  await expect(parcel2.getByRole('row').filter({ hasText: 'W2502' })).toContainText(late);
  server = await orderDetail(page, id);
  expect(server.shipments[1].items[0].lots.map((lot: { lot_id: number; number: number }) => [lot.lot_id, lot.number])).toEqual([
    [first, 1],
    [second, 2],
  ]);
  await page.screenshot({ path: testInfo.outputPath('parcels.png'), fullPage: true });
  await testInfo.attach('parcels', { path: testInfo.outputPath('parcels.png'), contentType: 'image/png' });
  await page.getByRole('button', { name: '确认收货' }).click();
  await page.getByRole('button', { name: /确\s?定/ }).click();
  await expect(page.getByTestId('order-status')).toHaveText('已完成');

  // A return of one unit: the line left from two lots, so the buyer names the one coming back.
  await page.getByRole('button', { name: '申请退货' }).click();
  await expect(page).toHaveURL(new RegExp(`/order/returnInfo/${id}$`));
  const form = page.getByTestId('return-form');
  await form.getByRole('spinbutton').fill('1');
  // The quote says at once that the lot is wanted, and nothing can be sent before.
  await expect(form.getByText('从多个批号发货，请选择退回的批号')).toBeVisible();
  await expect(form.getByRole('button', { name: '提交退货申请' })).toBeDisabled();
  await form.getByText('质量问题').click();
  await form.getByRole('combobox', { name: /退回批号/ }).click();
  await page.getByRole('option', { name: /W2502/ }).click();
  await expect(page.getByTestId('return-refund')).toHaveText(/^¥\d+\.\d{2}$/);
  await form.getByRole('button', { name: '提交退货申请' }).click();
  const record = page.getByTestId('return-record');
  await expect(record.getByTestId('return-status')).toHaveText('待审核');
  await expect(record).toContainText('批号W2502');
  const [[returnId, lot]] = sql(
    'SELECT r.id, l.lot_id FROM returns r JOIN return_lines l ON l.return_id = r.id WHERE r.order_id = ?',
    id,
  ) as [[number, number]];
  expect(lot).toBe(second);

  // Refunded after the invoice was issued: a red-letter invoice, beside the blue one.
  expect(admin('approve-return', String(returnId))).toContain('approved');
  expect(admin('receive-return', String(returnId))).toContain('received and refunded');
  await page.goto(`${base()}/zzfw/dzfp`);
  // This order's rows only: other walks' invoices of the same member are listed too.
  const [[orderNo]] = sql('SELECT order_no FROM orders WHERE id = ?', id) as [[string]];
  const red = page.getByTestId('invoice-table').locator('tbody tr').filter({ hasText: orderNo }).getByTestId('invoice-red');
  await expect(red).toHaveCount(1);
  const invoices = (await (await page.request.get(`${base()}/api/invoices?order_id=${id}`)).json()).data.list;
  const blue = invoices.find((invoice: { red_of_no: string | null }) => invoice.red_of_no === null);
  await expect(red).toContainText(`冲红：${blue.invoice_no}`);
  const redInvoice = invoices.find((invoice: { red_of_no: string | null }) => invoice.red_of_no !== null);
  expect(redInvoice.amount.startsWith('-')).toBe(true);
  const redPdf = await page.request.get(`${base()}${redInvoice.pdf}`);
  expect(redPdf.status()).toBe(200);
  await page.screenshot({ path: testInfo.outputPath('invoices.png'), fullPage: true });
  await testInfo.attach('invoices', { path: testInfo.outputPath('invoices.png'), contentType: 'image/png' });
});
