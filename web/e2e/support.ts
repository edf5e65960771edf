// What the browser walks share: the shop's address, its database, signing in.
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
