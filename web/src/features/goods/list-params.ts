// The goods list's query, read from the page's address: the list page asks for it, and the
// boot script (app/first-calls.ts) starts the same call before the page's code has come.
import type { Params } from '@/lib/api-client';

/** Goods per page of the list. */
export const PAGE_SIZE = 20;

/** The list's filter switches, each a query flag `name=1`. */
export const FLAGS = [
  { label: '包邮', value: 'is_dpby' },
  { label: '满减', value: 'manjian' },
  { label: '天天特价', value: 'everyday' },
  { label: '限时秒杀', value: 'flash' },
];

/** The list's query from the address: search keyword by goods or, with `type=1`, by
 * manufacturer (part of its name or its pinyin), filters, page. */
export function listParams(search: URLSearchParams, categoryFromPath?: string): Params {
  const params: Params = {};
  const keyword = search.get('keyword')?.trim();
  if (keyword) {
    params.keyword = keyword;
    if (search.get('type') === '1') params.type = 1;
  }
  const category = categoryFromPath ?? search.get('category');
  if (category) params.category = category;
  for (const key of ['brand', 'shop', 'sort', 'order', 'page']) {
    const value = search.get(key);
    if (value) params[key] = value;
  }
  for (const flag of FLAGS) if (search.get(flag.value) === '1') params[flag.value] = 1;
  return params;
}
