// The back office at /admin through the edge, one walk per role at work (docs/backoffice.md):
// - the warehouse finds a paid order by the number on the paper, ships it in two parcels
//   (changing its mind about the units first), reloads and goes back to its filtered list, and
//   the buyer sees the order shipped, parcel by parcel; the warehouse cannot open 员工与权限 and
//   has no 开具 button;
// - finance issues the invoice a buyer asked for, and the buyer downloads it; finance then starts
//   to reverse it (红冲), thinks better of it, reverses it with a reason, and the buyer sees it
//   reversed and asks for the order's invoice again;
// - operations adds a goods with a ladder (a step dearer than the price refused first), the buyer
//   finds it by pinyin and buys ten at the ladder's price; a price change (and an undone edit),
//   下架 and 上架 again are in the buyer's cart at once; the goods exported, changed in the form
//   and imported back (a file that is no workbook refused first);
// - operations uploads two pictures of a new goods (a text file named .png and a picture too
//   small refused first), the buyer's card and goods page show the main one, the second made
//   main (the same file again refused) and moved back, both deleted (one deletion thought better
//   of), and the buyer sees the drawn package again;
// - operations puts a new goods with a ladder into a new 满减 activity (a tier taking less off
//   refused, the preview tried at two quantities), the buyer reaches the tier in the cart, unticks
//   and ticks again, sees a changed tier on reload and orders at the engine's prices; a second
//   activity wanting the goods is warned of; the activity is ended;
// - operations opens a 秒杀 session (a price not below the goods' own refused), the buyer buys
//   within its limit, a reprice and the end reach the cart;
// - operations adds a coupon (a face value at the threshold refused), previews it as a 满减 and a
//   折扣, grants it to a buyer type, the buyer holds it, and a held coupon keeps its face value;
// - operations makes a 组合购 set (a price not below its goods apart refused), the buyer's set line
//   has its price, and is greyed once the set's stock is 0;
// - operations sets up a 满额返现 activity (a tier giving no more than the one below refused, sample
//   amounts tried), a second one overlapping it is refused, the started one is renamed but keeps
//   its tiers; the buyer sees the tiers on /hb, orders, confirms receipt and is paid the tier; the
//   console counts the order and what it got back; ended, /hb shows no activity;
// - operations adds a goods to 天天特价, moves it, thinks better of it (撤销修改), adds it again at
//   the top and saves: the home floor shows it first and /mrtj counts it; taken out, it is gone;
// - operations adds a 积分商品 of red packets (a 实物商品 without its goods refused first), the
//   member redeems it at /jfsc up to the limit, the console counts it, and taken off sale it
//   leaves the mall;
// - operations sets up a 抽奖 activity (no 谢谢参与 refused, the chances tried at two weights),
//   the member draws its one prize in the popup, the console shows it handed out and its chance
//   gone, more stock brings it back, and the activity is ended;
// - operations makes an 活动页 (an address in use refused first) with a section of two goods in
//   the activity template; the buyer opens it at its address, a goods taken out is gone on reload,
//   and once ended the address finds no activity;
// - a super signs in with a TOTP code, adds a customer-service operator, changes the role and
//   disables the account (which then cannot sign in), and finds all of it in 操作日志 with the
//   values before and after.
// After each step the page is compared with the database.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { admin, adminWithInput, base, fillCart, login, orderAndPay, orderGoodsAndPay, sql } from './support';

const PASSWORD = 'Console-2026';

/** RFC 6238's six-digit code of a base32 secret now (30-second steps, HMAC-SHA1). */
function totp(secret: string, now = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...secret.replace(/=+$/, '')].map((char) => alphabet.indexOf(char).toString(2).padStart(5, '0')).join('');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** A new operator of `role` (its name unique to this run); answers its name and, for a super, its TOTP secret. */
function addOperator(role: string): { username: string; secret?: string } {
  const username = `${role}-${Date.now().toString(36)}`;
  const out = adminWithInput(
    `${PASSWORD}\n`,
    'operator',
    'add',
    '--username',
    username,
    '--role',
    role,
    '--name',
    `${role}测试`,
    '--password-stdin',
  );
  expect(out).toContain(`as ${role}`);
  return { username, secret: out.match(/not shown again\): ([A-Z2-7]+)/)?.[1] };
}

/**
 * Chooses `option` in a Select that `open` opens (and types into), until `done` says the form
 * took it: a click on an option can be lost while the dialog around it is still zooming in,
 * the list under the pointer moving, as no hand would click it. In a multiple choice, `taken`
 * (the choice's tag for it) is looked at before each click: a second click on a taken option
 * takes it out again.
 */
async function choose(open: () => Promise<void>, option: Locator, done: () => Promise<void>, taken?: Locator) {
  await expect(async () => {
    if (taken && (await taken.isVisible())) return;
    if (!(await option.isVisible())) await open();
    await option.click({ timeout: 3_000 });
    await done();
  }).toPass({ timeout: 20_000 });
}

/** Adds `option` to a multiple choice, until its tag `taken` shows (`choose`). */
const chooseAlso = (open: () => Promise<void>, option: Locator, taken: Locator) =>
  choose(open, option, () => expect(taken).toBeVisible({ timeout: 3_000 }), taken);

/** The Select whose search box is labelled `label`, inside `scope`: its text is the goods chosen. */
function selectNamed(scope: Locator, label: string): Locator {
  return scope.locator('.ant-select').filter({ has: scope.page().getByRole('combobox', { name: label, exact: true }) });
}

/**
 * The browser contexts a walk opened for itself (an operator's console, a second sign-in), closed
 * when it ends: left open, each kept its page running and its connections to the edge for the
 * rest of the run, so that each walk began with every console of the walks before it still open.
 */
const opened: BrowserContext[] = [];

async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext();
  opened.push(context);
  return context;
}

test.afterEach(async () => {
  for (const context of opened.splice(0)) await context.close();
});

/** A page of its own (its own cookies) signed in to the console as `username`. */
async function consolePage(browser: Browser, username: string, secret?: string): Promise<Page> {
  const page = await (await newContext(browser)).newPage();
  await page.goto(`${base()}/admin/orders?status=1`);
  await expect(page).toHaveURL(/\/admin\/login\?redirect=/);
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码').fill(PASSWORD);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  if (secret) {
    await expect(page.getByLabel('动态验证码')).toBeVisible();
    await page.getByLabel('动态验证码').fill(totp(secret));
    await page.getByRole('button', { name: /登\s*录/ }).click();
  }
  await expect(page.getByTestId('console-operator')).toContainText('测试（');
  await expect(page).toHaveURL(/\/admin\/orders\?status=1$/);
  return page;
}

test('the warehouse ships an order found by its number in two parcels, and the buyer sees it shipped', async ({ page, browser }) => {
  await login(page);
  const id = await orderAndPay(page, 7, 3);
  const [[orderNo, line]] = sql('SELECT o.order_no, i.id FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.id = ?', id) as [
    [string, number],
  ];
  const { username } = addOperator('warehouse');
  const console_ = await consolePage(browser, username);

  // What a warehouse operator may open: no 员工与权限, no 操作日志.
  const menu = console_.getByRole('menu');
  await expect(menu.getByRole('link', { name: '订单', exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: '员工与权限' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: '操作日志' })).toHaveCount(0);
  await console_.goto(`${base()}/admin/operators`);
  await expect(console_.getByText('您的角色没有此页面的权限')).toBeVisible();

  // Found by the number printed on the paper.
  await console_.goto(`${base()}/admin/orders?status=1`);
  await console_.getByLabel('订单号').fill(orderNo);
  await console_.getByRole('button', { name: /查\s*询/ }).click();
  await expect(console_).toHaveURL(new RegExp(`number=${orderNo}`));
  const rows = console_.getByTestId('admin-orders').locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(1);
  // The list as Excel, with its filters: the file is a workbook, and the trail says who took it.
  const [download] = await Promise.all([console_.waitForEvent('download'), console_.getByRole('link', { name: '导出Excel' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^orders-\d{8}-\d{4}\.xlsx$/);
  const workbook = readFileSync(await download.path());
  expect(workbook.subarray(0, 2).toString()).toBe('PK');
  expect(sql("SELECT COUNT(*) FROM audit_log WHERE action = 'orders.export' AND operator = ?", username)).toEqual([[1]]);
  await rows.getByRole('link', { name: orderNo }).click();
  await expect(console_).toHaveURL(new RegExp(`/admin/orders/${orderNo}$`));
  await expect(console_.getByTestId('admin-unshipped')).toHaveText('3');

  // One unit first (the operator types 2, thinks again, takes 1).
  const units = console_.getByRole('spinbutton', { name: /^本次发货/ });
  await expect(units).toHaveValue('3');
  await units.fill('2');
  await units.fill('1');
  await console_.getByLabel('物流公司').fill('顺丰速运');
  await console_.getByLabel('运单号').fill('SF2026112901');
  await console_.getByRole('button', { name: '发货（1件）' }).click();
  await expect(console_.getByText('第1个包裹已发出，还有2件待发货。')).toBeVisible();
  await console_.getByRole('button', { name: /知\s*道\s*了|OK|确\s*定/ }).click();
  await expect(console_.getByTestId('admin-unshipped')).toHaveText('2');
  expect(sql('SELECT shipped FROM order_items WHERE id = ?', line)).toEqual([[1]]);
  await expect(console_.getByTestId('admin-parcel')).toHaveCount(1);
  await expect(console_.getByTestId('admin-parcel')).toContainText('顺丰速运 SF2026112901');
  const [[lotNo]] = sql(
    'SELECT l.lot_no FROM shipment_lots s JOIN goods_lots l ON l.id = s.lot_id JOIN shipment_items i ON i.id = s.shipment_item_id WHERE i.order_item_id = ?',
    line,
  ) as [[string]];
  await expect(console_.getByTestId('admin-parcel')).toContainText(lotNo);

  // A reload shows the same; the buyer already sees the order shipped, one parcel.
  await console_.reload();
  await expect(console_.getByTestId('admin-unshipped')).toHaveText('2');
  const buyer = await (await page.request.get(`${base()}/api/order/${id}`)).json();
  expect([buyer.data.status_name, buyer.data.unshipped, buyer.data.shipments.length]).toEqual(['待收货', 2, 1]);

  // The rest, with a carrier's event on the first parcel.
  await console_.getByLabel('物流公司').fill('顺丰速运');
  await console_.getByLabel('运单号').fill('SF2026112902');
  await console_.getByRole('button', { name: '发货（2件）' }).click();
  await expect(console_.getByText('第2个包裹已发出，订单已全部发货。')).toBeVisible();
  await console_.getByRole('button', { name: /知\s*道\s*了|OK|确\s*定/ }).click();
  await expect(console_.getByTestId('ship-card')).toHaveCount(0);
  await expect(console_.getByTestId('admin-parcel')).toHaveCount(2);
  const first = console_.getByTestId('admin-parcel').first();
  await first.getByLabel('物流地点').fill('杭州');
  await first.getByLabel('物流信息').fill('已到达杭州转运中心');
  await first.getByRole('button', { name: '添加物流信息' }).click();
  await expect(first).toContainText('已到达杭州转运中心');
  const note = await console_.request.get(
    `${base()}/api/admin/orders/${orderNo}/shipments/${(sql('SELECT id FROM shipments WHERE order_id = ? ORDER BY seq', id) as [[number]])[0][0]}/note.pdf`,
  );
  expect(note.status()).toBe(200);
  expect((await note.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // Back to the list it came from: the filter holds, and the order has left 待发货.
  await console_.goBack();
  await expect(console_).toHaveURL(new RegExp(`status=1.*number=${orderNo}|number=${orderNo}.*status=1`));
  await expect(rows).toHaveCount(0);
  await page.goto(`${base()}/order`);
  const after = await (await page.request.get(`${base()}/api/order/${id}`)).json();
  expect([after.data.status_name, after.data.unshipped, after.data.shipments.length]).toEqual(['待收货', 0, 2]);
  expect(after.data.logistics.map((event: { description: string }) => event.description)).toContain('已到达杭州转运中心');

  // The warehouse sees invoices but issues none.
  await console_.goto(`${base()}/admin/invoices`);
  await expect(console_.getByTestId('admin-invoices')).toBeVisible();
  await expect(console_.getByRole('button', { name: '开具' })).toHaveCount(0);
});

test('finance issues the invoice a buyer asked for, the buyer downloads it, and a reversed one is asked for again', async ({
  page,
  browser,
}) => {
  await login(page);
  const id = await orderAndPay(page, 8, 2);
  const [[orderNo]] = sql('SELECT order_no FROM orders WHERE id = ?', id) as [[string]];
  const asked = await page.request.post(`${base()}/api/order/${id}/invoice`, {
    form: { kind: '1', title: '杭州仁心大药房连锁有限公司', tax_no: '91330106MA2B3C4D5E', email: 'caigou@renxin.cn' },
  });
  expect(asked.status(), await asked.text()).toBe(200);
  const { username } = addOperator('finance');
  const console_ = await consolePage(browser, username);

  await console_.goto(`${base()}/admin/invoices?pending=1`);
  await console_.getByLabel('搜索').fill(orderNo);
  await console_.getByRole('button', { name: /查\s*询/ }).click();
  const row = console_.getByTestId('admin-invoices').locator('tbody tr.ant-table-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('待开票');
  await row.getByRole('button', { name: '开具' }).click();
  await console_
    .getByRole('dialog')
    .getByRole('button', { name: /开\s*具/ })
    .click();
  // Issued: it leaves the pending list; without the filter it shows its number.
  await expect(row).toHaveCount(0);
  await console_.getByLabel('只看待开票').click();
  await console_.getByRole('button', { name: /查\s*询/ }).click();
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('已开票');
  const [[invoiceNo]] = sql('SELECT invoice_no FROM invoices WHERE order_id = ?', id) as [[string]];
  await expect(row).toContainText(invoiceNo);

  const invoices = await (await page.request.get(`${base()}/api/invoices?status=1`)).json();
  const mine = invoices.data.list.find((invoice: { order_no: string }) => invoice.order_no === orderNo);
  expect(mine.invoice_no).toBe(invoiceNo);
  const pdf = await page.request.get(`${base()}${mine.pdf}`);
  expect(pdf.status()).toBe(200);
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // The title was wrong: finance opens 红冲, changes its mind, then reverses it with a reason.
  const reverse = console_.getByRole('dialog', { name: '红冲发票' });
  await row.getByRole('button', { name: /红\s*冲/ }).click();
  await expect(reverse.getByRole('button', { name: '确认红冲' })).toBeDisabled();
  await reverse.getByRole('button', { name: /返\s*回/ }).click();
  await expect(reverse).toBeHidden();
  await expect(row).toContainText('已开票');
  expect(sql('SELECT COUNT(*) FROM invoices WHERE order_id = ?', id)).toEqual([[1]]);
  await row.getByRole('button', { name: /红\s*冲/ }).click();
  await expect(reverse.getByLabel('红冲原因')).toHaveValue('');
  await reverse.getByLabel('红冲原因').fill('抬头应为全称');
  await reverse.getByRole('button', { name: '确认红冲' }).click();
  await expect(reverse).toBeHidden();
  await expect(row).toHaveCount(2);
  await expect(row.filter({ hasText: '已红冲' })).toHaveCount(1);
  await expect(row.filter({ hasText: `冲红：${invoiceNo}` })).toContainText(`-¥${mine.amount}`);
  expect(sql('SELECT reversal_reason FROM invoices WHERE invoice_no = ?', invoiceNo)).toEqual([['抬头应为全称']]);

  // The buyer sees it reversed, beside its red-letter one, and asks again from the order.
  await page.goto(`${base()}/zzfw/dzfp?order=${id}`);
  const table = page.getByTestId('invoice-table');
  await expect(table.locator('tbody tr').filter({ hasText: invoiceNo }).filter({ hasText: '已红冲' })).toHaveCount(1);
  await expect(table.locator('tbody tr').filter({ hasText: orderNo }).getByTestId('invoice-red')).toContainText(invoiceNo);
  const form = page.getByTestId('invoice-form');
  await form.getByLabel('发票抬头').fill('杭州仁心大药房连锁有限公司（全称）');
  await form.getByLabel('纳税人识别号').fill('91330106MA2B3C4D5E');
  await form.getByLabel('接收邮箱').fill('caigou@renxin.cn');
  await form.getByRole('button', { name: '提交申请' }).click();
  await expect(form).toBeHidden();
  const rows = table.locator('tbody tr').filter({ hasText: orderNo });
  await expect(rows.filter({ hasText: '待开票' })).toHaveCount(1);
  expect(sql('SELECT title, status FROM invoices WHERE order_id = ? AND red_of IS NULL AND reversed_at IS NULL', id)).toEqual([
    ['杭州仁心大药房连锁有限公司（全称）', 0],
  ]);
  // A reload keeps the form away: the new request stands.
  await page.reload();
  await expect(rows.filter({ hasText: '待开票' })).toHaveCount(1);
  await expect(form).toBeHidden();
});

test('a super signs in with a TOTP code, adds, changes and disables an operator, and reads it all in 操作日志', async ({ browser }) => {
  const boss = addOperator('super');
  expect(boss.secret).toBeTruthy();
  const console_ = await consolePage(browser, boss.username, boss.secret);
  await expect(console_.getByRole('menu').getByRole('link', { name: '员工与权限' })).toBeVisible();

  await console_.goto(`${base()}/admin/operators`);
  await console_.getByRole('button', { name: '添加员工' }).click();
  const dialog = console_.getByRole('dialog');
  const helper = `svc-${Date.now().toString(36)}`;
  await dialog.getByLabel('账号').fill(helper);
  await dialog.getByLabel('姓名').fill('客服小王');
  await choose(
    () => dialog.getByLabel('角色').click(),
    console_.locator('.ant-select-dropdown:visible').getByTitle('客服'),
    () => expect(dialog.locator('.ant-form-item').filter({ hasText: '角色' })).toContainText('客服', { timeout: 3_000 }),
  );
  await dialog.getByLabel('初始密码').fill('short');
  await dialog.getByRole('button', { name: /添\s*加/ }).click();
  await expect(dialog.getByText('密码至少10位')).toBeVisible();
  await dialog.getByLabel('初始密码').fill(PASSWORD);
  await dialog.getByRole('button', { name: /添\s*加/ }).click();
  await expect(dialog.getByText(`已添加员工 ${helper}（客服）`)).toBeVisible();
  await dialog.getByRole('button', { name: /完\s*成/ }).click();
  expect(sql('SELECT role, disabled FROM operators WHERE username = ?', helper)).toEqual([['service', 0]]);

  // The role changed, then the account disabled.
  const row = console_.getByRole('row', { name: new RegExp(helper) });
  await choose(
    () => row.getByLabel(`${helper}的角色`).click(),
    console_.locator('.ant-select-dropdown:visible').getByTitle('只读'),
    () => expect.poll(() => sql('SELECT role FROM operators WHERE username = ?', helper), { timeout: 3_000 }).toEqual([['readonly']]),
  );
  await row.getByRole('button', { name: '停用' }).click();
  await expect(row).toContainText('已停用');
  expect(sql('SELECT disabled FROM operators WHERE username = ?', helper)).toEqual([[1]]);

  // The disabled account cannot sign in.
  const other = await (await newContext(browser)).newPage();
  await other.goto(`${base()}/admin/login`);
  await other.getByLabel('账号').fill(helper);
  await other.getByLabel('密码').fill(PASSWORD);
  await other.getByRole('button', { name: /登\s*录/ }).click();
  await expect(other.getByText('该账号已停用')).toBeVisible();

  // All of it in the trail, newest first, with the values before and after.
  await console_.goto(`${base()}/admin/audit`);
  await console_.getByLabel('员工').fill(boss.username);
  await console_.getByLabel('操作').fill('operator.');
  await console_.getByRole('button', { name: /查\s*询/ }).click();
  const trail = console_.getByTestId('admin-audit').locator('tbody tr.ant-table-row');
  await expect(trail).toHaveCount(4);
  await expect(trail.nth(0)).toContainText('停用');
  await expect(trail.nth(1)).toContainText('角色 客服 → 只读');
  await expect(trail.nth(2)).toContainText(`添加员工 ${helper}（客服）`);
  await expect(trail.nth(3)).toContainText('登录后台');
  await trail
    .nth(1)
    .getByRole('button', { name: /展开|Expand/ })
    .click();
  await expect(console_.getByTestId('admin-audit')).toContainText('"role": "service"');
  await expect(console_.getByTestId('admin-audit')).toContainText('"role": "readonly"');
  const [[count]] = sql("SELECT COUNT(*) FROM audit_log WHERE operator = ? AND action LIKE 'operator.%'", boss.username) as [[number]];
  expect(count).toBe(4);

  // Signing out ends the session: the console asks for the login again.
  await console_.getByRole('button', { name: '退出' }).click();
  await expect(console_).toHaveURL(/\/admin\/login$/);
  await console_.goto(`${base()}/admin/audit`);
  await expect(console_).toHaveURL(/\/admin\/login\?redirect=/);
  expect(admin('operator', 'list')).toContain(`${helper}\t客服小王\treadonly\tno\tdisabled`);
});

test('customer service approves a return the warehouse then refunds, and operations reviews a certificate beside its scan', async ({
  page,
  browser,
}) => {
  await login(page);
  const id = await orderAndPay(page, 9, 2);
  const [[orderNo, line]] = sql('SELECT o.order_no, i.id FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.id = ?', id) as [
    [string, number],
  ];
  expect(admin('ship', orderNo, '--carrier', '顺丰速运', '--tracking', 'SF2026112903')).toContain('nothing left to ship');
  expect((await page.request.post(`${base()}/api/order/${id}/receive`)).status()).toBe(200);
  const asked = await page.request.post(`${base()}/api/order/${id}/return`, { multipart: { lines: `${line}:1`, reason: '5' } });
  expect(asked.status(), await asked.text()).toBe(200);
  const [[returnId, refund]] = sql('SELECT id, refund FROM returns WHERE order_id = ?', id) as [[number, number]];

  // Customer service finds it by the order's number and approves it, saying where to send it.
  const service = await consolePage(browser, addOperator('service').username);
  await service.goto(`${base()}/admin/returns?status=0`);
  await service.getByLabel('搜索').fill(orderNo);
  await service.getByRole('button', { name: /查\s*询/ }).click();
  const row = service.getByTestId('admin-returns').locator('tbody tr.ant-table-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('button', { name: '确认收货退款' })).toHaveCount(0);
  await row.getByRole('button', { name: '同意' }).click();
  await service.getByLabel('寄回说明').fill('寄回：杭州市余杭区仓库');
  await service
    .getByRole('dialog')
    .getByRole('button', { name: /同\s*意/ })
    .click();
  await expect(row).toHaveCount(0);
  expect(sql('SELECT status, operator_note FROM returns WHERE id = ?', returnId)).toEqual([[1, '寄回：杭州市余杭区仓库']]);

  // The warehouse receives it: the refund quoted at the request reaches the balance.
  const [[before]] = sql("SELECT balance FROM members WHERE username = 'demo'") as [[number]];
  const warehouse = await consolePage(browser, addOperator('warehouse').username);
  await warehouse.goto(`${base()}/admin/returns?status=1&search=${orderNo}`);
  const waiting = warehouse.getByTestId('admin-returns').locator('tbody tr.ant-table-row');
  await expect(waiting).toHaveCount(1);
  await expect(waiting.getByRole('button', { name: '同意' })).toHaveCount(0);
  await waiting.getByRole('button', { name: '确认收货退款' }).click();
  await warehouse
    .getByRole('dialog')
    .getByRole('button', { name: /确认退款/ })
    .click();
  await expect(waiting).toHaveCount(0);
  const [[after]] = sql("SELECT balance FROM members WHERE username = 'demo'") as [[number]];
  expect(after - before).toBe(refund);
  const info = await (await page.request.get(`${base()}/api/order/${id}/returns`)).json();
  expect(info.data.returns[0].status_name).toBe('已退款');

  // The demo member hands in a GSP certificate; operations sees its scan beside it and rejects it.
  const png = Buffer.from(
    '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
      '1f15c4890000000d49444154789c6360000000020001e221bc330000000049454e44ae426082',
    'hex',
  );
  const uploaded = await page.request.post(`${base()}/api/user/zizhi`, {
    multipart: {
      kind: 'GSP证书',
      number: 'GSP-ZJ-2026-01',
      expires_on: '2030-12-31',
      file: { name: 'gsp.png', mimeType: 'image/png', buffer: png },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(200);
  const [[member]] = sql("SELECT id FROM members WHERE username = 'demo'") as [[number]];
  const operations = await consolePage(browser, addOperator('operations').username);
  await operations.goto(`${base()}/admin/members?pending=1`);
  await operations
    .getByRole('link', { name: /仁心|demo/ })
    .first()
    .click();
  await expect(operations).toHaveURL(new RegExp(`/admin/members/${member}$`));
  const card = operations.getByTestId('certificate-card').filter({ hasText: 'GSP-ZJ-2026-01' });
  await expect(card.getByRole('img', { name: 'GSP证书扫描件' })).toBeVisible();
  expect(await card.getByRole('img', { name: 'GSP证书扫描件' }).evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);
  const scope = await operations.getByTestId('member-scope').textContent();
  await card.getByLabel('驳回原因').fill('扫描件不清晰，请重新上传');
  await card.getByRole('button', { name: /驳\s*回/ }).click();
  await expect(operations.getByTestId('certificate-card').filter({ hasText: 'GSP-ZJ-2026-01' })).toContainText('未通过');
  await expect(operations.getByTestId('member-scope')).toHaveText(scope!);
  expect(sql("SELECT status, reason FROM qualifications WHERE member_id = ? AND number = 'GSP-ZJ-2026-01'", member)).toEqual([
    [2, '扫描件不清晰，请重新上传'],
  ]);
  const zizhi = await (await page.request.get(`${base()}/api/user/zizhi`)).json();
  const gsp = zizhi.data.list.find((certificate: { number: string }) => certificate.number === 'GSP-ZJ-2026-01');
  expect([gsp.status, gsp.reason]).toEqual([2, '扫描件不清晰，请重新上传']);
});

test('gifts carry a reason, and a large balance gift is paid only once a second operator approves it', async ({ browser }) => {
  const [[member, redBefore, balanceBefore]] = sql("SELECT id, red_packet, balance FROM members WHERE username = 'demo'") as [
    [number, number, number],
  ];

  // Operations gives red packets from the member's page.
  const operations = await consolePage(browser, addOperator('operations').username);
  await operations.goto(`${base()}/admin/members/${member}`);
  const gift = operations.getByTestId('gift-card');
  await expect(gift.getByText('余额', { exact: true })).toHaveCount(0);
  await gift.getByText('红包', { exact: true }).click();
  await gift.getByLabel('金额').fill('12.50');
  await gift.getByRole('button', { name: /赠\s*送/ }).click();
  await expect(gift.getByText('请填写赠送原因')).toBeVisible();
  await gift.getByLabel('原因').fill('老客户回馈');
  await gift.getByRole('button', { name: /赠\s*送/ }).click();
  await expect(gift.getByText('赠送红包¥12.50')).toBeVisible();
  expect((sql("SELECT red_packet FROM members WHERE username = 'demo'") as [[number]])[0][0] - redBefore).toBe(125_000);

  // Finance asks for ¥2,000.00 of balance: it waits; the one who asked cannot approve it.
  const asker = addOperator('finance');
  const finance = await consolePage(browser, asker.username);
  await finance.goto(`${base()}/admin/members/${member}`);
  const card = finance.getByTestId('gift-card');
  await card.getByText('余额', { exact: true }).click();
  await card.getByLabel('金额').fill('2000');
  await card.getByLabel('原因').fill('对公转账充值');
  await card.getByRole('button', { name: /赠\s*送/ }).click();
  await expect(card.getByText(/申请赠送余额¥2000\.00，待另一位员工审批/)).toBeVisible();
  expect((sql("SELECT balance FROM members WHERE username = 'demo'") as [[number]])[0][0]).toBe(balanceBefore);
  await finance.goto(`${base()}/admin/balance-requests`);
  const row = finance.getByTestId('admin-balance-requests').locator('tbody tr.ant-table-row').filter({ hasText: '对公转账充值' });
  await expect(row).toContainText('待审批');
  await expect(row.getByRole('button', { name: /通\s*过/ })).toHaveCount(0);

  // A second finance operator approves it: the balance moves by exactly that.
  const second = await consolePage(browser, addOperator('finance').username);
  await second.goto(`${base()}/admin/balance-requests`);
  const waiting = second.getByTestId('admin-balance-requests').locator('tbody tr.ant-table-row').filter({ hasText: '对公转账充值' });
  await waiting.getByRole('button', { name: /通\s*过/ }).click();
  await expect(waiting).toHaveCount(0);
  expect((sql("SELECT balance FROM members WHERE username = 'demo'") as [[number]])[0][0] - balanceBefore).toBe(20_000_000);
  const [[decided]] = sql("SELECT decided_name FROM balance_requests WHERE reason = '对公转账充值'") as [[string]];
  expect(decided).not.toBe(asker.username);
});

test('customer service answers feedback in 留言, and the member reads the answer', async ({ page, browser }) => {
  await login(page);
  const sent = await page.request.post(`${base()}/api/user/feedback`, { form: { kind: '1', body: '希望订单可按批号导出' } });
  expect(sent.status(), await sent.text()).toBe(200);
  const service = await consolePage(browser, addOperator('service').username);
  await service.goto(`${base()}/admin/messages`);
  const row = service.getByRole('row').filter({ hasText: '希望订单可按批号导出' });
  await row.getByRole('button', { name: /回\s*复/ }).click();
  await service.getByLabel('回复内容').fill('已记录，下个版本提供');
  await service
    .getByRole('dialog')
    .getByRole('button', { name: /提\s*交/ })
    .click();
  await expect(row).toHaveCount(0);
  await service.getByLabel('显示已处理').click();
  await expect(service.getByRole('row').filter({ hasText: '希望订单可按批号导出' })).toContainText('已记录，下个版本提供');
  const mine = await (await page.request.get(`${base()}/api/user/feedback`)).json();
  expect(mine.data.list.find((item: { body: string }) => item.body === '希望订单可按批号导出').reply).toBe('已记录，下个版本提供');
});

test('the warehouse receives a lot with its report, and operations changes a help article the buyer then reads', async ({
  page,
  browser,
}) => {
  const [[goods, stock]] = sql('SELECT id, stock FROM goods WHERE is_buy = 1 ORDER BY id LIMIT 1') as [[number, number]];
  const { username } = addOperator('warehouse');
  const warehouse = await consolePage(browser, username);

  // 批号入库: found by its id, a wrong entry refused, then received; the count follows, and a
  // reload keeps the goods open (it is in the address).
  await warehouse.getByRole('menu').getByRole('link', { name: '批号入库' }).click();
  await warehouse.getByLabel('查找商品').fill(String(goods));
  await warehouse.getByLabel('查找商品').press('Enter');
  await warehouse.getByRole('button', { name: '查看批号' }).first().click();
  await expect(warehouse.getByTestId('stock-count')).toHaveText(`可售库存：${stock}`);
  const form = warehouse.getByRole('form', { name: '入库' });
  const lot = `W${Date.now().toString(36).toUpperCase()}`;
  // The report is chosen first; a date typed and confirmed with Enter submits the form, as in
  // any form.
  await form.getByLabel('批号').fill(lot);
  await form.getByLabel('数量').fill('40');
  await form
    .locator('input[type=file]')
    .setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
  await expect(form.getByText('report.pdf')).toBeVisible();
  await form.getByLabel('生产日期').fill('2026-10-01');
  await form.getByLabel('生产日期').press('Enter');
  await form.getByLabel('有效期至').fill('2026-09-01');
  await form.getByLabel('有效期至').press('Enter');
  await expect(warehouse.getByText('有效期至应晚于生产日期')).toBeVisible();
  expect(sql('SELECT COUNT(*) FROM goods_lots WHERE lot_no = ?', lot)).toEqual([[0]]);
  await form.getByLabel('有效期至').fill('2099-09-30');
  await form.getByLabel('有效期至').press('Enter');
  await expect(warehouse.getByTestId('stock-count')).toHaveText(`可售库存：${stock + 40}`);
  const row = warehouse.getByRole('row').filter({ hasText: lot });
  await expect(row.getByRole('link', { name: '查看' })).toBeVisible();
  expect(sql('SELECT stock FROM goods WHERE id = ?', goods)).toEqual([[stock + 40]]);
  await warehouse.reload();
  await expect(warehouse.getByRole('row').filter({ hasText: lot })).toContainText('40');
  // The warehouse writes no articles.
  await warehouse.goto(`${base()}/admin/articles?kind=help`);
  await expect(warehouse.getByRole('button', { name: '查看' }).first()).toBeVisible();

  // 文章: operations edits 货物配送 beside its preview; the buyer's page shows the change.
  const operations = await consolePage(browser, addOperator('operations').username);
  await operations.goto(`${base()}/admin/articles?kind=help`);
  const [[article, path]] = sql("SELECT id, path FROM articles WHERE kind = 'help' AND path = '/help/zfps/hwps'") as [[number, string]];
  await operations.getByRole('row').filter({ hasText: path }).getByRole('button', { name: '编辑' }).click();
  const body = operations.getByLabel('正文');
  await expect(body).not.toBeEmpty();
  const original = await body.inputValue();
  await body.fill('## 发货时间\n\n**下午五点**前付款，当日发货。');
  await expect(operations.getByTestId('article-preview').locator('strong')).toHaveText('下午五点');
  await operations.getByRole('button', { name: /保\s*存/ }).click();
  await expect(operations).toHaveURL(new RegExp(`edit=${article}`));
  expect(sql('SELECT body FROM articles WHERE id = ?', article)).toEqual([['## 发货时间\n\n**下午五点**前付款，当日发货。']]);
  await page.goto(`${base()}${path}?id=${article}`);
  await expect(page.getByTestId('article-body').locator('strong')).toHaveText('下午五点');
  // Changed back, as it was.
  await operations.reload();
  await operations.getByLabel('正文').fill(original);
  await operations.getByRole('button', { name: /保\s*存/ }).click();
  await expect.poll(() => sql('SELECT body FROM articles WHERE id = ?', article)).toEqual([[original]]);
});

test('operations puts a banner in the carousel, changes it and takes it down, and the home page follows', async ({ page, browser }) => {
  const operations = await consolePage(browser, addOperator('operations').username);
  await operations.getByRole('menu').getByRole('link', { name: '广告与导航' }).click();
  await expect(operations).toHaveURL(/\/admin\/blocks$/);
  const title = `备货节${Date.now().toString(36).slice(-4)}`;

  // Added with a wrong link first (refused, nothing stored), then right.
  await operations.getByRole('button', { name: '添加广告' }).click();
  const dialog = operations.getByRole('dialog');
  await dialog.getByLabel('标题', { exact: true }).fill(title);
  await dialog.getByLabel('副标题').fill('满3000减200');
  await dialog.getByLabel('链接').fill('javascript:alert(1)');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(operations.getByText('链接须为本站页面（/开头）或http(s)://网址')).toBeVisible();
  expect(sql('SELECT COUNT(*) FROM ads WHERE title = ?', title)).toEqual([[0]]);
  await dialog.getByLabel('链接').fill('/zyyp');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toBeHidden();
  const row = operations.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText('/zyyp');
  const [[id]] = sql("SELECT id FROM ads WHERE title = ? AND position = 'focus'", title) as [[number]];

  // The buyer's home page shows it in the carousel (the edge keeps public answers 5 s here).
  await page.goto(`${base()}/`);
  await expect(async () => {
    await page.reload();
    await expect(page.locator(`a.banner[href="/zyyp"] img[alt="${title}"]`).first()).toBeAttached({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });

  // Renamed: the shop's carousel and the stored row follow; a reload of the console keeps the tab.
  await row.getByRole('button', { name: '编辑' }).click();
  await dialog.getByLabel('标题', { exact: true }).fill(`${title}改`);
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(operations.getByRole('row').filter({ hasText: `${title}改` })).toBeVisible();
  expect(sql('SELECT title, subtitle FROM ads WHERE id = ?', id)).toEqual([[`${title}改`, '满3000减200']]);
  await expect(async () => {
    await page.reload();
    await expect(page.locator(`a.banner img[alt="${title}改"]`).first()).toBeAttached({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });

  // Taken down, after a second thought (the first 删除 is cancelled).
  const renamed = operations.getByRole('row').filter({ hasText: `${title}改` });
  await renamed.getByRole('button', { name: /删\s*除/ }).click();
  await operations.getByRole('button', { name: /取\s*消/ }).click();
  expect(sql('SELECT COUNT(*) FROM ads WHERE id = ?', id)).toEqual([[1]]);
  await renamed.getByRole('button', { name: /删\s*除/ }).click();
  await operations.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(renamed).toHaveCount(0);
  expect(sql('SELECT COUNT(*) FROM ads WHERE id = ?', id)).toEqual([[0]]);
  await expect(async () => {
    await page.reload();
    await expect(page.locator(`a.banner img[alt="${title}改"]`)).toHaveCount(0, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  expect(sql('SELECT action FROM audit_log WHERE target = ? ORDER BY id', `ad:${id}`)).toEqual([
    ['block.add'],
    ['block.change'],
    ['block.delete'],
  ]);
});

test('a read-only operator reads everything, including the trail, and changes nothing, in the page or past it', async ({
  page,
  browser,
}) => {
  await login(page);
  const id = await orderAndPay(page, 3, 1);
  const [[orderNo]] = sql('SELECT order_no FROM orders WHERE id = ?', id) as [[string]];
  const { username } = addOperator('readonly');
  const reader = await consolePage(browser, username);

  // Every reading screen is in the menu, the trail too; 员工与权限 is not.
  const menu = reader.getByRole('menu');
  for (const name of [
    '工作台',
    '会员',
    '订单',
    '发票',
    '商品',
    '批号入库',
    '满减活动',
    '秒杀',
    '文章',
    '广告与导航',
    '店铺设置',
    '操作日志',
  ])
    await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: '员工与权限' })).toHaveCount(0);

  // The order, without the means to ship or cancel it.
  await reader.goto(`${base()}/admin/orders/${orderNo}`);
  await expect(reader.getByTestId('admin-unshipped')).toHaveText('1');
  await expect(reader.getByRole('button', { name: /^发货（/ })).toHaveCount(0);
  await expect(reader.getByRole('button', { name: '取消订单' })).toHaveCount(0);

  // The settings, shown but not changeable; no 添加 among the banners.
  await reader.goto(`${base()}/admin/settings`);
  await expect(reader.getByLabel('店铺名称')).toBeDisabled();
  await expect(reader.getByRole('button', { name: '保存店铺信息' })).toHaveCount(0);
  await reader.goto(`${base()}/admin/blocks`);
  await expect(reader.getByTestId('admin-blocks').getByRole('row').nth(1)).toBeVisible();
  await expect(reader.getByRole('button', { name: '添加广告' })).toHaveCount(0);
  // The goods, listed and opened, with neither 新增商品, the bulk actions nor a 保存修改.
  await reader.goto(`${base()}/admin/goods`);
  await expect(reader.getByTestId('admin-goods').locator('tbody tr.ant-table-row').first()).toBeVisible();
  await expect(reader.getByRole('button', { name: '新增商品' })).toHaveCount(0);
  await expect(reader.getByTestId('goods-bulk')).toHaveCount(0);
  await reader.getByTestId('admin-goods').locator('tbody tr.ant-table-row').first().getByRole('link').click();
  await expect(reader.getByLabel('商品名称', { exact: true })).toBeDisabled();
  await expect(reader.getByRole('button', { name: '保存修改' })).toHaveCount(0);
  // 满减 and 秒杀: listed and opened, with nothing to add, save or end.
  await reader.goto(`${base()}/admin/manjian`);
  await expect(reader.getByTestId('admin-manjian').locator('tbody tr.ant-table-row').first()).toBeVisible();
  await expect(reader.getByRole('link', { name: '新增活动' })).toHaveCount(0);
  await expect(reader.getByRole('button', { name: /结\s*束/ })).toHaveCount(0);
  await reader.getByTestId('admin-manjian').locator('tbody tr.ant-table-row').first().getByRole('link').click();
  await expect(reader.getByLabel('活动名称')).toBeDisabled();
  await expect(reader.getByRole('button', { name: '保存活动' })).toHaveCount(0);
  await reader.goto(`${base()}/admin/flash-sales`);
  await expect(reader.getByTestId('admin-flash').locator('tbody tr.ant-table-row').first()).toBeVisible();
  await expect(reader.getByRole('button', { name: '新增秒杀' })).toHaveCount(0);
  await expect(reader.getByRole('button', { name: /修\s*改/ })).toHaveCount(0);

  // Past the page, the server refuses the write itself, and nothing is stored.
  const refused = await reader.evaluate(async (order) => {
    const response = await fetch(`/api/admin/orders/${order}/ship`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'carrier=顺丰速运&tracking=SF1',
    });
    return { status: response.status, body: await response.json() };
  }, orderNo);
  expect(refused).toMatchObject({ status: 403, body: { msg: '您的角色没有此操作的权限' } });
  expect(sql('SELECT COUNT(*) FROM shipments WHERE order_id = ?', id)).toEqual([[0]]);

  // The trail: reachable, filtered to this operator, holding only the sign-in.
  await reader.goto(`${base()}/admin/audit`);
  await expect(reader.getByTestId('admin-audit')).toBeVisible();
  expect(sql("SELECT action FROM audit_log WHERE operator = ? AND action <> 'operator.login'", username)).toEqual([]);
});

test('operations adds a goods with a ladder, reprices it and takes it off sale, and the buyer sees each change', async ({
  page,
  browser,
}) => {
  const { username } = addOperator('operations');
  const console_ = await consolePage(browser, username);
  const named = () => sql("SELECT COUNT(*) FROM goods WHERE name = '紫苏梗颗粒'");
  const before = named();
  await console_.goto(`${base()}/admin/goods`);
  await console_.getByRole('button', { name: '新增商品' }).click();
  await expect(console_).toHaveURL(/\/admin\/goods\/new$/);
  const form = console_.getByTestId('admin-goods-form');
  await form.getByLabel('商品名称', { exact: true }).fill('紫苏梗颗粒');
  await form.getByLabel('生产厂家', { exact: true }).fill('测试制药有限公司');
  await form.getByLabel('规格', { exact: true }).fill('10g*6袋');
  await form.getByLabel('单位', { exact: true }).fill('盒');
  await form.getByLabel('分类', { exact: true }).click();
  await console_.locator('.ant-select-item-option').first().click();
  await form.getByLabel('价格', { exact: true }).fill('25.00');
  await form.getByRole('button', { name: '添加一档' }).click();
  await form.getByLabel('第1档数量').fill('10');
  await form.getByLabel('第1档单价').fill('26');
  await form.getByRole('button', { name: '新增商品' }).click();
  // The origin refuses a step dearer than the price, on the ladder; nothing is added.
  await expect(form).toContainText('阶梯价 10 件起的单价应低于价格 25.00');
  expect(named()).toEqual(before);
  await form.getByLabel('第1档单价').fill('23.50');
  await form.getByRole('button', { name: '新增商品' }).click();
  await expect(console_).toHaveURL(/\/admin\/goods\/\d+$/);
  const id = Number(console_.url().split('/').pop());
  expect(sql('SELECT name, price, stock, is_buy FROM goods WHERE id = ?', id)).toEqual([['紫苏梗颗粒', 250000, 0, 1]]);
  expect(sql('SELECT number, price FROM goods_ladders WHERE goods_id = ?', id)).toEqual([[10, 235000]]);
  await expect(console_.getByTestId('goods-prices').locator('tbody tr')).toHaveCount(1);

  // The warehouse receives a lot; the buyer finds it by its pinyin's initials and buys ten.
  admin('lot', 'add', String(id), '--lot', `ZS${id}`, '--produced', '2026-10-01', '--expires', '2099-09-30', '--quantity', '500');
  await login(page);
  await page.goto(`${base()}/search?keyword=zsgkl`);
  await expect(page.getByRole('link', { name: /紫苏梗颗粒/ }).first()).toBeVisible();
  await fillCart(page, [[id, 10]]);
  await page.goto(`${base()}/cart`);
  const row = page.getByTestId('cart-row').filter({ hasText: '紫苏梗颗粒' });
  await expect(row.getByTestId('unit-price')).toHaveText('¥23.50');

  // Operations changes two fields; a third typed and then undone is not sent.
  await form.getByLabel('价格', { exact: true }).fill('24.00');
  await form.getByLabel('第1档单价').fill('22.80');
  await form.getByLabel('通用名', { exact: true }).fill('草稿');
  await form.getByRole('button', { name: /撤销未保存的修改/ }).click();
  await expect(form.getByLabel('通用名', { exact: true })).toHaveValue('');
  await expect(form.getByLabel('价格', { exact: true })).toHaveValue('25.00');
  await form.getByLabel('价格', { exact: true }).fill('24.00');
  await form.getByLabel('第1档单价').fill('22.80');
  await form.getByRole('button', { name: '保存修改' }).click();
  await expect(console_.getByTestId('goods-changed')).toHaveText('已修改2项：价格、阶梯价');
  await expect(console_.getByTestId('goods-prices').locator('tbody tr')).toHaveCount(2);
  expect(sql('SELECT price, common_name FROM goods WHERE id = ?', id)).toEqual([[240000, '']]);
  await page.reload();
  await expect(row.getByTestId('unit-price')).toHaveText('¥22.80');

  // 下架 from the list: the buyer's line cannot be bought; 上架 again and the buyer ticks it again.
  await console_.getByRole('link', { name: '返回商品列表' }).click();
  await console_.getByLabel('搜索').fill(String(id));
  await console_.getByRole('button', { name: /查\s*询/ }).click();
  // The goods searched for by its id comes first (others may hold the digits in their names).
  const listed = console_.getByTestId('admin-goods').locator('tbody tr.ant-table-row').first();
  await expect(listed.getByRole('cell', { name: String(id), exact: true })).toBeVisible();
  await listed.locator('.ant-checkbox-input').check();
  await console_
    .getByTestId('goods-bulk')
    .getByRole('button', { name: /下\s*架/ })
    .click();
  await expect(listed).toContainText('已下架');
  expect(sql('SELECT is_buy FROM goods WHERE id = ?', id)).toEqual([[0]]);
  await page.reload();
  await expect(row).toHaveClass(/unbuyable/);
  await expect(row.getByRole('checkbox')).toBeDisabled();
  await listed.locator('.ant-checkbox-input').check();
  await console_
    .getByTestId('goods-bulk')
    .getByRole('button', { name: /上\s*架/ })
    .click();
  await expect(listed).toContainText('在售');
  await page.reload();
  await expect(row.getByRole('checkbox')).toBeEnabled();
  await row.getByRole('checkbox').check();
  await expect(row.getByRole('checkbox')).toBeChecked();
  const cart = await (await page.request.get(`${base()}/api/cart/list`)).json();
  const line = cart.data.quote.lines.find((quoted: { id: number }) => quoted.id === cart.data.data[0].id);
  expect([line.is_selected, line.sellable, line.unit_price]).toEqual([1, true, '22.80']);

  // The sheet: exported as the list finds it, then, after a price changed in the form, imported
  // back: the dry run shows the one change, the import writes it, and again it changes nothing.
  const [download] = await Promise.all([console_.waitForEvent('download'), console_.getByRole('link', { name: '导出Excel' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^goods-\d{8}-\d{4}\.xlsx$/);
  const sheet = test.info().outputPath('goods.xlsx');
  await download.saveAs(sheet);
  await listed.getByRole('link').first().click();
  await form.getByLabel('价格', { exact: true }).fill('26.00');
  await form.getByRole('button', { name: '保存修改' }).click();
  await expect(console_.getByTestId('goods-changed')).toHaveText('已修改1项：价格');
  await console_.getByRole('link', { name: '返回商品列表' }).click();
  await console_.getByRole('button', { name: '导入Excel' }).click();
  const dialog = console_.getByRole('dialog', { name: '导入商品表' });
  await dialog.getByLabel('选择商品表').setInputFiles({ name: 'notes.xlsx', mimeType: 'text/plain', buffer: Buffer.from('价格') });
  await expect(dialog.getByTestId('import-failed')).toHaveText('请上传 .xlsx 格式的表格');
  await dialog.getByLabel('选择商品表').setInputFiles(sheet);
  const report = dialog.getByTestId('import-report');
  await expect(report).toContainText('将新增0个，修改1个');
  await expect(report).toContainText('价格：26.00 → 24.00');
  expect(sql('SELECT price FROM goods WHERE id = ?', id)).toEqual([[260000]]);
  await dialog.getByRole('button', { name: '确认导入' }).click();
  await expect(report).toContainText('已导入：新增0个，修改1个');
  expect(sql('SELECT price FROM goods WHERE id = ?', id)).toEqual([[240000]]);
  await expect(listed).toContainText('¥24.00');
  await dialog.getByLabel('选择商品表').setInputFiles(sheet);
  await expect(report).toContainText(/将新增0个，修改0个，\d+个不变/);
  await expect(dialog.getByRole('button', { name: '确认导入' })).toBeDisabled();
});

/** A PNG of `width`×`height` pixels of one colour with a word on it, drawn by the browser. */
async function drawPng(browser: Browser, width: number, height: number, colour: string, word: string): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.setContent(
    `<body style="margin:0"><div style="width:${width}px;height:${height}px;background:${colour};font:48px sans-serif;color:#fff">${word}</div></body>`,
  );
  const png = await page.screenshot({ clip: { x: 0, y: 0, width, height } });
  await page.close();
  return png;
}

test('operations uploads pictures of a goods, makes the second the main one and deletes them, and the buyer’s pages follow', async ({
  page,
  browser,
}) => {
  const { username } = addOperator('operations');
  const console_ = await consolePage(browser, username);
  const name = `蒲公英颗粒${Date.now().toString(36).slice(-4)}`;
  await console_.goto(`${base()}/admin/goods/new`);
  const form = console_.getByTestId('admin-goods-form');
  // A goods not yet saved has no pictures to keep.
  await expect(form.getByLabel('商品名称', { exact: true })).toBeVisible();
  await expect(console_.getByTestId('goods-pictures-card')).toHaveCount(0);
  await form.getByLabel('商品名称', { exact: true }).fill(name);
  await form.getByLabel('生产厂家', { exact: true }).fill('测试制药有限公司');
  await form.getByLabel('规格', { exact: true }).fill('10g*10袋');
  await form.getByLabel('单位', { exact: true }).fill('盒');
  await form.getByLabel('分类', { exact: true }).click();
  await console_.locator('.ant-select-item-option').first().click();
  await form.getByLabel('价格', { exact: true }).fill('18.00');
  await form.getByRole('button', { name: '新增商品' }).click();
  await expect(console_).toHaveURL(/\/admin\/goods\/\d+$/);
  const id = Number(console_.url().split('/').pop());
  const card = console_.getByTestId('goods-pictures-card');
  await expect(card).toContainText('还没有上传图片');
  const kept = () => sql('SELECT id, file_name, width, height FROM goods_pictures WHERE goods_id = ? ORDER BY sort, id', id);
  const shown = async () =>
    await card.getByTestId('goods-picture').evaluateAll((cards) => cards.map((element) => Number(element.getAttribute('data-picture'))));
  const input = card.locator('input[type=file]');

  // Refused by content, whatever the name says, and a picture too small; nothing is kept.
  await input.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('这不是图片') });
  await expect(card.getByTestId('pictures-error')).toHaveText('fake.png：只能上传JPG或PNG文件');
  await input.setInputFiles({ name: 'small.png', mimeType: 'image/png', buffer: await drawPng(browser, 150, 300, '#999', '小') });
  await expect(card.getByTestId('pictures-error')).toHaveText('small.png：图片至少200×200像素，这张为150×300');
  expect(kept()).toEqual([]);

  // Two pictures in one upload, kept in the order chosen, each scaled by the origin.
  const front = await drawPng(browser, 1200, 900, '#2e7d32', '正面');
  const back = await drawPng(browser, 400, 600, '#1565c0', '背面');
  await input.setInputFiles([
    { name: 'front.png', mimeType: 'image/png', buffer: front },
    { name: 'back.png', mimeType: 'image/png', buffer: back },
  ]);
  await expect(card.getByTestId('goods-picture')).toHaveCount(2);
  await expect(card.getByTestId('pictures-error')).toHaveCount(0);
  const [first, second] = kept();
  expect([first.slice(1), second.slice(1)]).toEqual([
    ['front.png', 800, 600],
    ['back.png', 400, 600],
  ]);
  expect(await shown()).toEqual([first[0], second[0]]);
  await expect(card.getByTestId('goods-picture').first()).toContainText('主图');

  // The buyer finds it: its card shows the main picture's thumbnail, through the edge.
  await login(page);
  const cardImage = async () => {
    await page.goto(`${base()}/search?keyword=${encodeURIComponent(name)}`);
    const image = page.locator(`img[alt="${name}"]`).first();
    await expect(image).toHaveJSProperty('complete', true);
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
    return image.getAttribute('src');
  };
  expect(await cardImage()).toBe(`/api/images/pictures/${first[0]}/thumb.jpg`);
  const thumb = await page.request.get(`${base()}/api/images/pictures/${first[0]}/thumb.jpg`);
  expect([thumb.status(), thumb.headers()['content-type']]).toEqual([200, 'image/jpeg']);
  expect(thumb.headers()['cache-control']).toContain('immutable');
  // The goods page shows the large one, and the second when its thumbnail is chosen.
  await page.goto(`${base()}/list/info/${id}`);
  const main = page.getByTestId('detail-picture');
  await expect(main).toHaveAttribute('src', `/api/images/pictures/${first[0]}/large.jpg`);
  await expect.poll(() => main.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(800);
  await page.getByRole('listitem', { name: '第2张图片' }).click();
  await expect(main).toHaveAttribute('src', `/api/images/pictures/${second[0]}/large.jpg`);

  // The second is made the main one; the same file again is refused; the console, reloaded,
  // shows what the database keeps, and so do the buyer's card and page.
  await card.getByTestId('goods-picture').nth(1).getByRole('button', { name: '设为主图' }).click();
  await expect.poll(shown).toEqual([second[0], first[0]]);
  expect(kept().map((row) => row[0])).toEqual([second[0], first[0]]);
  await input.setInputFiles({ name: 'again.png', mimeType: 'image/png', buffer: front });
  await expect(card.getByTestId('pictures-error')).toHaveText('again.png：这张图片已上传过');
  expect(kept()).toHaveLength(2);
  await console_.reload();
  await expect.poll(shown).toEqual([second[0], first[0]]);
  await expect(card.getByTestId('goods-picture').first()).toContainText('主图');
  expect(await cardImage()).toBe(`/api/images/pictures/${second[0]}/thumb.jpg`);
  await page.goto(`${base()}/list/info/${id}`);
  await expect(main).toHaveAttribute('src', `/api/images/pictures/${second[0]}/large.jpg`);
  // Moved right again: the front is first once more.
  await card
    .getByTestId('goods-picture')
    .first()
    .getByRole('button', { name: /右\s*移/ })
    .click();
  await expect.poll(shown).toEqual([first[0], second[0]]);
  expect(kept().map((row) => row[0])).toEqual([first[0], second[0]]);

  // Deleted one by one (the first deletion thought better of): the next becomes the main
  // picture, and with none left the buyer sees the package drawn for the goods.
  const confirm = console_.locator('.ant-popconfirm:visible');
  const remove = async (at: number) => {
    await card
      .getByTestId('goods-picture')
      .nth(at)
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await confirm.getByRole('button', { name: /删\s*除/ }).click();
  };
  await card
    .getByTestId('goods-picture')
    .first()
    .getByRole('button', { name: /删\s*除/ })
    .click();
  await confirm.getByRole('button', { name: /取\s*消/ }).click();
  await expect(confirm).toHaveCount(0);
  expect(kept()).toHaveLength(2);
  await remove(0);
  await expect.poll(shown).toEqual([second[0]]);
  expect(kept().map((row) => row[0])).toEqual([second[0]]);
  expect(await cardImage()).toBe(`/api/images/pictures/${second[0]}/thumb.jpg`);
  await remove(0);
  await expect(card).toContainText('还没有上传图片');
  expect(kept()).toEqual([]);
  expect(await cardImage()).toBe(`/api/images/goods/${id}.svg`);
  const gone = await page.request.get(`${base()}/api/images/pictures/${first[0]}/large.jpg`);
  expect(gone.status()).toBe(404);
  expect(sql("SELECT COUNT(*) FROM audit_log WHERE action = 'goods.pictures' AND target = ?", `goods:${id}`)).toEqual([[5]]);
});

test('operations puts a new goods with a ladder into a new 满减 activity, the buyer reaches its tier and orders at the engine’s prices', async ({
  page,
  browser,
}) => {
  const { username } = addOperator('operations');
  const console_ = await consolePage(browser, username);
  const name = `板蓝根满减颗粒${Date.now().toString(36).slice(-4)}`;

  // The goods, with a ladder of 18.00 from ten, and stock received by lot.
  await console_.goto(`${base()}/admin/goods/new`);
  const goodsForm = console_.getByTestId('admin-goods-form');
  await goodsForm.getByLabel('商品名称', { exact: true }).fill(name);
  await goodsForm.getByLabel('生产厂家', { exact: true }).fill('测试制药有限公司');
  await goodsForm.getByLabel('规格', { exact: true }).fill('10g*20袋');
  await goodsForm.getByLabel('单位', { exact: true }).fill('盒');
  await goodsForm.getByLabel('分类', { exact: true }).click();
  await console_.locator('.ant-select-item-option').first().click();
  await goodsForm.getByLabel('价格', { exact: true }).fill('20.00');
  await goodsForm.getByRole('button', { name: '添加一档' }).click();
  await goodsForm.getByLabel('第1档数量').fill('10');
  await goodsForm.getByLabel('第1档单价').fill('18.00');
  await goodsForm.getByRole('button', { name: '新增商品' }).click();
  await expect(console_).toHaveURL(/\/admin\/goods\/\d+$/);
  const goods = Number(console_.url().split('/').pop());
  admin('lot', 'add', String(goods), '--lot', `MJ${goods}`, '--produced', '2026-10-01', '--expires', '2099-09-30', '--quantity', '500');

  // A new activity: two tiers (a third added and removed), the goods found by name.
  await console_.getByRole('link', { name: '满减活动' }).click();
  await console_.getByTestId('admin-manjian').getByRole('link', { name: '新增活动' }).click();
  await expect(console_).toHaveURL(/\/admin\/manjian\/new$/);
  const form = console_.getByTestId('manjian-form');
  await form.getByLabel('活动名称').fill(`${name}满150减15`);
  await form.getByLabel('第1档门槛').fill('150');
  await form.getByLabel('第1档减额').fill('15');
  await form.getByRole('button', { name: '添加一档' }).click();
  await form.getByLabel('第2档门槛').fill('300');
  await form.getByLabel('第2档减额').fill('10');
  await form.getByRole('button', { name: '添加一档' }).click();
  await expect(form.getByLabel('第3档门槛')).toBeVisible();
  await form
    .getByRole('button', { name: /删\s*除/ })
    .last()
    .click();
  await expect(form.getByLabel('第3档门槛')).toHaveCount(0);
  await chooseAlso(
    () => form.getByLabel('参加商品').fill(name),
    console_.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: name }),
    form.locator('.ant-select-selection-item').filter({ hasText: name }),
  );
  await console_.keyboard.press('Escape');

  // The origin refuses a second tier that takes less off; nothing is saved.
  const activities = () => sql('SELECT COUNT(*) FROM manjian_activities');
  const before = activities();
  await form.getByRole('button', { name: '新增活动' }).click();
  await expect(form).toContainText('第2档减额须大于第1档');
  expect(activities()).toEqual(before);
  await form.getByLabel('第2档减额').fill('40');

  // The preview: ten at the ladder's 18.00 reach 满150减15; five at 20.00 do not; ten again.
  const preview = console_.getByTestId('manjian-preview');
  await form.getByRole('button', { name: /试\s*算/ }).click();
  await expect(preview.getByTestId('preview-discount')).toHaveText('¥15.00');
  await expect(preview.getByTestId('preview-payable')).toHaveText('¥165.00');
  await preview.getByLabel(`试算数量 ${goods}`).fill('5');
  await form.getByRole('button', { name: /试\s*算/ }).click();
  await expect(preview.getByTestId('preview-discount')).toHaveText('¥0.00');
  await expect(preview.getByTestId('manjian-preview-result')).toContainText('还差¥50.00');
  await preview.getByLabel(`试算数量 ${goods}`).fill('10');
  await form.getByRole('button', { name: /试\s*算/ }).click();
  await expect(preview.getByTestId('preview-discount')).toHaveText('¥15.00');
  expect(activities()).toEqual(before);

  await form.getByRole('button', { name: '新增活动' }).click();
  await expect(console_).toHaveURL(/\/admin\/manjian\/\d+$/);
  const activity = Number(console_.url().split('/').pop());
  expect(sql('SELECT manjian_id FROM goods WHERE id = ?', goods)).toEqual([[activity]]);
  expect(sql('SELECT amount, reduce FROM manjian_tiers WHERE activity_id = ? ORDER BY sort', activity)).toEqual([
    [1_500_000, 150_000],
    [3_000_000, 400_000],
  ]);

  // The buyer finds it by pinyin, puts ten in the cart: the ladder and the tier reached.
  await login(page);
  await page.goto(`${base()}/search?keyword=blgmjkl`);
  await expect(page.getByRole('link', { name: new RegExp(name) }).first()).toBeVisible();
  await fillCart(page, [[goods, 10]]);
  await page.goto(`${base()}/cart`);
  const row = page.getByTestId('cart-row').filter({ hasText: name });
  await expect(row.getByTestId('unit-price')).toHaveText('¥18.00');
  await expect(page.getByTestId('tiers')).toContainText('满150减15（已满足）');
  await expect(page.getByTestId('discount')).toHaveText('-¥15.00');
  await expect(page.getByTestId('payable')).toHaveText('¥165.00');

  // Unticked, the tier is lost; ticked again, it is back — each time as the server quotes it.
  const server = async () => (await (await page.request.get(`${base()}/api/cart/list`)).json()).data.quote.totals;
  await row.getByRole('checkbox').uncheck();
  await expect(page.getByTestId('payable')).toHaveText('¥0.00');
  await expect.poll(async () => (await server()).discount).toBe('0.00');
  await row.getByRole('checkbox').check();
  await expect(page.getByTestId('discount')).toHaveText('-¥15.00');
  await expect.poll(async () => (await server()).discount).toBe('15.00');

  // Operations changes the first tier to 满150减20: the buyer's reload has it.
  await console_.reload();
  await expect(form.getByLabel('第1档减额')).toHaveValue('15.00');
  await form.getByLabel('第1档减额').fill('20');
  await form.getByRole('button', { name: '保存活动' }).click();
  await expect(console_.getByTestId('manjian-saved')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('discount')).toHaveText('-¥20.00');
  expect((await server()).discount).toBe('20.00');

  // A second activity wanting the same goods is warned of, and left unsaved.
  await console_.goto(`${base()}/admin/manjian/new`);
  await form.getByLabel('活动名称').fill('冲突的活动');
  await form.getByLabel('第1档门槛').fill('100');
  await form.getByLabel('第1档减额').fill('5');
  await chooseAlso(
    () => form.getByLabel('参加商品').fill(name),
    console_.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: name }),
    form.locator('.ant-select-selection-item').filter({ hasText: name }),
  );
  await console_.keyboard.press('Escape');
  await form.getByRole('button', { name: '新增活动' }).click();
  await expect(console_.getByTestId('manjian-conflict')).toContainText(`1个商品已在其他满减活动中：${name}`);
  await expect(console_.getByTestId('manjian-preview-result')).toContainText('1个商品已在其他满减活动中');
  await console_.goBack();
  expect(sql('SELECT manjian_id FROM goods WHERE id = ?', goods)).toEqual([[activity]]);

  // The order: its lines at the engine's prices, the reduction on the activity's line.
  const cart = await (await page.request.get(`${base()}/api/cart/list`)).json();
  const quoted = cart.data.quote.lines[0];
  await page.getByRole('button', { name: '去结算' }).click();
  await expect(page).toHaveURL(/\/cart\/step2$/);
  await page.getByRole('button', { name: '提交订单' }).click();
  await expect(page).toHaveURL(/\/cart\/step3\/\d+$/);
  const order = Number(new URL(page.url()).pathname.split('/').pop());
  expect(sql('SELECT goods_id, number, price, amount, goods_manjian_amount FROM order_items WHERE order_id = ?', order)).toEqual([
    [goods, 10, 180_000, 1_800_000, 200_000],
  ]);
  expect([quoted.unit_price, quoted.amount, quoted.goods_manjian_amount]).toEqual(['18.00', '180.00', '20.00']);
  // The buyer changes their mind: the unpaid order is cancelled, and the coupon or voucher step 2
  // chose for it is theirs again (other walks count on the demo member's coupons).
  const cancelled = await page.request.post(`${base()}/api/order/${order}/cancel`);
  expect(cancelled.status(), await cancelled.text()).toBe(200);
  expect(sql('SELECT COUNT(*) FROM member_coupons WHERE order_id = ?', order)).toEqual([[0]]);
  expect(sql('SELECT COUNT(*) FROM member_cash_vouchers WHERE order_id = ?', order)).toEqual([[0]]);

  // Ended from the list: the goods' page no longer offers it.
  await console_.goto(`${base()}/admin/manjian`);
  const listed = console_
    .getByTestId('admin-manjian')
    .locator('tbody tr')
    .filter({ hasText: `${name}满150减15` });
  await expect(listed).toContainText('进行中');
  await listed.getByRole('button', { name: /结\s*束/ }).click();
  await console_.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(listed).toContainText('已结束');
  const offered = await (await page.request.get(`${base()}/api/goods/activities?goods_id=${goods}`)).json();
  expect(offered.data.manjian).toBeNull();
});

test('operations opens a 秒杀 session, reprices and ends it, and the buyer’s cart follows each step within its limit', async ({
  page,
  browser,
}) => {
  const { username } = addOperator('operations');
  const console_ = await consolePage(browser, username);
  const [[goods, name, stored]] = sql(
    `SELECT id, name, price FROM goods WHERE is_buy = 1 AND stock > 100 AND ladder_price_type = 0 AND price > 100000
       AND id NOT IN (SELECT goods_id FROM flash_sales) AND id NOT IN (SELECT goods_id FROM goods_ladders) ORDER BY id DESC LIMIT 1`,
  ) as [[number, string, number]];
  const own = (stored / 10_000).toFixed(2);
  const flashPrice = ((Math.floor(stored / 10_000) * 100 - 50) / 100).toFixed(2);

  // The session: a price not below the goods' own is refused, then the engine's preview.
  await console_.goto(`${base()}/admin/flash-sales`);
  await console_.getByRole('button', { name: '新增秒杀' }).click();
  const dialog = console_.getByRole('dialog', { name: '新增秒杀' });
  await choose(
    () => dialog.getByLabel('秒杀商品').fill(String(goods)),
    console_.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: new RegExp(`^${goods} `) }),
    () => expect(dialog.locator('.ant-form-item').filter({ hasText: '秒杀商品' })).toContainText(`${goods} ${name}`, { timeout: 3_000 }),
  );
  await dialog.getByLabel('秒杀价').fill(own);
  await dialog.getByLabel('每人限购').fill('2');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toContainText(`秒杀价须低于商品价格¥${own}`);
  expect(sql('SELECT COUNT(*) FROM flash_sales WHERE goods_id = ?', goods)).toEqual([[0]]);
  await dialog.getByLabel('秒杀价').fill(flashPrice);
  await dialog.getByRole('button', { name: /试\s*算/ }).click();
  const preview = dialog.getByTestId('flash-preview');
  await expect(preview).toContainText(`¥${(Number(flashPrice) * 2).toFixed(2)}`);
  await expect(preview).toContainText(`¥${(Number(own) * 2).toFixed(2)}`);
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toBeHidden();
  const row = console_.getByTestId('admin-flash').locator('tbody tr').filter({ hasText: name });
  await expect(row).toContainText('进行中');
  const [[sale]] = sql('SELECT id FROM flash_sales WHERE goods_id = ?', goods) as [[number]];

  // The buyer puts the limit in the cart as a flash-sale line; one more is refused.
  await login(page);
  await fillCart(page, []);
  const added = await page.request.post(`${base()}/api/cart`, { form: { goods_id: String(goods), number: '2', type: '1' } });
  expect(added.status(), await added.text()).toBe(200);
  const more = await page.request.post(`${base()}/api/cart`, { form: { goods_id: String(goods), number: '1', type: '1' } });
  expect(more.status()).toBe(422);
  expect((await more.json()).msg).toContain('秒杀商品每人限购2');
  await page.goto(`${base()}/cart`);
  const line = page.getByTestId('cart-row').filter({ hasText: name });
  await expect(line.getByTestId('unit-price')).toHaveText(`¥${flashPrice}`);
  const quoted = async () => (await (await page.request.get(`${base()}/api/cart/list`)).json()).data.quote.lines[0];

  // Repriced one yuan lower while it runs: the buyer's reload has it, as the server quotes it.
  const lower = (Number(flashPrice) - 1).toFixed(2);
  await row.getByRole('button', { name: /修\s*改/ }).click();
  const change = console_.getByRole('dialog', { name: `修改秒杀场次 ${sale}` });
  await expect(change.getByLabel('秒杀价')).toHaveValue(flashPrice);
  await change.getByLabel('秒杀价').fill(lower);
  await change.getByRole('button', { name: /保\s*存/ }).click();
  await expect(change).toBeHidden();
  await expect(row).toContainText(`¥${lower}`);
  await page.reload();
  await expect(line.getByTestId('unit-price')).toHaveText(`¥${lower}`);
  expect((await quoted()).unit_price).toBe(lower);

  // Ended: the line is greyed and cannot be ticked; the server agrees.
  await row.getByRole('button', { name: /结\s*束/ }).click();
  await console_.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(row).toContainText('已结束');
  await page.reload();
  await expect(line).toHaveClass(/unbuyable/);
  expect((await quoted()).sellable).toBe(false);
  expect(sql('SELECT action FROM audit_log WHERE target = ? ORDER BY id', `flash:${sale}`)).toEqual([
    ['flash.add'],
    ['flash.change'],
    ['flash.end'],
  ]);
});

test('operations adds a coupon the engine previews, changes its mind on the face value, grants it to a buyer type, and the buyer holds it', async ({
  page,
  browser,
}) => {
  const { username } = addOperator('operations');
  const console_ = await consolePage(browser, username);
  const title = `满300减15-${Date.now().toString(36).slice(-4)}`;
  await console_.goto(`${base()}/admin/coupons`);
  await console_.getByRole('button', { name: '新增优惠券' }).click();
  const dialog = console_.getByRole('dialog', { name: '新增优惠券' });
  await dialog.getByLabel('名称').fill(title);
  await dialog.getByLabel('使用门槛').fill('300');
  await dialog.getByLabel('面额').fill('300');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toContainText('面额须小于使用门槛');
  expect(sql('SELECT COUNT(*) FROM coupons WHERE title = ?', title)).toEqual([[0]]);

  // The engine's preview: just below the threshold it is not usable; at it, 15 off.
  await dialog.getByLabel('面额').fill('15');
  await dialog.getByLabel('试算金额').fill('299.99,300,600');
  await dialog.getByRole('button', { name: /试\s*算/ }).click();
  const rows = dialog.getByTestId('template-preview').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('不可用');
  await expect(rows.nth(0)).toContainText('¥0.01');
  await expect(rows.nth(1)).toContainText('¥15.00');
  // A discount instead, previewed, then back to the 满减 the shop wants.
  await dialog.getByLabel('折扣券').check();
  await dialog.getByLabel('折扣', { exact: true }).fill('0.9');
  await dialog.getByRole('button', { name: /试\s*算/ }).click();
  await expect(rows.nth(2)).toContainText('¥60.00');
  await dialog.getByLabel('满减券').check();
  await dialog.getByRole('button', { name: /试\s*算/ }).click();
  await expect(rows.nth(2)).toContainText('¥15.00');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toBeHidden();
  const [[coupon, kind, amount, minAmount]] = sql('SELECT id, kind, amount, min_amount FROM coupons WHERE title = ?', title) as [
    [number, number, number, number],
  ];
  expect([kind, amount, minAmount]).toEqual([1, 150_000, 3_000_000]);
  const row = console_.getByTestId('admin-coupons').locator('tbody tr').filter({ hasText: title });
  await expect(row).toContainText('满300减15');

  // Granted to the demo member's buyer type, twice each, with a reason.
  const [[buyerType]] = sql("SELECT buyer_type FROM members WHERE username = 'demo'") as [[number]];
  const typeName = ['', '单体药店', '连锁药店', '诊所', '医院/卫生院', '批发企业'][buyerType];
  await row.getByRole('button', { name: /发\s*放/ }).click();
  const grant = console_.getByRole('dialog', { name: `发放「${title}」` });
  await grant.getByLabel('按客户类型').check();
  // Chosen by the keyboard, as an operator who knows the list does: the first type is active.
  const types = grant.getByRole('combobox', { name: '客户类型' });
  await types.focus();
  await types.press('Enter');
  for (let step = 1; step < buyerType; step++) await types.press('ArrowDown');
  await types.press('Enter');
  await expect(grant).toContainText(typeName);
  await grant.getByLabel('每人张数').fill('2');
  await grant.getByRole('button', { name: /发\s*放/ }).click();
  await expect(grant).toContainText('请填写发放原因');
  await grant.getByLabel('发放原因').fill('老客户回馈');
  await grant.getByRole('button', { name: /发\s*放/ }).click();
  const [[members]] = sql('SELECT COUNT(*) FROM members WHERE is_passed = 1 AND buyer_type = ?', buyerType) as [[number]];
  await expect(grant.getByTestId('grant-done')).toHaveText(`已发放给${members}位会员`);
  await grant.getByRole('button', { name: '关 闭', exact: true }).click();
  await expect(row).toContainText(`${members * 2}/0`);

  // The buyer holds two, as the wallet shows them.
  await login(page);
  await page.goto(`${base()}/wdqb/yhq`);
  const cards = page.getByTestId('coupon-card').filter({ hasText: title });
  await expect(cards).toHaveCount(2);
  await expect(cards.first()).toContainText('满300可用');
  expect(
    sql("SELECT COUNT(*) FROM member_coupons m JOIN members u ON u.id = m.member_id WHERE u.username = 'demo' AND m.coupon_id = ?", coupon),
  ).toEqual([[2]]);

  // Held, its face value cannot change; its name can.
  await row.getByRole('button', { name: /修\s*改/ }).click();
  const change = console_.getByRole('dialog', { name: `修改优惠券 ${coupon}` });
  await change.getByLabel('面额').fill('20');
  await change.getByRole('button', { name: /保\s*存/ }).click();
  await expect(change.getByTestId('template-refused')).toContainText('不能修改面额、门槛和适用范围');
  await change.getByLabel('面额').fill('15.00');
  await change.getByLabel('名称').fill(`${title}（回馈）`);
  await change.getByRole('button', { name: /保\s*存/ }).click();
  await expect(change).toBeHidden();
  expect(sql('SELECT title, amount FROM coupons WHERE id = ?', coupon)).toEqual([[`${title}（回馈）`, 150_000]]);
});

test('operations makes a 组合购 set priced below its goods, the buyer’s set line follows its price and its stock', async ({
  page,
  browser,
}) => {
  const { username } = addOperator('operations');
  const console_ = await consolePage(browser, username);
  const picked = sql(
    `SELECT id, name, price FROM goods WHERE is_buy = 1 AND stock > 100 AND price > 100000
       AND id NOT IN (SELECT goods_id FROM goods_ladders) ORDER BY id DESC LIMIT 2`,
  ) as [number, string, number][];
  const [[first, firstName, firstPrice], [second, , secondPrice]] = picked;
  const apart = ((firstPrice * 2 + secondPrice) / 10_000).toFixed(2);
  const price = ((firstPrice * 2 + secondPrice) / 10_000 - 5).toFixed(2);
  const name = `测试组合${Date.now().toString(36).slice(-4)}`;

  await console_.goto(`${base()}/admin/combinations`);
  await console_.getByRole('button', { name: '新增组合' }).click();
  const dialog = console_.getByRole('dialog', { name: '新增组合' });
  await dialog.getByLabel('组合名称').fill(name);
  for (const [index, goods] of [first, second].entries()) {
    await choose(
      () => dialog.getByLabel(`第${index + 1}个商品`, { exact: true }).fill(String(goods)),
      console_.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: new RegExp(`^${goods} `) }),
      () => expect(selectNamed(dialog, `第${index + 1}个商品`)).toContainText(`${goods} `, { timeout: 3_000 }),
    );
  }
  await dialog.getByLabel('第1个商品数量').fill('2');
  await dialog.getByLabel('组合价').fill(apart);
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toContainText(`组合价须低于单买合计¥${apart}`);
  expect(sql('SELECT COUNT(*) FROM combinations WHERE name = ?', name)).toEqual([[0]]);
  await dialog.getByLabel('组合价').fill(price);
  await dialog.getByRole('button', { name: /试\s*算/ }).click();
  await expect(dialog.getByTestId('set-preview')).toContainText(`¥${price}`);
  await expect(dialog.getByTestId('set-preview')).toContainText(`¥${apart}`);
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toBeHidden();
  const [[set]] = sql('SELECT id FROM combinations WHERE name = ?', name) as [[number]];
  expect(sql('SELECT goods_id, number FROM combination_items WHERE combination_id = ? ORDER BY id', set)).toEqual([
    [first, 2],
    [second, 1],
  ]);
  const row = console_.getByTestId('admin-combinations').locator('tbody tr').filter({ hasText: name });
  await expect(row).toContainText(`${firstName}×2`);

  // The buyer's set line is the set, at its price; out of stock, it is greyed.
  await login(page);
  await fillCart(page, []);
  const added = await page.request.post(`${base()}/api/cart`, {
    form: { goods_id: String(first), number: '1', type: '3', combination_id: String(set) },
  });
  expect(added.status(), await added.text()).toBe(200);
  await page.goto(`${base()}/cart`);
  const line = page.getByTestId('cart-row').filter({ hasText: name });
  await expect(line.getByTestId('unit-price')).toHaveText(`¥${price}`);
  await row.getByRole('button', { name: /修\s*改/ }).click();
  const change = console_.getByRole('dialog', { name: `修改组合 ${set}` });
  await expect(change.getByLabel('组合价')).toHaveValue(price);
  await change.getByLabel('组合库存').fill('0');
  await change.getByRole('button', { name: /保\s*存/ }).click();
  await expect(change).toBeHidden();
  await page.reload();
  await expect(line).toHaveClass(/unbuyable/);
  const cart = await (await page.request.get(`${base()}/api/cart/list`)).json();
  expect(cart.data.quote.lines[0].sellable).toBe(false);
});

test('operations sets up a 满额返现 activity, renames it but keeps its started tiers, and the buyer is paid its tier', async ({
  page,
  browser,
}) => {
  const { username } = addOperator('operations');
  const console_ = await consolePage(browser, username);
  const title = `测试返现${Date.now().toString(36).slice(-4)}`;
  try {
    await console_.goto(`${base()}/admin/cashback`);
    await console_.getByRole('button', { name: '新增返现活动' }).click();
    const dialog = console_.getByRole('dialog', { name: '新增返现活动' });
    await dialog.getByLabel('活动名称').fill(title);
    await dialog.getByLabel('第1档门槛').fill('10');
    await dialog.getByLabel('第1档返现').fill('1');
    await dialog.getByRole('button', { name: '添加一档' }).click();
    await dialog.getByLabel('第2档门槛').fill('20');
    await dialog.getByLabel('第2档返现').fill('1');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect(dialog).toContainText('第2档返现须大于第1档');
    expect(sql('SELECT COUNT(*) FROM cashback_activities WHERE title = ?', title)).toEqual([[0]]);
    await dialog.getByLabel('第2档返现').fill('3');
    await dialog.getByLabel('试算金额').fill('9.99,25');
    await dialog.getByRole('button', { name: /试\s*算/ }).click();
    const tried = dialog.getByTestId('cashback-preview').locator('tbody tr');
    await expect(tried.nth(0)).toContainText('未达门槛');
    await expect(tried.nth(1)).toContainText('满20返3');
    await expect(tried.nth(1)).toContainText('¥3.00');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect(dialog).toBeHidden();
    const [[id]] = sql('SELECT id FROM cashback_activities WHERE title = ?', title) as [[number]];
    expect(sql('SELECT amount, back FROM cashback_tiers WHERE activity_id = ? ORDER BY amount', id)).toEqual([
      [100_000, 10_000],
      [200_000, 30_000],
    ]);
    const row = console_.getByTestId('admin-cashback').locator('tbody tr').filter({ hasText: title });
    await expect(row).toContainText('进行中');
    await expect(row).toContainText('满10返1、满20返3');

    // A second activity over the same days is refused, naming the first.
    await console_.getByRole('button', { name: '新增返现活动' }).click();
    const second = console_.getByRole('dialog', { name: '新增返现活动' });
    await second.getByLabel('活动名称').fill(`${title}乙`);
    await second.getByLabel('第1档门槛').fill('50');
    await second.getByLabel('第1档返现').fill('5');
    await second.getByRole('button', { name: /保\s*存/ }).click();
    await expect(second.getByTestId('cashback-refusal')).toHaveText(`与返现活动${id}「${title}」时间重叠：同一时间只能有一个返现活动`);
    await second.getByRole('button', { name: /取\s*消/ }).click();
    expect(sql('SELECT COUNT(*) FROM cashback_activities WHERE title = ?', `${title}乙`)).toEqual([[0]]);

    // Started: its tiers cannot be touched, its title can.
    await row.getByRole('button', { name: /修\s*改/ }).click();
    const change = console_.getByRole('dialog', { name: `修改返现活动 ${id}` });
    await expect(change.getByLabel('第2档返现')).toBeDisabled();
    await expect(change.getByLabel('第2档返现')).toHaveValue('3.00');
    await change.getByLabel('活动名称').fill(`${title}（加码）`);
    await change.getByRole('button', { name: /保\s*存/ }).click();
    await expect(change).toBeHidden();
    expect(sql('SELECT title FROM cashback_activities WHERE id = ?', id)).toEqual([[`${title}（加码）`]]);

    // The buyer sees the tiers, orders over the second, confirms receipt and is paid 3.00.
    await login(page);
    await page.goto(`${base()}/hb`);
    await expect(page.getByTestId('cashback-tiers')).toContainText('¥20.00');
    await expect(page.getByTestId('cashback-tiers')).toContainText('¥3.00');
    const [[goods]] = sql(
      `SELECT g.id FROM goods g WHERE g.is_buy = 1 AND g.stock > 100 AND g.price BETWEEN 100000 AND 500000 AND g.manjian_id = 0
         AND NOT EXISTS (SELECT 1 FROM goods_ladders l WHERE l.goods_id = g.id) AND g.id NOT IN (SELECT goods_id FROM flash_sales)
       ORDER BY g.id DESC LIMIT 1`,
    ) as [[number]];
    const order = await orderGoodsAndPay(page, goods, 3);
    expect(sql('SELECT cashback_activity_id FROM orders WHERE id = ?', order)).toEqual([[id]]);
    expect(admin('ship', String(order), '--carrier', '顺丰速运', '--tracking', 'SF2026112902')).toContain('shipped');
    await page.goto(`${base()}/order/info/${order}`);
    await page.getByRole('button', { name: '确认收货' }).click();
    await page.getByRole('button', { name: /确\s?定/ }).click();
    await expect(page.getByTestId('order-status')).toHaveText('已完成');
    expect(sql('SELECT cashback FROM orders WHERE id = ?', order)).toEqual([[30_000]]);
    const [[orderNo]] = sql('SELECT order_no FROM orders WHERE id = ?', order) as [[string]];
    await page.goto(`${base()}/hb`);
    await expect(page.getByTestId('cashback-orders')).toContainText(orderNo);

    await console_.reload();
    await expect(row).toContainText('¥3.00');
    await expect(row.locator('td').nth(5)).toHaveText('1');

    // Ended: orders from now on earn nothing, and /hb says so.
    await row.getByRole('button', { name: /结\s*束/ }).click();
    await console_.getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect(row).toContainText('已结束');
    await page.goto(`${base()}/hb`);
    await expect(page.getByText('活动未开始')).toBeVisible();
  } finally {
    sql(
      'UPDATE cashback_activities SET ends_at = ? WHERE title LIKE ? AND ends_at > ?',
      Math.floor(Date.now() / 1000),
      `${title}%`,
      Math.floor(Date.now() / 1000),
    );
  }
});

test('operations puts a goods first in 天天特价, the home floor and /mrtj show it at once, and taking it out undoes that', async ({
  page,
  browser,
}) => {
  const { username } = addOperator('operations');
  const console_ = await consolePage(browser, username);
  const before = (sql('SELECT goods_id FROM everyday_specials ORDER BY sort, goods_id') as [number][]).map(([id]) => id);
  const [[goods, name]] = sql(
    'SELECT id, name FROM goods WHERE is_buy = 1 AND stock > 0 AND id NOT IN (SELECT goods_id FROM everyday_specials) ORDER BY id DESC LIMIT 1',
  ) as [[number, string]];
  const specials = console_.getByTestId('admin-specials');
  const rows = specials.locator('tbody tr');
  const addIt = async () => {
    await choose(
      () => specials.getByLabel('加入商品').fill(String(goods)),
      console_.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: new RegExp(`^${goods} `) }),
      () => expect(selectNamed(specials, '加入商品')).toContainText(`${goods} `, { timeout: 3_000 }),
    );
    await specials.getByRole('button', { name: '加入特价' }).click();
  };
  try {
    await console_.goto(`${base()}/admin/specials`);
    await expect(rows).toHaveCount(before.length);
    await addIt();
    await expect(rows.last()).toContainText(name);
    await rows
      .last()
      .getByRole('button', { name: /上\s*移/ })
      .click();
    await expect(rows.nth(before.length - 1)).toContainText(name);
    // Changed its mind: the saved list comes back, nothing was written.
    await specials.getByRole('button', { name: '撤销修改' }).click();
    await expect(rows).toHaveCount(before.length);
    expect(sql('SELECT COUNT(*) FROM everyday_specials WHERE goods_id = ?', goods)).toEqual([[0]]);

    await addIt();
    for (let at = before.length; at > 0; at -= 1)
      await rows
        .nth(at)
        .getByRole('button', { name: /上\s*移/ })
        .click();
    await expect(rows.first()).toContainText(name);
    await specials.getByRole('button', { name: /保\s*存/ }).click();
    await expect(specials.getByTestId('specials-saved')).toHaveText(`已保存：${before.length + 1}个商品`);
    expect((sql('SELECT goods_id FROM everyday_specials ORDER BY sort') as [number][]).map(([id]) => id)).toEqual([goods, ...before]);

    const floor = page.locator('section.floor').filter({ has: page.getByRole('heading', { name: '天天特价' }) });
    await page.goto(`${base()}/`);
    await expect(floor.locator('.goods-card').first()).toHaveAttribute('data-goods-id', String(goods));
    await page.goto(`${base()}/mrtj`);
    await expect(page.getByText(`共 ${before.length + 1} 件商品`)).toBeVisible();

    // Taken out again: the console's list, the floor and the count agree with the server.
    await console_.reload();
    await rows
      .first()
      .getByRole('button', { name: /移\s*出/ })
      .click();
    await specials.getByRole('button', { name: /保\s*存/ }).click();
    await expect(specials.getByTestId('specials-saved')).toHaveText(`已保存：${before.length}个商品`);
    await expect(rows).toHaveCount(before.length);
    await page.reload();
    await expect(page.getByText(`共 ${before.length} 件商品`)).toBeVisible();
    await page.goto(`${base()}/`);
    await expect(floor.locator('.goods-card').first()).not.toHaveAttribute('data-goods-id', String(goods));
  } finally {
    sql('DELETE FROM everyday_specials WHERE goods_id = ?', goods);
  }
});

test('operations adds a 积分商品 of red packets, the member redeems it up to its limit, and taken off sale it leaves the mall', async ({
  page,
  browser,
}) => {
  const { username } = addOperator('operations');
  const console_ = await consolePage(browser, username);
  const name = `测试积分红包${Date.now().toString(36).slice(-4)}`;
  try {
    await console_.goto(`${base()}/admin/points-goods`);
    await console_.getByRole('button', { name: '新增积分商品' }).click();
    const dialog = console_.getByRole('dialog', { name: '新增积分商品' });
    await dialog.getByLabel('商品名称').fill(name);
    await dialog.getByLabel('兑换积分').fill('10');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect(dialog).toContainText('请选择兑换的商品');
    expect(sql('SELECT COUNT(*) FROM points_goods WHERE name = ?', name)).toEqual([[0]]);
    await choose(
      () => dialog.getByLabel('商品类型').click(),
      console_.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '账户红包' }),
      () => expect(dialog.getByLabel('红包金额')).toBeVisible({ timeout: 3_000 }),
    );
    await dialog.getByLabel('红包金额').fill('2');
    await dialog.getByLabel('库存').fill('5');
    await dialog.getByLabel('每人限兑').fill('1');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect(dialog).toBeHidden();
    const [[id]] = sql('SELECT id FROM points_goods WHERE name = ?', name) as [[number]];
    expect(sql('SELECT kind, red_packet, points, stock, per_member, is_on FROM points_goods WHERE id = ?', id)).toEqual([
      [3, 20_000, 10, 5, 1, 1],
    ]);
    const row = console_.getByTestId('admin-points-goods').locator('tbody tr').filter({ hasText: name });
    await expect(row).toContainText('红包¥2.00');

    // The member redeems one; the limit of one then holds.
    await login(page);
    const [[points]] = sql("SELECT points FROM members WHERE username = 'demo'") as [[number]];
    await page.goto(`${base()}/jfsc`);
    await page.locator('.mall-filters').getByText('账户红包', { exact: true }).click();
    const card = page.getByTestId('mall-item').filter({ hasText: name });
    await expect(card).toContainText('10积分');
    await card.getByRole('button', { name: '立即兑换' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确认兑换' }).click();
    await expect(page.getByText('兑换成功，已存入您的账户')).toBeVisible();
    await expect(page.getByTestId('mall-points')).toHaveText(String(points - 10));
    await expect(card.getByRole('button', { name: '已达兑换上限' })).toBeDisabled();
    await console_.reload();
    await expect(row.locator('td').nth(4)).toHaveText('4');
    await expect(row.locator('td').nth(5)).toHaveText('1');

    // Off sale: the mall no longer shows it.
    await row.getByRole('button', { name: /修\s*改/ }).click();
    const change = console_.getByRole('dialog', { name: `修改积分商品 ${id}` });
    await expect(change.getByLabel('红包金额')).toHaveValue('2.00');
    await change.getByLabel('上架').click();
    await change.getByRole('button', { name: /保\s*存/ }).click();
    await expect(change).toBeHidden();
    await expect(row).toContainText('下架');
    await page.reload();
    await page.locator('.mall-filters').getByText('账户红包', { exact: true }).click();
    await expect(page.getByTestId('mall-item').first()).toBeVisible();
    await expect(card).toHaveCount(0);
  } finally {
    sql('UPDATE points_goods SET is_on = 0 WHERE name = ?', name);
  }
});

test('operations sets up a 抽奖 activity with its odds, the member draws its prize, and the console keeps count', async ({
  page,
  browser,
}) => {
  const { username } = addOperator('operations');
  const console_ = await consolePage(browser, username);
  const title = `测试抽奖${Date.now().toString(36).slice(-4)}`;
  try {
    await console_.goto(`${base()}/admin/draws`);
    await console_.getByRole('button', { name: '新增抽奖活动' }).click();
    const dialog = console_.getByRole('dialog', { name: '新增抽奖活动' });
    await dialog.getByLabel('活动名称').fill(title);
    // Without 谢谢参与: refused.
    await choose(
      () => dialog.getByLabel('第1个奖品类型').click(),
      console_.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: /^积分$/ }),
      () => expect(dialog.getByLabel('第1个奖品积分')).toBeVisible({ timeout: 3_000 }),
    );
    await dialog.getByLabel('第1个奖品积分').fill('5');
    await dialog.getByLabel('第1个奖品数量').fill('10');
    await dialog.getByLabel('第2个奖品名称').fill('88积分');
    await dialog.getByLabel('第2个奖品积分').fill('88');
    await dialog.getByLabel('第2个奖品数量').fill('1');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect(dialog).toContainText('须有且只有一个“谢谢参与”');
    expect(sql('SELECT COUNT(*) FROM draw_activities WHERE title = ?', title)).toEqual([[0]]);

    await choose(
      () => dialog.getByLabel('第1个奖品类型').click(),
      console_.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '谢谢参与' }),
      () => expect(dialog.getByLabel('第1个奖品积分')).toHaveCount(0, { timeout: 3_000 }),
    );
    await dialog.getByLabel('第1个奖品权重').fill('1');
    await dialog.getByLabel('第2个奖品权重').fill('3');
    await dialog.getByRole('button', { name: '试算中奖概率' }).click();
    const chances = dialog.getByTestId('draw-preview').locator('tbody tr');
    await expect(chances.nth(0)).toContainText('25.00%');
    await expect(chances.nth(1)).toContainText('75.00%');
    await dialog.getByLabel('第2个奖品权重').fill('999999');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect(dialog).toBeHidden();
    const [[id]] = sql('SELECT id FROM draw_activities WHERE title = ?', title) as [[number]];
    expect(sql('SELECT name, kind, points, weight, stock FROM draw_prizes WHERE activity_id = ? ORDER BY sort', id)).toEqual([
      ['谢谢参与', 0, 0, 1, 0],
      ['88积分', 2, 88, 999_999, 1],
    ]);

    // The member draws it in the popup (999,999 chances in 1,000,000).
    await login(page);
    const popup = page.getByRole('dialog').filter({ hasText: title });
    await expect(popup).toBeVisible();
    await popup.getByRole('button', { name: '立即抽奖' }).click();
    await expect(popup.getByTestId('draw-result')).toContainText('抽中88积分', { timeout: 10_000 });
    await popup.getByRole('button', { name: '知道了' }).click();
    await expect(popup).toHaveCount(0);

    const row = console_.getByTestId('admin-draws').locator('tbody tr').filter({ hasText: title });
    await console_.reload();
    await expect(row).toContainText('88积分 0.00%');
    await expect(row).toContainText('谢谢参与 100.00%');
    await expect(row.locator('td').nth(5)).toHaveText('1');

    // Its prize drawn keeps its kind; more stock brings its chance back.
    await row.getByRole('button', { name: /修\s*改/ }).click();
    const change = console_.getByRole('dialog', { name: `修改抽奖活动 ${id}` });
    await expect(change).toContainText('已发1');
    await expect(change.locator('.ant-select-disabled').filter({ hasText: '积分' })).toHaveCount(1);
    await change.getByLabel('第2个奖品数量').fill('5');
    await change.getByRole('button', { name: /保\s*存/ }).click();
    await expect(change).toBeHidden();
    await expect(row).toContainText('88积分 100.00%');
    expect(sql('SELECT stock, handed FROM draw_prizes WHERE activity_id = ? AND kind = 2', id)).toEqual([[5, 1]]);

    await row.getByRole('button', { name: /结\s*束/ }).click();
    await console_.getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect(row).toContainText('已结束');
  } finally {
    sql('UPDATE draw_activities SET is_on = 0 WHERE title = ?', title);
  }
});

test('operations makes an 活动页 with a section of goods, the buyer opens it at its address, and each change shows', async ({
  page,
  browser,
}) => {
  const { username } = addOperator('operations');
  const console_ = await consolePage(browser, username);
  const stamp = Date.now().toString(36).slice(-5);
  const [title, url] = [`测试活动页${stamp}`, `t-${stamp}`];
  const picked = sql('SELECT id, name FROM goods WHERE is_buy = 1 AND stock > 0 ORDER BY id DESC LIMIT 2') as [number, string][];
  try {
    await console_.goto(`${base()}/admin/activities`);
    await console_.getByRole('button', { name: '新增活动页' }).click();
    const dialog = console_.getByRole('dialog', { name: '新增活动页' });
    await dialog.getByLabel('活动名称').fill(title);
    await dialog.getByLabel('页面地址').fill('winter');
    await dialog.getByLabel('第1个栏目名称').fill('本周推荐');
    for (const [goods, name] of picked) {
      await chooseAlso(
        () => dialog.getByLabel('第1个栏目商品').fill(String(goods)),
        console_.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: new RegExp(`^${goods} `) }),
        dialog.locator('.ant-select-multiple .ant-select-selection-item').filter({ hasText: name }),
      );
    }
    // The goods list stays open under the section, over the dialog's buttons: a click meant for
    // 保存 while it is open lands on an option and takes that goods out again. Close it first.
    await dialog.getByLabel('第1个栏目名称').click();
    await expect(console_.locator('.ant-select-dropdown:visible')).toHaveCount(0);
    await expect(dialog.locator('.ant-select-multiple .ant-select-selection-item')).toContainText(
      picked.map(([goods, name]) => `${goods} ${name}`),
    );
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    const [[winter]] = sql("SELECT id FROM activities WHERE url = 'winter'") as [[number]];
    await expect(dialog).toContainText(`页面地址已被活动${winter}使用`);
    expect(sql('SELECT COUNT(*) FROM activities WHERE title = ?', title)).toEqual([[0]]);
    await dialog.getByLabel('页面地址').fill(url);
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect(dialog).toBeHidden();
    const [[id]] = sql('SELECT id FROM activities WHERE url = ?', url) as [[number]];
    expect(
      sql(
        'SELECT a.goods_id FROM activity_goods a JOIN activity_sections s ON s.id = a.section_id WHERE s.activity_id = ? ORDER BY a.sort',
        id,
      ),
    ).toEqual(picked.map(([goods]) => [goods]));
    const row = console_.getByTestId('admin-activities').locator('tbody tr').filter({ hasText: title });
    await expect(row).toContainText('本周推荐（2）');

    // The buyer opens it at its address, in the activity template.
    await page.goto(`${base()}/activity/${url}`);
    await expect(page).toHaveURL(new RegExp(`/hdmb\\?id=${id}$`));
    await expect(page.getByTestId('activity-banner')).toContainText(title);
    await expect(page.getByTestId('activity').locator('.goods-card')).toHaveCount(2);

    // One goods taken out: gone on the buyer's reload.
    await row.getByRole('button', { name: /修\s*改/ }).click();
    const change = console_.getByRole('dialog', { name: `修改活动页 ${id}` });
    await change
      .locator('.ant-select-selection-item')
      .filter({ hasText: picked[0][1] })
      .locator('.ant-select-selection-item-remove')
      .click();
    await change.getByRole('button', { name: /保\s*存/ }).click();
    await expect(change).toBeHidden();
    await expect(row).toContainText('本周推荐（1）');
    await page.reload();
    await expect(page.getByTestId('activity').locator('.goods-card')).toHaveCount(1);
    await expect(page.getByTestId('activity').locator('.goods-card')).toHaveAttribute('data-goods-id', String(picked[1][0]));

    // Ended: the address finds no activity.
    await row.getByRole('button', { name: /结\s*束/ }).click();
    await console_.getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect(row).toContainText('已结束');
    await page.goto(`${base()}/activity/${url}`);
    await expect(page).toHaveURL(/\/noActivity$/);
  } finally {
    sql('UPDATE activities SET is_on = 0 WHERE title = ?', title);
  }
});
