// Activities in Chromium, through the edge: the activity zone and its links (§8), an activity
// reached by /activity/{url} through the loader, the two templates, the activity centre, 优医汇.
import { expect, test } from '@playwright/test';
import { base, sql } from './support';

test('activity links open running activities and say why others do not open', async ({ page }) => {
  await page.goto(`${base()}/yjh`);
  await expect(page).toHaveTitle('活动专区 - 医药批发商城');
  const cards = page.getByTestId('activity-card');
  await expect(cards.filter({ hasText: '冬季呼吸道备货节' })).toContainText('进行中');
  // Not started, with a note: the note; without a page yet: 活动暂未开始.
  await cards.filter({ hasText: '年货采购节' }).click();
  await expect(page.locator('.ant-message')).toContainText('年货采购节将于10天后开启，敬请期待');
  await cards.filter({ hasText: '春季采购节' }).click();
  await expect(page.locator('.ant-message')).toContainText('活动暂未开始');
  await expect(page).toHaveURL(/\/yjh$/);

  // A running one opens through the loader in its template, with its sections of goods.
  await cards.filter({ hasText: '冬季呼吸道备货节' }).click();
  const [[winter]] = sql("SELECT id FROM activities WHERE url = 'winter'") as [[number]];
  await expect(page).toHaveURL(new RegExp(`/hdmb\\?id=${winter}$`));
  await expect(page).toHaveTitle('医药批发商城');
  await expect(page.getByTestId('activity-banner')).toContainText('冬季呼吸道备货节');
  for (const section of ['感冒用药', '止咳利咽', '清热解毒']) await expect(page.getByRole('heading', { name: section })).toBeVisible();
  const seeded = sql(
    "SELECT COUNT(*) FROM activity_goods a JOIN activity_sections s ON s.id = a.section_id JOIN activities t ON t.id = s.activity_id WHERE t.url = 'winter'",
  )[0][0] as number;
  await expect(page.getByTestId('activity').locator('.goods-card')).toHaveCount(seeded);

  // An address that names no activity lands on /noActivity.
  await page.goto(`${base()}/activity/nowhere`);
  await expect(page).toHaveURL(/\/noActivity$/);
  await expect(page.getByText('该活动不存在或已结束')).toBeVisible();
});

test('the zone template, the activity centre and 优医汇 show their activities', async ({ page }) => {
  const [[herbs]] = sql("SELECT id FROM activities WHERE url = 'herbs'") as [[number]];
  const [[yyh]] = sql("SELECT id FROM activities WHERE url = 'yyh'") as [[number]];
  await page.goto(`${base()}/activity/herbs`);
  await expect(page).toHaveURL(new RegExp(`/zqmb\\?id=${herbs}$`));
  for (const section of ['补气', '补血', '补阴', '补阳']) await expect(page.locator('.activity-anchor').getByText(section)).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '生产厂家' }).first()).toBeVisible();

  await page.goto(`${base()}/Hdzx/${yyh},${herbs}`);
  await expect(page).toHaveTitle('活动中心 - 医药批发商城');
  await expect(page.getByRole('tab', { name: '优医汇' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('activity-banner')).toContainText('优医汇');
  await page.getByRole('tab', { name: '道地药材节' }).click();
  await expect(page).toHaveURL(new RegExp(`/Hdzx/${yyh},${herbs}/${herbs}$`));
  await expect(page.getByTestId('activity-banner')).toContainText('道地药材节');

  await page.goto(`${base()}/yyh`);
  await expect(page).toHaveTitle('优医汇 - 医药批发商城');
  await expect(page.getByTestId('activity-banner')).toContainText('优医汇');
  await page.getByRole('link', { name: '查看全部品种清单' }).click();
  await expect(page).toHaveURL(/\/yyh\/list$/);
  const count = sql(
    "SELECT COUNT(*) FROM activity_goods a JOIN activity_sections s ON s.id = a.section_id JOIN activities t ON t.id = s.activity_id WHERE t.url = 'yyh'",
  )[0][0] as number;
  await expect(page.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(count);
});
