// What the browser walks share: the shop's address, its database, signing in.
import { execFileSync } from 'node:child_process';
import { expect, type Page } from '@playwright/test';
import { sqlOn } from '../../scripts/lib/stack.mjs';

export const base = () => process.env.SHOP_URL!;

/** Runs one statement on the shop's database (the walks' SQLite file). */
export const sql = (statement: string, ...params: unknown[]) => sqlOn(process.env.SHOP_DB!, statement, ...params) as unknown[][];

export async function login(page: Page, username = 'demo', password = 'demo123') {
  await page.goto(`${base()}/login`);
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page
    .getByRole('button', { name: '登 录' })
    .or(page.getByRole('button', { name: '登录' }))
    .click();
  await expect(page.getByText('退出')).toBeVisible();
}

/**
 * Waits for the one reload a login makes (§2: the flag `login=1` reloads the page it leads to):
 * a `goto` sent before it would race it, and the reload could land after and win.
 */
export async function afterLoginReload(page: Page) {
  // Polled from here, not in the page, whose clock a walk may have stopped (page.clock); a page
  // whose clock is faked has no navigation entries to tell, and is left to the next step.
  await expect
    .poll(() =>
      page
        .evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type ?? 'none')
        .catch(() => 'navigating'),
    )
    .toMatch(/^(reload|none)$/);
  await page.waitForLoadState();
}

/** The demo member's cart emptied, then filled through the API as the browser's session. */
export async function fillCart(page: Page, goods: [number, number][]) {
  const list = await (await page.request.get(`${base()}/api/cart/list`)).json();
  const ids = list.data.data.map((line: { id: number }) => line.id);
  if (ids.length) await page.request.post(`${base()}/api/cart/batch_delete`, { form: { ids: ids.join(',') } });
  for (const [id, number] of goods) {
    const added = await page.request.post(`${base()}/api/cart`, { form: { goods_id: String(id), number: String(number) } });
    expect(added.status(), await added.text()).toBe(200);
  }
}

/** Runs an operator's command (`origin admin …`) on the shop's database; answers what it printed. */
export function admin(...args: string[]): string {
  return adminAs('e2e', ...args);
}

/** `admin` as another operator: a second pair of eyes, where a rule asks for one. */
export function adminAs(operator: string, ...args: string[]): string {
  const bin = process.env.ORIGIN_BIN ?? `${process.env.CARGO_TARGET_DIR ?? `${process.env.HOME}/.cache/pharma-shop/target`}/debug/origin`;
  return execFileSync(bin, ['admin', '--operator', operator, ...args], {
    env: { ...process.env, DATABASE_URL: `sqlite://${process.env.SHOP_DB}`, RUST_LOG: 'warn' },
  }).toString();
}

/** Runs an operator's command that reads `input` from standard input (a password). */
export function adminWithInput(input: string, ...args: string[]): string {
  const bin = process.env.ORIGIN_BIN ?? `${process.env.CARGO_TARGET_DIR ?? `${process.env.HOME}/.cache/pharma-shop/target`}/debug/origin`;
  return execFileSync(bin, ['admin', '--operator', 'e2e', ...args], {
    input,
    env: { ...process.env, DATABASE_URL: `sqlite://${process.env.SHOP_DB}`, RUST_LOG: 'warn' },
  }).toString();
}

/** At step 2: no coupon, voucher, red packets or points, so that the demo member's stay for the
 * walks that settle with them. */
export async function keepAccounts(page: Page) {
  await page.getByRole('radio', { name: '不使用优惠券' }).check();
  await page.getByRole('radio', { name: '不使用现金券' }).check();
  for (const name of ['使用红包', '使用积分']) {
    const box = page.getByRole('checkbox', { name });
    if (await box.isChecked()) await box.uncheck();
  }
}

/** Orders `number` of one buyable goods (the `offset`-th, so that walks use different goods)
 * through the cart, keeping the demo member's accounts, and pays it from the balance; answers
 * the order's id. */
export async function orderAndPay(page: Page, offset: number, number: number): Promise<number> {
  const [[goods]] = sql(
    'SELECT id FROM goods WHERE is_buy = 1 AND stock > 100 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1 OFFSET ?',
    offset,
  ) as [[number]];
  return orderGoodsAndPay(page, goods, number);
}

/** Orders `number` of goods `goods` through the cart, keeping the demo member's accounts, and
 * pays it from the balance; answers the order's id. */
export async function orderGoodsAndPay(page: Page, goods: number, number: number): Promise<number> {
  await fillCart(page, [[goods, number]]);
  await page.goto(`${base()}/cart`);
  await page.getByRole('button', { name: '去结算' }).click();
  await expect(page).toHaveURL(/\/cart\/step2$/);
  await keepAccounts(page);
  await page.getByRole('button', { name: '提交订单' }).click();
  await expect(page).toHaveURL(/\/cart\/step3\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  await page.getByRole('button', { name: '确认支付' }).click();
  await expect(page).toHaveURL(/\/cart\/step4\?id=\d+$/);
  return id;
}

/** Registration's step 1 at `/register`: the phone, the code the origin sent to it (read from
 * the database), on to step 2. */
export async function registerPhone(page: Page, phone: string) {
  await page.getByLabel('手机号码').fill(phone);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByText('验证码已发送，请注意查收')).toBeVisible();
  const [[code]] = sql('SELECT code FROM sms_codes WHERE phone = ? ORDER BY id DESC LIMIT 1', phone) as [[string]];
  await page.getByPlaceholder('6位验证码').fill(code);
  await page.getByRole('button', { name: '下一步' }).click();
  await expect(page).toHaveURL(/\/register\/step2$/);
}
