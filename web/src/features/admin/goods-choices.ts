// The goods pickers of the promotion forms (满减, 秒杀, 组合购, 积分商品, 天天特价, 活动页):
// goods found by id or name as the operator types, labelled the same way everywhere.
import { useMemo, useState } from 'react';
import { useGoodsLookup, type GoodsRow } from './api';

export type GoodsLabel = (goods: GoodsRow) => string;

/** `384 碘伏消毒液 500ml`: id, name and specification. */
export const withSpec: GoodsLabel = (goods) => `${goods.id} ${goods.name} ${goods.ypgg}`;

/** `384 碘伏消毒液 500ml（¥12.50）`: with the goods' own price, where the form prices it. */
export const withPrice: GoodsLabel = (goods) => `${withSpec(goods)}（¥${goods.price}）`;

export type Choice = { value: number; label: string };

/**
 * Goods for a picker: those found for the text typed now, after the goods already known (a
 * record's own, given as id → label) and those chosen since (`remember`).
 *
 * Only the answer to the text typed now is offered. While a new search loads, the list does not
 * keep the goods of the one before: an option clicked then would move under the pointer when the
 * answer comes, and the click would choose — or, in a multiple choice, take out — another goods.
 */
export function useGoodsChoices(known?: ReadonlyMap<number, string>, label: GoodsLabel = withSpec) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<ReadonlyMap<number, string>>(new Map());
  const found = useGoodsLookup(search);
  const list = useMemo(() => found.data?.list ?? [], [found.data]);
  const options: Choice[] = useMemo(() => {
    const all = new Map([...(known ?? []), ...chosen]);
    for (const goods of list) all.set(goods.id, label(goods));
    return [...all].map(([value, text]) => ({ value, label: text }));
  }, [known, chosen, list, label]);
  /** Keeps the labels of the goods now chosen, so that they outlive the search that found them. */
  const remember = (ids: number | number[] | null | undefined) => {
    const wanted = new Set(Array.isArray(ids) ? ids : ids == null ? [] : [ids]);
    setChosen((before) => {
      const next = new Map(before);
      for (const option of options) if (wanted.has(option.value)) next.set(option.value, option.label);
      return next;
    });
  };
  return { options, found: list, setSearch, remember, loading: found.isFetching };
}
