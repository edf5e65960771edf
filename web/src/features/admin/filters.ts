// A list's filters live in the address (`?status=1&number=…&page=2`), so that going back,
// reloading or sharing the address shows the same list.
import { useSearchParams } from 'react-router';
import type { Params } from '@/lib/api-client';

export function useFilters(names: readonly string[]): [Params, (next: Params) => void] {
  const [search, setSearch] = useSearchParams();
  const params: Params = {};
  for (const name of names) {
    const value = search.get(name);
    if (value !== null && value !== '') params[name] = value;
  }
  const set = (next: Params) => {
    const out = new URLSearchParams();
    for (const [name, value] of Object.entries(next)) {
      if (value !== undefined && value !== null && value !== '') out.set(name, String(value));
    }
    setSearch(out);
  };
  return [params, set];
}

/** A server-paged table's pager: the page in the address, 20 a page, the total in words (`共 12 单`). */
export function pager(page: { page: number; total: number } | undefined, unit: string, onChange: (page: number) => void) {
  return {
    current: page?.page ?? 1,
    pageSize: 20,
    total: page?.total ?? 0,
    showSizeChanger: false,
    showTotal: (total: number) => `共 ${total} ${unit}`,
    onChange,
  };
}

/** The address of a list's Excel export, with the list's filters (not its page). */
export function exportHref(path: string, params: Params): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (name !== 'page' && value !== undefined && value !== null && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
