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
