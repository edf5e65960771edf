// Help and news in Chromium, through the edge: the header's and footer's help links, the
// payment-and-delivery help under the login-style header, news lists and articles with their
// neighbours, and an article holding a script shown as text, never run.
import { expect, test } from '@playwright/test';
import { admin, base, sql } from './support';

test('the help links open their articles, 66 first, and 支付与配送 has its own frame', async ({ page }) => {
  await page.goto(`${base()}/`);
  await page.locator('.top-bar').getByRole('link', { name: '帮助中心' }).click();
  await expect(page).toHaveURL(/\/help\/xrzn\/hyzc\?id=66$/);
  await expect(page).toHaveTitle('会员注册 - 医药批发商城');
  await expect(page.getByTestId('article-title')).toHaveText('会员注册');
  const [[body]] = sql('SELECT body FROM articles WHERE id = 66') as [[string]];
  // The text after the last placeholder ({{shop.name}} and the like, filled from the settings).
  await expect(page.getByTestId('article-body')).toContainText(body.split('\n')[0].split('}}').pop()!.slice(0, 20));
  await expect(page.getByTestId('article-body')).not.toContainText('{{');
  // The help groups are kept in local storage for the next visit (§3).
  expect(await page.evaluate(() => localStorage.getItem('help-categories'))).toContain('会员注册');

  // The footer's help groups are the same data; its 会员注册 is article 66 too.
  await page.goto(`${base()}/`);
  await page.locator('.footer').getByRole('link', { name: '会员注册' }).click();
  await expect(page).toHaveURL(/\/help\/xrzn\/hyzc\?id=66$/);
  await expect(page.getByTestId('article-title')).toHaveText('会员注册');
  await page.locator('.footer').getByRole('link', { name: '安全购药' }).click();
  await expect(page).toHaveURL(/\/help\/xrzn\/aqgy\?id=\d+$/);
  await expect(page.getByTestId('article-title')).toHaveText('安全购药');
  // A help page reached by its path alone shows its own article.
  await page.goto(`${base()}/help/fwbz/yhxy`);
  await expect(page.getByTestId('article-title')).toHaveText('用户协议');

  await page.goto(`${base()}/help/pay`);
  await expect(page).toHaveTitle('支付与配送 - 医药批发商城');
  await expect(page.locator('.footer')).toBeVisible();
  await expect(page.locator('.top-bar')).toHaveCount(0);
  await expect(page.getByTestId('article-title')).toHaveText('订单支付');
  await page.locator('.help-menu').getByRole('link', { name: '药品退换货' }).click();
  await expect(page).toHaveURL(/\/help\/zfps\/ypth\?id=\d+$/);
  await expect(page.getByTestId('article-title')).toHaveText('药品退换货');
});

test('news lists open articles with the ones before and after, and a script in an article stays text', async ({ page }) => {
  await page.goto(`${base()}/news/hy`);
  await expect(page).toHaveTitle('行业新闻 - 医药批发商城');
  const titles = sql("SELECT title FROM articles WHERE kind = 'news' AND category = 'hy' ORDER BY published_on DESC, id").map(
    ([title]) => title as string,
  );
  await expect(page.getByTestId('news-list').locator('.ant-list-item-meta-title').first()).toHaveText(titles[0]);
  await page.getByRole('link', { name: titles[1] }).click();
  await expect(page).toHaveURL(/\/news\/info\/\d+\/hy$/);
  await expect(page.getByTestId('article-title')).toHaveText(titles[1]);
  await page.getByRole('navigation', { name: '上一篇和下一篇' }).getByRole('link', { name: titles[2] }).click();
  await expect(page.getByTestId('article-title')).toHaveText(titles[2]);

  const file = `${process.env.SHOP_DB}.article.md`;
  const { writeFileSync } = await import('node:fs');
  writeFileSync(file, '仓库通知。\n\n<script>window.pwned = 1</script>\n\n<img src=x onerror="window.pwned = 2">');
  const out = admin('article', '--file', file, '--kind', 'news', '--category', 'company', '--title', '仓库通知');
  const id = Number(out.split(' ')[1]);
  await page.goto(`${base()}/news/info/${id}/company`);
  await expect(page.getByTestId('article-body')).toContainText('<script>window.pwned = 1</script>');
  await expect(page.getByTestId('article-body').locator('script, img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
});
