// A page's first calls start before the app's code has come, and a pointer resting on a link
// starts the next page's (src/app/first-calls.ts, src/lib/early.ts). Measured here: on every
// page of the bench, the document brings the answers to the calls the table gives (the edge
// writes them in), and each is taken by the page (none asked for nothing); and the answers are never older than what the buyer did — a cart line
// added after the pointer rested on 购物车 is on the cart page that opens.
import { expect, test, type Page } from '@playwright/test';
import { base, fillCart, login, sql } from './support';
import { firstCalls } from '../src/app/first-calls';

const PAGES = [
  '/',
  '/list',
  '/list/table',
  '/list/info/1',
  '/search?keyword=%E9%98%BF%E8%8E%AB%E8%A5%BF%E6%9E%97',
  '/cart',
  '/cart/step2',
  '/user',
  '/wdqb',
  '/zhzx/basic',
  '/order',
  '/jfsc',
  '/zyyp',
  '/qxzq',
  '/jxqzc',
  '/mrtj',
  '/yx',
  '/ppzq',
  '/zhzq',
  '/lqzx',
  '/welfare',
  '/hb',
  '/news/hy',
  '/zzfw/kjcg',
];

/** The GETs to `/api` the page sends from now on, by path and query, in order. */
function apiGets(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname.startsWith('/api/') && !url.pathname.startsWith('/api/images/'))
      sent.push(url.pathname + url.search);
  });
  return sent;
}

const leftEarly = (page: Page) =>
  page.evaluate(() => [...((window as unknown as { __shopEarlyCalls?: Map<string, unknown> }).__shopEarlyCalls?.keys() ?? [])]);

/** What the boot script started (its mark) and the page's GETs to `/api` by path and query, as the document saw them. */
const documentCalls = (page: Page) =>
  page.evaluate(() => ({
    started: (performance.getEntriesByName('shop:first-calls')[0] as PerformanceMark | undefined)?.detail as string[] | undefined,
    written: (performance.getEntriesByName('shop:first-answers')[0] as PerformanceMark | undefined)?.detail as string[] | undefined,
    sent: performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter((url) => url.pathname.startsWith('/api/') && !url.pathname.startsWith('/api/images/'))
      .map((url) => url.pathname + url.search),
  }));

test('every page starts its first calls before the app runs, and takes each of them', async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const goods = sql(
    'SELECT id FROM goods WHERE is_buy = 1 AND stock > 100 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 3',
  ) as [number][];
  await fillCart(
    page,
    goods.map(([id]) => [id, 2]),
  );
  sql('UPDATE draw_activities SET is_on = 0');
  for (const path of PAGES) {
    await page.goto(`${base()}${path}`);
    const [pathname, search = ''] = path.split(/(?=\?)/);
    const expected = firstCalls(pathname, search);
    expect(expected.length, `${path}: calls to start`).toBeGreaterThan(0);
    // The app runs after the network has gone quiet (its code is compiled and run then): each
    // call is taken once the page asks for it, and none is left asked for nothing.
    await expect.poll(() => leftEarly(page), { message: `${path}: calls started early and never taken`, timeout: 15_000 }).toEqual([]);
    const { started, written, sent } = await documentCalls(page);
    expect(started, `${path}: what the boot script started`).toEqual(expected);
    // The edge writes the answers into the document (edge/src/entry.mjs); one it had no time
    // for (a second at most) the boot script asks itself. Each arrives one way, never both.
    expect(written?.length, `${path}: answers the document brought`).toBeGreaterThan(0);
    for (const url of expected) {
      const ways = Number(written!.includes(url)) + sent.filter((one) => one === url).length;
      expect(ways, `${path}: ${url} came once, with the document or asked`).toBe(1);
    }
  }
});

test('a pointer resting on a link starts the next page; a write in between is never hidden by it', async ({ page }) => {
  await login(page);
  const [[id]] = sql(
    'SELECT id FROM goods WHERE is_buy = 1 AND stock > 100 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1',
  ) as [[number]];
  await fillCart(page, [[id, 2]]);
  sql('UPDATE draw_activities SET is_on = 0');
  const sent = apiGets(page);

  // On the home page, resting on a goods card's link starts its detail; the click takes it.
  await page.goto(`${base()}/`);
  const card = page.locator('.floor .goods-card a[href^="/list/info/"]').first();
  await expect(card).toBeVisible();
  const href = (await card.getAttribute('href'))!;
  const detailId = Number(href.split('/').pop());
  sent.length = 0;
  await card.hover();
  await expect.poll(() => sent.filter((url) => url === `/api/goods/detail/${detailId}`).length).toBe(1);
  // Its answer goes into the detail's query as it comes (src/app/first-queries.ts), which takes
  // the call: the page the click opens draws the goods in its first render, never a skeleton.
  await expect.poll(() => leftEarly(page)).not.toContain(`/api/goods/detail/${detailId}`);
  await page.evaluate(() => {
    const holder = window as unknown as { __skeletons: number };
    holder.__skeletons = 0;
    new MutationObserver((changes) => {
      for (const change of changes)
        for (const node of change.addedNodes)
          if (node instanceof Element && (node.matches('.ant-skeleton') || node.querySelector('.ant-skeleton'))) holder.__skeletons++;
    }).observe(document.body, { childList: true, subtree: true });
  });
  await card.click();
  await expect(page).toHaveURL(new RegExp(`/list/info/${detailId}$`));
  const [[name]] = sql('SELECT name FROM goods WHERE id = ?', detailId) as [[string]];
  await expect(page.locator('.goods-detail h1')).toContainText(name);
  expect(await page.evaluate(() => (window as unknown as { __skeletons: number }).__skeletons), 'skeletons drawn after the click').toBe(0);
  await page.waitForLoadState('networkidle');
  expect(sent.filter((url) => url === `/api/goods/detail/${detailId}`)).toHaveLength(1);
  // The detail's answer was taken. (The pointer, left where the card was, may now rest on a link
  // of the detail page, whose calls then start in their turn: only the detail's is asked after.)
  expect(await leftEarly(page)).not.toContain(`/api/goods/detail/${detailId}`);

  // Resting on 购物车 starts the cart's calls, and their answers go into the cart's query; then
  // this goods is added (a write); the cart that opens shows it: the answers started before the
  // write are dropped, not shown.
  const [[lines]] = sql('SELECT COUNT(*) FROM cart_items WHERE member_id = (SELECT id FROM members WHERE username = ?)', 'demo') as [
    [number],
  ];
  const cartLink = page.locator('header a[href="/cart"], .header-main a[href="/cart"]').first();
  const listed = page.waitForResponse((response) => response.request().method() === 'GET' && response.url().endsWith('/api/cart/list'));
  await cartLink.hover();
  await listed;
  // The list's answer is in the cart's query now (the call taken): the write below must forget it.
  await expect.poll(() => leftEarly(page)).not.toContain('/api/cart/list');
  await page.locator('.goods-detail').getByRole('button', { name: '加入购物车' }).first().click();
  await expect
    .poll(() => sql('SELECT COUNT(*) FROM cart_items WHERE member_id = (SELECT id FROM members WHERE username = ?)', 'demo')[0][0])
    .toBe(lines + 1);
  expect(await leftEarly(page)).toEqual([]);
  // Every count of cart lines the page draws from the click on, to the last.
  await page.evaluate(() => {
    const holder = window as unknown as { __rows: number[] };
    holder.__rows = [];
    new MutationObserver(() => {
      const rows = document.querySelectorAll('main [data-testid="cart-row"]').length;
      if (rows > 0 && holder.__rows.at(-1) !== rows) holder.__rows.push(rows);
    }).observe(document.body, { childList: true, subtree: true });
  });
  await cartLink.click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('cart-row')).toHaveCount(lines + 1);
  expect(await page.evaluate(() => (window as unknown as { __rows: number[] }).__rows), 'cart lines drawn').toEqual([lines + 1]);
  await expect(page.getByTestId('cart-row').filter({ hasText: name })).toHaveCount(1);

  // Back and forth, and a reload: the detail and the cart each show what the server holds.
  await page.goBack();
  await expect(page.locator('.goods-detail h1')).toContainText(name);
  await page.goForward();
  await expect(page.getByTestId('cart-row')).toHaveCount(lines + 1);
  await page.reload();
  await expect(page.getByTestId('cart-row')).toHaveCount(lines + 1);
  expect(await leftEarly(page)).toEqual([]);
});
