// The first calls of a page, from its address: the frame's as the route's layout says, the
// page's own, written as the API client writes them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstCalls } from './first-calls';
import { ROUTES } from './routes';

/** The paths of the origin's OpenAPI document that answer a GET (`src/api/types.ts`, generated from it), as patterns. */
function getPaths(): RegExp[] {
  const types = readFileSync(join(import.meta.dirname, '../api/types.ts'), 'utf8');
  const paths: RegExp[] = [];
  for (const [, path, body] of types.matchAll(/^ {2}'(\/api\/[^']*)': \{\n([^]*?)^ {2}\};$/gm)) {
    if (/^ {4}get: operations\[/m.test(body))
      paths.push(new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, '[^/]+')}$`));
  }
  return paths;
}

describe('firstCalls', () => {
  it('the home page: the frame, the member, the draw check and the floors', () => {
    expect(firstCalls('/')).toEqual([
      '/api/index',
      '/api/article/category?category_id=3',
      '/api/global/links',
      '/api/focus/right?position=top',
      '/api/user/base',
      '/api/cart/total',
      '/api/draw/simple',
      '/api/focus',
      '/api/user/center',
      '/api/index/spike',
      '/api/activity/everyday_price',
      '/api/index_wntj/1',
    ]);
  });

  it('the member centre answers the member itself; step 2 shows no draw and no top ad', () => {
    expect(firstCalls('/user')).not.toContain('/api/user/base');
    expect(firstCalls('/cart/step2')).not.toContain('/api/draw/simple');
    expect(firstCalls('/cart/step2')).not.toContain('/api/focus/right?position=top');
    expect(firstCalls('/cart/step2')).toContain('/api/cart/list');
  });

  it('a search, a goods detail, a zone: the list query as the page asks it', () => {
    expect(firstCalls('/search', '?keyword=%E9%98%BF%E8%8E%AB%E8%A5%BF%E6%9E%97')).toContain(
      '/api/goods/list?page_size=20&keyword=%E9%98%BF%E8%8E%AB%E8%A5%BF%E6%9E%97',
    );
    expect(firstCalls('/list/info/12')).toEqual(expect.arrayContaining(['/api/goods/detail/12', '/api/goods/activities?goods_id=12']));
    expect(firstCalls('/jxqzc')).toContain('/api/goods/list?near_expiry=1&page=1&page_size=20&sort=expiry&order=asc');
    // A zone on another page or sort asks for what its address says: nothing is started for it.
    expect(firstCalls('/zyyp', '?page=2').filter((url) => url.startsWith('/api/goods/list'))).toEqual([]);
  });

  it('a move inside the app asks for the member and the page, not the frame again', () => {
    expect(firstCalls('/order', '', { opening: false })).toEqual(['/api/user/base', '/api/order?page=1']);
  });

  it('every call of every route is a GET the API offers (a read sent as a POST is never started early)', () => {
    const gets = getPaths();
    expect(gets.length).toBeGreaterThan(50);
    const samples: Record<string, string> = { ':id': '12', ':code': 'hy', ':category': 'xrzn', ':name': 'hyzc', ':type': 'kjcg' };
    const calls = ROUTES.flatMap((route) => {
      const pathname = route.path.replace(/:[a-z]+/gi, (param) => samples[param] ?? '1');
      return firstCalls(pathname, '?id=66').map((call) => call.split('?')[0]);
    });
    expect(calls).toContain('/api/cart/list');
    for (const call of new Set(calls))
      expect(
        gets.some((path) => path.test(call)),
        call,
      ).toBe(true);
    expect(firstCalls('/cart')).not.toContain('/api/cart/next_hint');
  });

  it('nothing for an address no route shows, or one that redirects', () => {
    expect(firstCalls('/no/such/page')).toEqual([]);
    expect(firstCalls('/user/index')).toEqual([]);
  });
});
