// The goods list's query, read from the page's address: the list page asks for it, and the
// boot script (app/first-calls.ts) starts the same call before the page's code has come.
import type { QueryOf } from '@/api/requests';

/** Goods per page of the list. */
export const PAGE_SIZE = 20;

/** `goods/list`'s query (docs/api.md, "Goods"). */
export type ListQuery = QueryOf<'/api/goods/list'>;

/** The list's filter switches, each a query flag `name=1`. */
export const FLAGS: { label: string; value: 'is_dpby' | 'manjian' | 'everyday' | 'flash' }[] = [
  { label: '包邮', value: 'is_dpby' },
  { label: '满减', value: 'manjian' },
  { label: '天天特价', value: 'everyday' },
  { label: '限时秒杀', value: 'flash' },
];

/** The list's query from the address: search keyword by goods or, with `type=1`, by
 * manufacturer (part of its name or its pinyin), filters, page. A number the address holds as
 * text goes as that number (text that is not one goes as `NaN`, which the origin refuses as it
 * refused the text). */
export function listParams(search: URLSearchParams, categoryFromPath?: string): ListQuery {
  const params: ListQuery = {};
  const keyword = search.get('keyword')?.trim();
  if (keyword) {
    params.keyword = keyword;
    if (search.get('type') === '1') params.type = 1;
  }
  const category = categoryFromPath ?? search.get('category');
  if (category) params.category = Number(category);
  const brand = search.get('brand');
  if (brand) params.brand = Number(brand);
  for (const key of ['shop', 'sort', 'order'] as const) {
    const value = search.get(key);
    if (value) params[key] = value;
  }
  const page = search.get('page');
  if (page) params.page = Number(page);
  for (const flag of FLAGS) if (search.get(flag.value) === '1') params[flag.value] = 1;
  return params;
}
