// One shop identity in Chromium, through the edge: the footer states the name, seller entity,
// licence numbers and credit code the origin's settings hold (and no other), the header names
// the shop by its settings, the agreement's seller is the same entity, and the help article of
// 支付与配送 states the two ways to pay and the 30-minute payment deadline.
import { expect, test } from '@playwright/test';
import { base, login, sql } from './support';

/** The shop's identity as the settings hold it. */
function settings(): Record<string, string> {
  return Object.fromEntries(sql('SELECT key, value FROM settings') as [string, string][]);
}

test('the footer and the header state the settings’ name and licence numbers, and 支付与配送 says 30 minutes', async ({ page }) => {
  const shop = settings();
  await page.goto(`${base()}/`);
  const notice = page.getByTestId('footer-notice');
  await expect(notice).toContainText(`药品经营许可证：${shop.drug_licence}`);
  await expect(notice).toContainText(`互联网药品信息服务资格证书：${shop.internet_drug_licence}`);
  await expect(notice).toContainText(`医疗器械经营许可证：${shop.device_licence}`);
  await expect(notice).toContainText(`统一社会信用代码：${shop.credit_code}`);
  await expect(notice).toContainText(`客服及投诉电话：${shop.hot_line}`);
  await expect(notice).toContainText(`© 2026 ${shop.shop_name} ${shop.company_name} 版权所有`);
  for (const old of ['杭州医药批发商城有限公司', '浙AA5710238']) await expect(notice).not.toContainText(old);
  await expect(page.locator('.logo strong')).toHaveText(shop.shop_name);

  // 网站资质 states the same numbers, filled from the settings.
  await page.locator('.footer').getByRole('link', { name: '网站资质' }).click();
  await expect(page.getByTestId('article-title')).toHaveText('网站资质');
  const qualifications = page.getByTestId('article-body');
  for (const key of ['company_name', 'drug_licence', 'internet_drug_licence', 'credit_code']) {
    await expect(qualifications).toContainText(shop[key]);
  }
  await expect(qualifications).not.toContainText('{{');

  // 支付与配送: the ways the shop takes money and the deadline of ORDER_PAY_MINUTES (30).
  await page.goto(`${base()}/help/pay`);
  await expect(page.getByTestId('article-title')).toHaveText('订单支付');
  const payment = page.getByTestId('article-body');
  await expect(payment).toContainText('余额支付');
  await expect(payment).toContainText('在线支付');
  await expect(payment).toContainText('订单提交后请在30分钟内完成支付');
  await expect(payment).toContainText('自助服务-电子发票');
  await expect(payment).not.toContainText('24小时内完成支付');
  await expect(page.getByTestId('footer-notice')).toContainText(shop.drug_licence);

  // The agreement's seller is the settings' seller entity.
  await login(page);
  await page.goto(`${base()}/dzht`);
  const agreement = page.getByTestId('agreement');
  await expect(agreement).toContainText(shop.company_name);
  await expect(agreement).toContainText(shop.credit_code);
  await expect(agreement).toContainText(`买方通过${shop.shop_name}`);
});
