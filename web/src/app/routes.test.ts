// The route table: the spec's names, titles, layout flags, redirects and /404.
import { describe, expect, it } from 'vitest';
import { ROUTES, NO_USER_FETCH, pageTitle, pathOf, resolvePath, routeByName, routeForPath } from './routes';
import { preloadPage, routeObjects } from './router';

describe('the route table', () => {
  it('carries the spec names with their paths', () => {
    expect(pathOf('cart_step1')).toBe('/cart');
    expect(pathOf('cart_step3', { id: 12 })).toBe('/cart/step3/12');
    expect(pathOf('list_info', { id: 7 })).toBe('/list/info/7');
    expect(pathOf('list_table')).toBe('/list/table');
    expect(pathOf('search_table')).toBe('/search/table');
    expect(pathOf('register_dd_step1')).toBe('/register/dd/step1');
    expect(pathOf('list_other', { id: 3 })).toBe('/list/other/3');
    expect(pathOf('list_other', { id: 3, name: '抗生素' })).toBe('/list/other/3/抗生素');
    expect(new Set(ROUTES.map((route) => route.name)).size).toBe(ROUTES.length);
  });

  it('gives each page its title plus the site title', () => {
    expect(pageTitle(routeByName('cart_step2'))).toBe('核对订单信息 - 医药批发商城');
    expect(pageTitle(routeByName('register_step1'))).toBe('注册会员 - 医药批发商城');
    expect(pageTitle(undefined)).toBe('医药批发商城');
  });

  it('sets the layout flags: login-style pages have no top ad, nav or full header', () => {
    for (const name of ['login', 'register_step1', 'register_dd_step3', 'forget_step2']) {
      const { layout } = routeByName(name);
      expect(layout).toMatchObject({ loginHeader: true, header: false, topAd: false, nav: false });
    }
    expect(routeByName('index').layout).toMatchObject({ header: true, nav: true, footer: true, rightWidget: true, topAd: true });
    expect(routeByName('cart_step1').layout.rightWidget).toBe(true);
    expect(routeByName('eleven_index').leave).toBe(true);
    expect([...NO_USER_FETCH]).toEqual(['user_hyzx', 'login', 'zhzx_bdwx']);
  });

  it('redirects as the spec says, and unknown paths to /404', () => {
    expect(resolvePath('/register')).toBe('/register/step1');
    expect(resolvePath('/register_index')).toBe('/register/step1');
    expect(resolvePath('/register_dd')).toBe('/register/dd/step1');
    expect(resolvePath('/forget')).toBe('/forget/step1');
    expect(resolvePath('/activity/a/b')).toBe('/loading/activity?url=a&url1=b');
    expect(resolvePath('/activity/winter')).toBe('/loading/activity?url=winter');
    expect(resolvePath('/activity')).toBe('/loading/activity');
    expect(resolvePath('/nowhere/at/all')).toBe('/404');
    expect(resolvePath('/list/info/12')).toBe('/list/info/12');
    expect(routeForPath('/cart/step3/9')?.name).toBe('cart_step3');
    expect(routeForPath('/list/table')?.name).toBe('list_table');
  });

  it('opens the member centre, the wallet and the account centre, their children by short paths too', () => {
    expect(routeForPath('/user')?.name).toBe('user_hyzx');
    expect(resolvePath('/zhzx')).toBe('/zhzx/basic');
    expect(routeForPath('/zhzx/basic')?.name).toBe('jcxx_index');
    expect(routeForPath('/register/wechat')?.name).toBe('zhzx_bdwx');
    for (const child of ['yegl', 'zhhb', 'jfgl', 'yhq', 'xjq']) {
      expect(resolvePath(`/${child}`)).toBe(`/wdqb/${child}`);
      expect(routeForPath(`/wdqb/${child}`)?.name).toBe(`wdqb_${child}`);
    }
    for (const child of ['zzzj', 'ddgl', 'addr', 'wdxx']) {
      expect(resolvePath(`/${child}`)).toBe(`/zhzx/${child}`);
      expect(routeForPath(`/zhzx/${child}`)?.name).toBe(`zhzx_${child}`);
    }
    expect(pageTitle(routeByName('wdqb_yegl'))).toBe('余额管理 - 医药批发商城');
  });

  it('opens the order centre, and the logistics path as the order detail', () => {
    expect(routeForPath('/order')?.name).toBe('order_index');
    expect(routeForPath('/order/info/7')?.name).toBe('order_info');
    expect(resolvePath('/order/wl/7')).toBe('/order/info/7');
    expect(resolvePath('/order/wl')).toBe('/404');
  });

  it('makes one router entry per route, with the route in its handle, and a catch-all', () => {
    const children = routeObjects[0].children ?? [];
    for (const route of ROUTES) {
      const entry = children.find((child) => child.path === route.path);
      expect(entry?.handle, route.name).toEqual({ route });
    }
    expect(children.at(-1)?.path).toBe('*');
    expect(
      routeObjects.some((entry) => entry.path === '/admin/*'),
      'the back office beside the shop',
    ).toBe(true);
  });

  it('knows the page behind a link, through redirects, to load it before the click', () => {
    expect(preloadPage('/list/info/12')).toBe(true);
    expect(preloadPage('/order/wl/5')).toBe(true);
    expect(preloadPage('/no/such/page')).toBe(true);
  });
});
