// The account centre in Chromium, through the edge: an address added and ordered to (paid
// online), a certificate uploaded for review, a message read, the contact phone moved with the
// password and a code, a store made current, and WeChat bound and unbound at a stand-in provider.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { startStack } from '../../scripts/lib/stack.mjs';
import { base, fillCart, keepAccounts, login, sql } from './support';

test('a member adds an address, orders to it and pays online', async ({ page, context }) => {
  // Two processes beside the shop (the provider and its notify through the edge).
  test.slow();
  await login(page);
  await page.goto(`${base()}/zhzx/addr`);
  await expect(page).toHaveTitle('收货地址 - 医药批发商城');
  const detail = `滨江区网商路${Date.now() % 100000}号`;
  await page.getByRole('button', { name: /新增收货地址/ }).click();
  const form = page.getByTestId('address-form');
  await form.getByLabel('收货人').fill('周采购');
  // A 电话 may be a landline: area code, dash, number.
  await form.getByLabel('联系电话').fill('0571-88886666');
  await form.getByLabel('省份').fill('浙江省');
  await form.getByLabel('城市').fill('杭州市');
  await form.getByLabel('区县').fill('滨江区');
  await form.getByLabel('详细地址').fill(detail);
  await form.getByText('设为默认地址').click();
  await page
    .getByRole('button', { name: '保 存' })
    .or(page.getByRole('button', { name: '保存' }))
    .click();
  const card = page.getByTestId('address-card').filter({ hasText: detail });
  await expect(card).toContainText('默认');
  await expect(card).toContainText('0571-88886666');
  await expect(page.getByTestId('address-card').first()).toContainText(detail);

  const [[goods]] = sql(
    'SELECT id FROM goods WHERE is_buy = 1 AND stock > 100 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 1 OFFSET 9',
  ) as [[number]];
  await fillCart(page, [[goods, 3]]);
  await page.goto(`${base()}/cart`);
  await page.getByRole('button', { name: '去结算' }).click();
  await expect(page).toHaveURL(/\/cart\/step2$/);
  await expect(page.getByRole('radio', { name: new RegExp(detail) })).toBeChecked();
  await keepAccounts(page);
  await page.getByRole('button', { name: '提交订单' }).click();
  await expect(page).toHaveURL(/\/cart\/step3\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  const order = (await (await page.request.get(`${base()}/api/order/${id}`)).json()).data;
  expect(order.address).toContain(detail);

  await page.getByRole('radio', { name: '在线支付' }).check();
  await page.getByRole('button', { name: '确认支付' }).click();
  const payment = page.getByTestId('online-payment');
  await expect(payment).toContainText(`¥${order.due}`);
  const [cashier] = await Promise.all([context.waitForEvent('page'), payment.getByRole('link', { name: '前往支付' }).click()]);
  await cashier.getByRole('button', { name: '确认支付' }).click();
  // The provider sends the cashier's tab back to the shop, which shows it paid there too.
  await cashier.waitForURL((url) => url.origin === new URL(base()).origin);
  await expect(cashier).toHaveURL(/\/cart\/step4\?id=\d+$/, { timeout: 15_000 });
  await expect(cashier.getByText('支付成功')).toBeVisible();
  await cashier.close();
  await expect(page).toHaveURL(/\/cart\/step4\?id=\d+$/, { timeout: 15_000 });
  await expect(page.getByText('待发货')).toBeVisible();
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082',
  'hex',
);

test('a member uploads a certificate and sees it waiting for review', async ({ page }) => {
  await login(page);
  await page.goto(`${base()}/zhzx/zzzj`);
  await expect(page).toHaveTitle('资质证件 - 医药批发商城');
  const form = page.getByTestId('certificate-form');
  // The choice is made again until the box shows it: a click while the list is still opening
  // can fall through.
  await expect(async () => {
    await form.getByRole('combobox').click();
    await page.locator('.ant-select-item-option[title="GSP证书"]').click({ timeout: 2000 });
    await expect(form.getByTitle('GSP证书')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await form.getByLabel('证件编号').fill('A-ZJ-20260088');
  await form.locator('input[type=file]').setInputFiles({ name: 'gsp.png', mimeType: 'image/png', buffer: PNG });
  await form
    .getByRole('button', { name: '上 传' })
    .or(form.getByRole('button', { name: '上传' }))
    .click();
  await expect(page.getByText('上传成功，待审核')).toBeVisible();
  const row = page.getByTestId('certificate-table').getByRole('row').filter({ hasText: 'GSP证书' });
  await expect(row).toContainText('A-ZJ-20260088');
  await expect(row).toContainText('待审核');
  // The scan is served back to its member, as uploaded.
  const scan = await row.getByRole('link', { name: '查看' }).getAttribute('href');
  const served = await page.request.get(`${base()}${scan}`);
  expect(served.headers()['content-type']).toBe('image/png');
  expect(Buffer.from(await served.body()).equals(PNG)).toBe(true);

  await page.goto(`${base()}/zhzx/wdxx`);
  await expect(page).toHaveTitle('我的消息 - 医药批发商城');
  const welcome = page.getByTestId('message-list').locator('.ant-collapse-item').filter({ hasText: '欢迎加入医药批发商城' });
  await expect(welcome.locator('.message-title.unread')).toHaveCount(1);
  // Opened, it shows its text and is read; it stays listed under 只看未读 until the page is left.
  await page.getByRole('checkbox', { name: /只看未读/ }).check();
  await welcome.getByRole('button').first().click();
  await expect(welcome.locator('.message-body')).toBeVisible();
  await expect(welcome.locator('.message-title.unread')).toHaveCount(0);
  const unread = (await (await page.request.get(`${base()}/api/user/message?unread=1`)).json()).data;
  expect(unread.list.map((message: { title: string }) => message.title)).not.toContain('欢迎加入医药批发商城');
});

test('a member moves the contact phone with the password and a code and back, and finds WeChat not offered', async ({ page }) => {
  await login(page);
  await page.goto(`${base()}/zhzx/basic`);
  await expect(page).toHaveTitle('基础信息 - 医药批发商城');
  await expect(page.locator('.ant-descriptions')).toContainText('demo');
  const phoneField = page.getByLabel('手机号码');
  await expect(phoneField).not.toHaveValue('');
  const original = await phoneField.inputValue();

  const save = () =>
    page
      .getByRole('button', { name: '保 存' })
      .or(page.getByRole('button', { name: '保存' }))
      .click();
  /** Types `phone`, asks for a code, enters the password and the code the origin keeps, and
   * saves; a wrong password first comes back on its field. */
  const moveTo = async (phone: string) => {
    await phoneField.fill(phone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    // The toasts of the previous move may still be showing: wait for this move's own effects.
    const codeFor = () => sql("SELECT code FROM sms_codes WHERE phone = ? AND scene = 'change_phone' ORDER BY id DESC LIMIT 1", phone);
    await expect.poll(() => codeFor().length).toBe(1);
    const [[code]] = codeFor() as [[string]];
    await page.getByPlaceholder('发送到新手机号的验证码').fill(code);
    await page.getByLabel('登录密码').fill('not-the-password');
    await save();
    await expect(page.locator('.ant-form-item-explain-error').filter({ hasText: '登录密码不正确' })).toBeVisible();
    await page.getByLabel('登录密码').fill('demo123');
    await save();
    await expect(page.getByText('保存成功').last()).toBeVisible();
    await expect.poll(async () => (await (await page.request.get(`${base()}/api/user/base`)).json()).data.phone).toBe(phone);
    await expect(page.getByPlaceholder('发送到新手机号的验证码')).toHaveCount(0);
    await expect(page.getByLabel('登录密码')).toHaveCount(0);
    // The old phone was told.
    const [[told]] = sql('SELECT COUNT(*) FROM sms_notices WHERE body LIKE ?', `%****${phone.slice(-4)}%`) as [[number]];
    expect(told).toBeGreaterThan(0);
  };
  await moveTo(`137${String(Date.now()).slice(-8)}`);
  await moveTo(original);

  // A wrong old password comes back on its field.
  await page.getByLabel('原密码').fill('not-the-password');
  await page.getByLabel('新密码', { exact: true }).fill('secret99');
  await page.getByLabel('确认新密码').fill('secret99');
  await page.getByRole('button', { name: '修改密码' }).click();
  await expect(page.locator('.ant-form-item-explain-error').filter({ hasText: '原密码不正确' })).toBeVisible();

  await page.goto(`${base()}/register/wechat`);
  await expect(page).toHaveTitle('绑定微信 - 医药批发商城');
  await expect(page.getByText('暂未开通微信登录')).toBeVisible();
  await page.getByRole('link', { name: '返回账户中心' }).click();
  await expect(page).toHaveURL(/\/zhzx\/basic$/);
});

test('a member adds a store, makes it the current one and deletes it', async ({ page }) => {
  await login(page);
  await page.goto(`${base()}/zhzx/ddgl`);
  await expect(page).toHaveTitle('多店管理 - 医药批发商城');
  const name = `仁心大药房${Date.now() % 100000}店`;
  await page.getByRole('button', { name: '新增门店' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('门店名称').fill(name);
  await dialog.getByLabel('联系人').fill('陈店长');
  await dialog.getByLabel('电话').fill('010-62345678');
  await dialog.getByLabel('地址').fill('杭州市西湖区文三路90号');
  await dialog.getByRole('button', { name: /保\s?存/ }).click();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('陈店长');
  await expect(row).toContainText('010-62345678');
  const current = row.locator('.ant-tag').filter({ hasText: '当前门店' });
  await expect(current).toHaveCount(0);

  await row.getByText('切换为当前门店').click();
  await expect(current).toBeVisible();
  await expect(row.getByText('切换为当前门店')).toHaveCount(0);
  const stores = (await (await page.request.get(`${base()}/api/user/stores`)).json()).data;
  expect(stores.list.find((store: { name: string }) => store.name === name).is_current).toBe(1);

  await row.getByText('删除').click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(row).toHaveCount(0);
});

test.describe('WeChat at a provider', () => {
  // A stand-in OAuth2 provider: its authorize page sends the member straight back to the shop
  // with a code; its token and user-info calls vouch for one account.
  let shop: Awaited<ReturnType<typeof startStack>>;
  let provider: Server;
  const account = { sub: 'wx-e2e-0001', nickname: '周采购的微信' };

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    provider = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://provider');
      const json = (body: unknown) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      if (url.pathname === '/authorize') {
        const back = `${shop.edge}/register/wechat?code=code-e2e&state=${url.searchParams.get('state')}`;
        response.writeHead(302, { Location: back }).end();
      } else if (url.pathname === '/token') json({ access_token: 'token-e2e' });
      else if (url.pathname === '/userinfo' && request.headers.authorization === 'Bearer token-e2e') json(account);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    shop = await startStack({
      cacheTtl: 5,
      originEnv: {
        WECHAT_AUTHORIZE_URL: `${at}/authorize`,
        WECHAT_TOKEN_URL: `${at}/token`,
        WECHAT_USERINFO_URL: `${at}/userinfo`,
        WECHAT_CLIENT_ID: 'shop-e2e',
        WECHAT_CLIENT_SECRET: 'secret-e2e',
      },
    });
  });

  test.afterAll(async () => {
    await shop?.stop();
    provider?.close();
  });

  async function signIn(page: Page) {
    await page.goto(`${shop.edge}/login`);
    await page.getByLabel('账号').fill('demo');
    await page.getByLabel('密码', { exact: true }).fill('demo123');
    await page.getByRole('button', { name: /登\s?录/ }).click();
    await expect(page.getByText('退出')).toBeVisible();
  }

  test('a member binds WeChat through the provider and unbinds it', async ({ page }) => {
    await signIn(page);
    await page.goto(`${shop.edge}/register/wechat`);
    await expect(page.getByText('绑定微信后，可用微信快捷登录')).toBeVisible();
    await page.getByRole('button', { name: '前往微信授权' }).click();
    await expect(page.getByText('绑定成功')).toBeVisible();
    await expect(page.getByText(`已绑定微信：${account.nickname}`)).toBeVisible();
    // The code is used once and leaves the address.
    await expect(page).toHaveURL(/\/register\/wechat$/);

    await page.goto(`${shop.edge}/zhzx/basic`);
    await expect(page.locator('.ant-descriptions')).toContainText(account.nickname);

    await page.goto(`${shop.edge}/register/wechat`);
    await page.getByRole('button', { name: '解除绑定' }).click();
    await expect(page.getByText('确定解除微信绑定吗?')).toBeVisible();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /确\s?定/ })
      .click();
    await expect(page.getByText('已解除绑定')).toBeVisible();
    await expect(page.getByRole('button', { name: '前往微信授权' })).toBeVisible();
  });
});
