// The calls of §7 each on its screen, used as a buyer would, and what the page shows held to the
// server's answer: 复制到其他门店 between the store accounts of one company (joined by its code at
// multi-store registration; a namesake company is never offered), 快速加购 on the home floors and
// favourites, the next-tier hint beside the engine's totals, the search box's hot terms, a goods'
// activities, the draw's winners, rules and ads, every usable coupon at checkout, 经营范围.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { admin, base, fillCart, login, sql } from './support';

/** A phone number no walk has used. */
let phones = 0;
const freshPhone = () => `137${String(Date.now() + phones++).slice(-8)}`;

/** An approved member with a signed agreement and an address, password `demo123`: answers its id. */
function member(username: string, company: string): number {
  sql(
    "INSERT INTO members (username, phone, password_hash, company, name, is_passed, agreement_signed, created_at) SELECT ?, ?, password_hash, ?, '林涛', 1, 1, 0 FROM members WHERE username = 'demo'",
    username,
    freshPhone(),
    company,
  );
  const [[id]] = sql('SELECT id FROM members WHERE username = ?', username) as [[number]];
  sql(
    "INSERT INTO addresses (member_id, contact, phone, province, city, district, detail, is_default) VALUES (?, '林涛', '13900002222', '浙江省', '绍兴市', '越城区', '解放北路8号', 1)",
    id,
  );
  // Approved like the demo pharmacy: its business scope holds every class.
  sql(
    'INSERT INTO member_scopes (member_id, class) SELECT ?, class FROM member_scopes WHERE member_id = (SELECT id FROM members WHERE username = ?)',
    id,
    'demo',
  );
  return id;
}

async function api<T>(page: Page, path: string, method: 'GET' | 'POST' = 'GET', form?: Record<string, string>): Promise<T> {
  const response = method === 'GET' ? await page.request.get(`${base()}${path}`) : await page.request.post(`${base()}${path}`, { form });
  return (await response.json()).data as T;
}

interface CartList {
  data: { id: number; number: number; type: number; goods: { id: number } }[];
  quote: { manjian_tiers: { amount: string; status: number; need: string; reduce: string }[] };
}

/** The cart as (goods, type, number), in the server's order. */
async function cartOf(page: Page): Promise<[number, number, number][]> {
  const list = await api<CartList>(page, '/api/cart/list');
  return list.data.map((line) => [line.goods.id, line.type, line.number]);
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1400, height: 900 } });
  return context.newPage();
}

test('a chain store joins by the company code, and the cart is copied to it, never to a namesake', async ({ page, browser }, testInfo) => {
  await login(page);
  // 多店管理 shows the company's code, as the server has it.
  await page.goto(`${base()}/zhzx/ddgl`);
  const card = page.getByTestId('company-card');
  await expect(card.getByTestId('company-code')).toHaveText(/^[2-9A-HJ-NP-Z]{10}$/);
  const company = await api<{ code: string; accounts: { username: string }[] }>(page, '/api/user/company');
  await expect(card.getByTestId('company-code')).toHaveText(company.code);
  const demoCompany = (sql("SELECT company FROM members WHERE username = 'demo'") as [[string]])[0][0];

  // A pharmacy with the same company name but no code is a company of its own.
  const namesakeId = member(`namesake${Date.now() % 100000}`, demoCompany);
  sql("INSERT INTO companies (name, code, created_at) VALUES (?, 'NAMESAKE' || ?, 0)", demoCompany, namesakeId);
  sql("UPDATE members SET company_id = (SELECT id FROM companies WHERE code = 'NAMESAKE' || ?) WHERE id = ?", namesakeId, namesakeId);

  // The chain's second store registers through /register/dd with the code, typed in small letters.
  const store = await newPage(browser);
  const phone = freshPhone();
  const username = `xihu${phone.slice(-6)}`;
  await store.goto(`${base()}/register/dd/step1`);
  await store.getByLabel('手机号码').fill(phone);
  await store.getByRole('button', { name: '获取验证码' }).click();
  await expect(store.getByText('验证码已发送，请注意查收')).toBeVisible();
  const [[code]] = sql('SELECT code FROM sms_codes WHERE phone = ? ORDER BY id DESC LIMIT 1', phone) as [[string]];
  await store.getByPlaceholder('6位验证码').fill(code);
  await store.getByRole('button', { name: '下一步' }).click();
  await expect(store).toHaveURL(/\/register\/dd\/step2$/);
  await store.getByLabel('用户名').fill(username);
  await store.getByLabel('密码', { exact: true }).fill('store888');
  await store.getByLabel('确认密码').fill('store888');
  await store.getByLabel('企业名称').fill('杭州仁心大药房西湖店');
  await store.getByLabel('联系人').fill('周敏');
  await store.getByLabel('企业编码（选填）').fill('WRONG00000');
  await store.getByPlaceholder('门店1名称').fill('西湖店');
  await store.getByRole('button', { name: '注册并下一步' }).click();
  await expect(store.getByText('企业编码不存在').first()).toBeVisible();
  await store.getByLabel('企业编码（选填）').fill(company.code.toLowerCase());
  await store.getByRole('button', { name: '注册并下一步' }).click();
  await expect(store).toHaveURL(/\/register\/dd\/step3$/);
  await store.getByLabel('药品经营许可证编号').fill('浙AA5710888');
  await store.getByLabel('营业执照统一社会信用代码').fill('91330106MA2XXXXX8X');
  await store.getByRole('button', { name: '提交资质' }).click();
  await expect(store.getByText('注册成功')).toBeVisible();
  // The operator approves both certificates, with the business scope.
  const certificates = sql(
    'SELECT q.id FROM qualifications q JOIN members m ON m.id = q.member_id WHERE m.username = ? ORDER BY q.id',
    username,
  ) as [number][];
  expect(certificates).toHaveLength(2);
  // A store licensed like the demo pharmacy: every class it may be sold (docs/compliance.md).
  const scope = '化学药制剂,抗生素制剂,中成药,中药饮片,生化药品,生物制品,第二类医疗器械,第三类医疗器械,保健食品,食品';
  for (const [id] of certificates) expect(admin('approve', String(id), '--scope', scope)).toContain('approved');
  const [[storeId, passed]] = sql('SELECT id, is_passed FROM members WHERE username = ?', username) as [[number, number]];
  expect(passed).toBe(1);

  // The company now lists both accounts; the namesake is not among them.
  await page.reload();
  await expect(card.getByRole('row').filter({ hasText: username })).toContainText('已通过');
  await expect(card).not.toContainText(`namesake`);

  // Two lines copied from the cart page to the store.
  const goods = sql(
    'SELECT id FROM goods WHERE is_buy = 1 AND stock > 200 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 2 OFFSET 40',
  ) as [number][];
  await fillCart(page, [
    [goods[0][0], 3],
    [goods[1][0], 5],
  ]);
  await page.goto(`${base()}/cart`);
  await expect(page.getByTestId('cart-row')).toHaveCount(2);
  await page.getByTestId('cart-bar').getByText('复制到其他门店').click();
  const dialog = page.getByRole('dialog', { name: '复制到其他门店' });
  await expect(dialog).toContainText('将选中的 2 种商品');
  const target = dialog.getByRole('checkbox', { name: new RegExp(username) });
  await expect(target).toBeEnabled();
  await expect(dialog).not.toContainText('namesake');
  await target.check();
  await page.screenshot({ path: testInfo.outputPath('copy-dialog.png') });
  await dialog.getByRole('button', { name: /复\s?制/ }).click();
  await expect(page.locator('.ant-message-success')).toContainText('已复制 2 项到 1 个门店账号');
  await expect(dialog).toBeHidden();
  expect(await cartOf(store)).toEqual(
    expect.arrayContaining([
      [goods[0][0], 0, 3],
      [goods[1][0], 0, 5],
    ]),
  );
  expect(await cartOf(store)).toHaveLength(2);
  // The store sees them in its own cart page, as the server has them.
  await store.goto(`${base()}/cart`);
  await expect(store.getByTestId('cart-row')).toHaveCount(2);
  for (const [id, , number] of await cartOf(store)) {
    const row = store.getByTestId('cart-row').filter({ has: store.locator(`a[href="/list/info/${id}"]`) });
    await expect(row.getByRole('spinbutton')).toHaveValue(String(number));
  }

  // Copied again, the lines add to the store's; a line beyond the stock is skipped with its reason.
  const [[stock]] = sql('SELECT stock FROM goods WHERE id = ?', goods[1][0]) as [[number]];
  sql('UPDATE goods SET stock = 8 WHERE id = ?', goods[1][0]);
  try {
    await page.getByTestId('cart-bar').getByText('复制到其他门店').click();
    await dialog.getByRole('checkbox', { name: new RegExp(username) }).check();
    await dialog.getByRole('button', { name: /复\s?制/ }).click();
    const warning = page.getByRole('dialog').filter({ hasText: '1 项未能复制' });
    await expect(warning.getByTestId('copy-skipped')).toContainText('库存不足，最多可购买8');
    await warning.getByRole('button', { name: '知道了' }).click();
  } finally {
    sql('UPDATE goods SET stock = ? WHERE id = ?', stock, goods[1][0]);
  }
  expect(await cartOf(store)).toEqual(
    expect.arrayContaining([
      [goods[0][0], 0, 6],
      [goods[1][0], 0, 5],
    ]),
  );

  // The namesake is refused however it is asked for.
  const lines = (await api<CartList>(page, '/api/cart/list')).data.map((line) => String(line.id)).join(',');
  const refused = await page.request.post(`${base()}/api/cart/copy`, { form: { ids: lines, other_user_ids: String(namesakeId) } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).msg).toBe('只能复制到本企业的其他门店账号');
  expect(sql('SELECT COUNT(*) FROM cart_items WHERE member_id = ?', namesakeId)).toEqual([[0]]);

  // The store undoes the copy: its cart is empty again.
  await store.reload();
  await expect(store.getByTestId('selected-count')).toHaveText('2');
  await store.getByTestId('cart-bar').getByText('删除选中').click();
  await store.getByRole('button', { name: /确\s?定/ }).click();
  await expect(store.getByRole('main').getByText('购物车空空如也~')).toBeVisible();
  expect(sql('SELECT COUNT(*) FROM cart_items WHERE member_id = ?', storeId)).toEqual([[0]]);

  // Its 基础信息 shows the business scope the operator approved, as the server answers it.
  await store.goto(`${base()}/zhzx/basic`);
  await expect(store.getByTestId('scope-item')).toHaveText(scope.split(','));
  await store.context().close();
});

test('快速加购 adds the default quantity from the home floors and favourites, once per click', async ({ page }, testInfo) => {
  await login(page);
  await fillCart(page, []);
  await page.goto(`${base()}/`);
  const floor = page.locator('section.floor').filter({ hasText: '为您推荐' });
  const card = floor
    .locator('article.goods-card')
    .filter({ has: page.locator('button.quick-add:not([disabled])') })
    .first();
  await expect(card).toBeVisible();
  const goodsId = Number(await card.getAttribute('data-goods-id'));
  const quick = card.getByRole('button', { name: /^快速加购/ });
  await expect(quick).toBeEnabled();
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('quick-add.png') });

  const answers: { added: number; number: number; unit: string; type: number }[] = [];
  for (const times of [1, 2]) {
    const answered = page.waitForResponse((response) => response.url().includes(`/api/cart/quick_add/${goodsId}`));
    await quick.click();
    const answer = (await (await answered).json()).data;
    answers.push(answer);
    await expect(page.locator('.ant-message-success').last()).toContainText(
      `已加入购物车 ${answer.added}${answer.unit}，购物车中共 ${answer.number}${answer.unit}`,
    );
    // The server's cart holds what the answer says: the default quantity once per click.
    expect(await cartOf(page)).toEqual([[goodsId, answer.type, answer.added * times]]);
  }
  // The default quantity is the middle pack (a running flash sale's limit caps it).
  const [[zbz]] = sql('SELECT zbz FROM goods WHERE id = ?', goodsId) as [[number]];
  if (answers[0].type === 0) expect(answers[0].added).toBe(Math.max(1, zbz));
  expect(answers[1].number).toBe(2 * answers[0].added);

  // From favourites too.
  const [[favourite]] = sql(
    'SELECT id FROM goods WHERE is_buy = 1 AND stock > 100 AND zbz > 1 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1',
  ) as [[number]];
  await page.request.post(`${base()}/api/favorite`, { form: { goods_ids: String(favourite) } });
  await page.goto(`${base()}/zzfw/star`);
  const favouriteCard = page.locator(`article.goods-card[data-goods-id="${favourite}"]`);
  await favouriteCard.getByRole('button', { name: /^快速加购/ }).click();
  const [[pack, unit]] = sql('SELECT zbz, bzdw FROM goods WHERE id = ?', favourite) as [[number, string]];
  await expect(page.locator('.ant-message-success').last()).toContainText(`已加入购物车 ${pack}${unit}`);
  await expect.poll(async () => (await cartOf(page)).find(([id]) => id === favourite)).toEqual([favourite, 0, pack]);

  // Undone: the cart emptied, the favourite cancelled.
  await page.request.post(`${base()}/api/favorite/cancel`, { form: { goods_ids: String(favourite) } });
  await fillCart(page, []);
});

test("the next-tier hint beside the cart's totals is the server's and agrees with the engine's", async ({ page }, testInfo) => {
  await login(page);
  const [[goods]] = sql(
    `SELECT g.id FROM goods g JOIN manjian_tiers t ON t.activity_id = g.manjian_id
      WHERE g.is_buy = 1 AND g.stock > 500 AND g.zbz = 1 AND g.id NOT IN (SELECT goods_id FROM flash_sales)
        AND NOT EXISTS (SELECT 1 FROM goods_ladders l WHERE l.goods_id = g.id)
      GROUP BY g.id HAVING MIN(t.amount) > g.price * 3 ORDER BY g.price DESC LIMIT 1`,
  ) as [[number]];
  await fillCart(page, [[goods, 1]]);
  await page.goto(`${base()}/cart`);

  /** The page's hints, the engine's first unreached tier as the tiers line says it, and the server's answer. */
  const agree = async () => {
    const server = await api<{ manjian: { text: string } | null; shipping: { text: string } | null }>(page, '/api/cart/next_hint', 'POST');
    const hint = page.getByTestId('next-tier-hint');
    const shown = {
      tier: (await hint.count()) ? await hint.textContent() : null,
      source: (await hint.count()) ? await hint.getAttribute('data-source') : null,
      shipping: await page.getByTestId('shipping-hint').textContent(),
      // The engine's own sentence of the first tier not reached, in the tiers line.
      engine: await page
        .getByTestId('tiers')
        .locator('.tier[data-status="0"]')
        .first()
        .textContent()
        .then((text) => text?.match(/（(.*)）/)?.[1] ?? null),
    };
    return JSON.stringify({ ...shown, server: [server.manjian?.text ?? null, server.shipping?.text ?? null] });
  };
  const expected = async () => {
    const server = await api<{ manjian: { text: string } | null; shipping: { text: string } | null }>(page, '/api/cart/next_hint', 'POST');
    const tier = server.manjian?.text ?? null;
    return JSON.stringify({
      tier,
      source: tier ? 'server' : null,
      shipping: server.shipping?.text ?? null,
      engine: tier,
      server: [tier, server.shipping?.text ?? null],
    });
  };
  await expect.poll(async () => (await agree()) === (await expected()), { timeout: 10_000 }).toBe(true);
  await expect(page.getByTestId('next-tier-hint')).toContainText(/^再买 ¥\d+\.\d{2} 可减 ¥\d+\.\d{2}$/);
  const before = await page.getByTestId('next-tier-hint').textContent();
  await page.screenshot({ path: testInfo.outputPath('next-hint.png') });

  // One more unit: the engine's hint at once, the server's once it has the edit, and the two agree.
  await page.getByTestId('cart-row').getByRole('button', { name: /^增加/ }).click();
  await expect(page.getByTestId('next-tier-hint')).not.toHaveText(before!);
  await expect.poll(async () => (await agree()) === (await expected()), { timeout: 10_000 }).toBe(true);
  await expect(page.getByTestId('next-tier-hint')).toHaveAttribute('data-source', 'server');
  await fillCart(page, []);
});

test('the search box shows the hot terms when focused empty, and searches one by keys or a click', async ({ page }, testInfo) => {
  await page.goto(`${base()}/`);
  const hot = await api<string[]>(page, '/api/goods/hot');
  expect(hot.length).toBeGreaterThan(2);
  const box = page.getByLabel('搜索关键词');
  await box.focus();
  const panel = page.getByRole('listbox', { name: '热门搜索' });
  await expect(panel.getByRole('option')).toHaveText(hot.slice(0, 10).map((term, index) => `${index + 1}${term}`));
  await page.screenshot({ path: testInfo.outputPath('hot-terms.png') });
  // Down and Up take a term into the box; Enter searches it.
  await box.press('ArrowDown');
  await box.press('ArrowDown');
  await expect(box).toHaveValue(hot[1]);
  await box.press('ArrowUp');
  await expect(box).toHaveValue(hot[0]);
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/search\\?keyword=${encodeURIComponent(hot[0])}`));
  await expect(panel).toBeHidden();
  // Typing gives way to the suggestions; emptied, the hot terms come back; a click searches.
  await box.fill('');
  await box.focus();
  await box.pressSequentially('阿莫');
  await expect(panel).toBeHidden();
  await expect(page.getByRole('listbox', { name: '搜索建议' })).toBeVisible();
  await box.fill('');
  await expect(panel).toBeVisible();
  await panel.getByRole('option', { name: hot[2] }).click();
  await expect(page).toHaveURL(new RegExp(`/search\\?keyword=${encodeURIComponent(hot[2])}`));
});

test("a goods' detail lists the activities it takes part in, and a set is bought from there", async ({ page }, testInfo) => {
  await login(page);
  await fillCart(page, []);
  interface Activities {
    manjian: { title: string; tiers: { title: string }[] } | null;
    flash_sale: { price: string; limit: number } | null;
    combinations: { id: number; name: string; price: string }[];
  }
  // A goods sold in a combination that can be bought.
  const [[goods, setId]] = sql(
    `SELECT i.goods_id, c.id FROM combination_items i JOIN combinations c ON c.id = i.combination_id
      WHERE c.stock > 5 AND NOT EXISTS (SELECT 1 FROM combination_items o JOIN goods g ON g.id = o.goods_id
        WHERE o.combination_id = c.id AND (g.is_buy = 0 OR g.stock < o.number * 5 OR g.is_kx = 1))
      ORDER BY c.id LIMIT 1`,
  ) as [[number, number]];
  const activities = await api<Activities>(page, `/api/goods/activities?goods_id=${goods}`);
  const offer = activities.combinations.find((combination) => combination.id === setId)!;
  expect(offer).toBeTruthy();
  await page.goto(`${base()}/list/info/${goods}`);
  const section = page.getByTestId('goods-activities');
  const sets = section.getByTestId('activity-combination');
  await expect(sets).toHaveCount(activities.combinations.length);
  for (const [index, combination] of activities.combinations.entries()) {
    await expect(sets.nth(index)).toContainText(combination.name);
    await expect(sets.nth(index)).toContainText(`组合价 ¥${combination.price}`);
  }
  if (activities.manjian) {
    await expect(section.getByTestId('activity-manjian')).toContainText(activities.manjian.title);
    for (const tier of activities.manjian.tiers) await expect(section.getByTestId('activity-manjian')).toContainText(tier.title);
  } else {
    await expect(section.getByTestId('activity-manjian')).toHaveCount(0);
  }
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('goods-activities.png') });
  // One set into the cart: a combination line (type 3) of the offer.
  await sets.filter({ hasText: offer.name }).getByRole('button', { name: '加入购物车' }).click();
  await expect(page.locator('.ant-message-success')).toContainText('已加入购物车（1 套）');
  await expect
    .poll(() => sql("SELECT type, activity_id, number FROM cart_items WHERE member_id = (SELECT id FROM members WHERE username = 'demo')"))
    .toEqual([[3, setId, 1]]);
  // The detail's own price and stepper are still there.
  await expect(page.getByTestId('detail-price')).toBeVisible();

  // A flash sale running: its price and limit, as the server says them.
  const now = Math.floor(Date.now() / 1000);
  const [[onSale]] = sql('SELECT goods_id FROM flash_sales WHERE starts_at <= ? AND ends_at > ? ORDER BY id LIMIT 1', now, now) as [
    [number],
  ];
  const sale = await api<Activities>(page, `/api/goods/activities?goods_id=${onSale}`);
  await page.goto(`${base()}/list/info/${onSale}`);
  await expect(page.getByTestId('activity-flash-sale')).toContainText(`秒杀价 ¥${sale.flash_sale!.price}`);
  await expect(page.getByTestId('activity-flash-sale')).toContainText(`每人限购 ${sale.flash_sale!.limit}`);

  // A goods in no activity says so.
  const [[plain]] = sql(
    'SELECT id FROM goods WHERE manjian_id = 0 AND id NOT IN (SELECT goods_id FROM flash_sales) AND id NOT IN (SELECT goods_id FROM combination_items) ORDER BY id LIMIT 1',
  ) as [[number]];
  await page.goto(`${base()}/list/info/${plain}`);
  await expect(page.getByTestId('goods-activities')).toContainText('本品暂未参与活动');
  await fillCart(page, []);
});

test('the draw popup scrolls the latest winners, opens its rules and lists the running activities', async ({ page }, testInfo) => {
  const username = `draw${Date.now() % 1000000}`;
  member(username, '绍兴同仁堂药店有限公司');
  const now = Math.floor(Date.now() / 1000);
  sql(
    "INSERT INTO draw_activities (title, description, starts_at, ends_at, is_on) VALUES ('春季采购节 · 幸运抽奖', '春季采购节期间每位会员可抽奖一次。', ?, ?, 1)",
    now - 60,
    now + 86400,
  );
  const [[activity]] = sql("SELECT MAX(id) FROM draw_activities WHERE title = '春季采购节 · 幸运抽奖'") as [[number]];
  sql(
    "INSERT INTO draw_prizes (activity_id, name, remarks, kind, points, weight, stock) VALUES (?, '50积分', '积分已到账', 2, 50, 1, 10)",
    activity,
  );
  sql('UPDATE draw_activities SET is_on = 1');
  try {
    await login(page, username, 'demo123');
    const popup = page.getByRole('dialog').filter({ hasText: '春季采购节 · 幸运抽奖' });
    await expect(popup).toBeVisible();
    await expect(popup.getByTestId('draw-winners')).toContainText('暂无中奖记录');

    // The rules, as the activity's own address answers them.
    await popup.getByText('活动规则').click();
    interface Rules {
      description: string;
      prizes: { name: string; stock: number; handed: number }[];
    }
    const rules = await api<Rules>(page, `/api/draw/${activity}/activity`);
    await expect(popup.getByTestId('draw-rules')).toContainText(rules.description);
    await expect(popup.getByTestId('draw-rule-prize')).toHaveText(
      rules.prizes.map((prize) => new RegExp(`${prize.name}.*${prize.stock - prize.handed} 份`)),
    );

    // The running activities, as the ads answer them; this one marked.
    const ads = await api<{ list: { id: number; title: string }[] }>(page, '/api/draw/ads');
    expect(ads.list.length).toBeGreaterThan(1);
    await expect(popup.getByTestId('draw-ad')).toHaveText(
      ads.list.map((ad) => new RegExp(ad.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))),
    );
    await expect(popup.getByTestId('draw-ad').filter({ hasText: '春季采购节' })).toContainText('当前活动');

    // A draw: after 2 s the result, and the winner joins the list as the server has it.
    await popup.getByRole('button', { name: '立即抽奖' }).click();
    await expect(popup.getByTestId('draw-result')).toContainText('恭喜您 , 抽中50积分 ( 积分已到账 )', { timeout: 8000 });
    const winners = await api<{ list: { company: string; name: string }[] }>(page, `/api/draw/new_record?id=${activity}`);
    expect(winners.list[0]).toMatchObject({ company: '绍兴****公司', name: '50积分' });
    await expect(popup.getByTestId('draw-winner').first()).toContainText(`恭喜 ${winners.list[0].company} 抽中 ${winners.list[0].name}`);
    await expect(popup.getByTestId('draw-rule-prize')).toHaveText([/50积分.*9 份/]);
    await page.screenshot({ path: testInfo.outputPath('draw-popup.png') });

    // Another running activity opens in the popup from its ad.
    await popup.getByTestId('draw-ad').filter({ hasText: '会员感恩季' }).getByRole('button', { name: '去抽奖' }).click();
    const other = page.getByRole('dialog').filter({ hasText: '会员感恩季 · 幸运大抽奖' });
    await expect(other.getByTestId('draw-prizes')).toContainText('谢谢参与');
    await expect(other.getByRole('button', { name: '立即抽奖' })).toBeEnabled();
    await expect(other.getByTestId('draw-ad').filter({ hasText: '会员感恩季' })).toContainText('当前活动');
  } finally {
    // Ended as well as off: the walks that turn every activity on must not find this one running.
    sql('UPDATE draw_activities SET ends_at = starts_at + 1 WHERE id = ?', activity);
    sql('UPDATE draw_activities SET is_on = 0');
  }
});

test('every usable coupon pages at checkout beside the engine’s value of each, and one is used from there', async ({ page }, testInfo) => {
  const username = `coupon${Date.now() % 1000000}`;
  const id = member(username, '宁波康宁大药房有限公司');
  // 25 coupons usable now: two pages of 20.
  const [[fullReduction]] = sql("SELECT id FROM coupons WHERE title = '满500减20'") as [[number]];
  const [[rate]] = sql("SELECT id FROM coupons WHERE title = '全场98折'") as [[number]];
  admin('grant', 'coupon', '--member', String(id), '--template', String(fullReduction), '--count', '22');
  admin('grant', 'coupon', '--member', String(id), '--template', String(rate), '--count', '3');
  await login(page, username, 'demo123');
  const [[goods]] = sql(
    'SELECT id FROM goods WHERE is_buy = 1 AND is_kx = 0 AND stock > 100 AND price >= 1000000 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1',
  ) as [[number]];
  // At least 2,000.00: 98折 takes off more than 满500减20, so the engine starts with it.
  await fillCart(page, [[goods, 20]]);
  await page.goto(`${base()}/cart`);
  await page.getByRole('button', { name: '去结算' }).click();
  await expect(page).toHaveURL(/\/cart\/step2$/);

  interface Page1 {
    list: { id: number; title: string }[];
    total: number;
  }
  const all = await api<Page1>(page, '/api/user/availableCoupon?page=1');
  expect(all.total).toBe(25);
  await page.getByTestId('all-coupons').click();
  await expect(page.getByTestId('all-coupons')).toHaveText('查看全部可用优惠券（25 张）');
  const dialog = page.getByRole('dialog', { name: '全部可用优惠券' });
  const rows = dialog.getByTestId('available-coupon');
  await expect(rows).toHaveCount(20);
  await expect(rows.first()).toContainText(all.list[0].title);
  await page.screenshot({ path: testInfo.outputPath('all-coupons.png') });
  const second = await api<Page1>(page, '/api/user/availableCoupon?page=2');
  await dialog.locator('.ant-pagination-item-2').click();
  await expect(rows).toHaveCount(second.list.length);
  await expect(rows.first()).toContainText(second.list[0].title);
  // Only the 折扣券.
  const kinds = dialog.locator('.ant-segmented');
  await kinds.getByText('折扣券', { exact: true }).click();
  const discounts = await api<Page1>(page, '/api/user/availableCoupon?type=2&page=1');
  await expect(rows).toHaveCount(discounts.total);
  await expect(rows.first()).toContainText('全场98折');

  await expect(rows.filter({ hasText: '使用中' })).toHaveCount(1);

  // A 满减券 used from the list: the settlement takes it, and the amount it takes off is the one shown.
  await kinds.getByText('满减券', { exact: true }).click();
  const reductions = await api<Page1>(page, '/api/user/availableCoupon?type=1&page=1');
  await expect(rows).toHaveCount(reductions.list.length);
  await expect(rows.filter({ hasText: '折扣券' })).toHaveCount(0);
  const row = rows.filter({ has: page.locator('button:not([disabled])', { hasText: /使\s?用/ }) }).first();
  const value = (await row.getByTestId('available-coupon-value').textContent())!.match(/本单可减 (¥\d+\.\d{2})/)![1];
  expect(value).toBe('¥20.00');
  const dueBefore = await page.getByTestId('checkout-due').textContent();
  await row.getByRole('button', { name: /使\s?用/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('checkout-coupon')).toHaveText(`-${value}`);
  await expect(page.getByTestId('checkout-due')).not.toHaveText(dueBefore!);
  await page.getByTestId('all-coupons').click();
  await expect(rows.filter({ hasText: '使用中' })).toHaveCount(1);
  await expect(rows.filter({ hasText: '使用中' })).toContainText('满500减20');
});

test('基础信息 shows the business scope approved with the licences', async ({ page }, testInfo) => {
  await login(page);
  const scope = await api<{ list: string[]; is_passed: number }>(page, '/api/user/jyfw');
  expect(scope.list.length).toBeGreaterThan(0);
  await page.goto(`${base()}/zhzx/basic`);
  await expect(page.getByTestId('scope-item')).toHaveText(scope.list);
  await page.screenshot({ path: testInfo.outputPath('business-scope.png') });

  // A member not yet approved is told where the scope will come from.
  const username = `scope${Date.now() % 1000000}`;
  member(username, '金华百草堂药店');
  sql('UPDATE members SET is_passed = 0 WHERE username = ?', username);
  await page.context().clearCookies();
  await login(page, username, 'demo123');
  await page.goto(`${base()}/zhzx/basic`);
  await expect(page.getByTestId('business-scope')).toContainText('资质审核通过后将在此显示核定的经营范围');
});
