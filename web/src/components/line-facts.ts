// What a cart or order line shows of what it sells. A combination set (组合购) shows as the set: a
// 组合 tag, its name and what one set holds; never the first goods inside it, its specification,
// maker or tags.
import type { CartLine } from '@/api/cart';

/** A combination line's type (§3). */
export const COMBINATION_TYPE = 3;

/** What a line shows of its goods: name, specification (a set's contents), maker, picture. */
export interface LineFacts {
  name: string;
  spec: string;
  maker: string;
  image: string | undefined;
  isSet: boolean;
  /** Where the name links to: the goods' page, or the combination zone for a set. */
  href: string;
}

export function cartLineFacts(line: CartLine): LineFacts {
  const set = line.combination;
  if (set) {
    return { name: set.name, spec: set.contents, maker: '', image: set.image, isSet: true, href: '/zhzq' };
  }
  const goods = line.goods;
  return {
    name: goods.name,
    spec: goods.ypgg,
    maker: goods.sccj,
    image: goods.goods_image[0],
    isSet: false,
    href: `/list/info/${goods.id}`,
  };
}

/** An order line as recorded: a set's `ypgg` holds its contents and its maker is empty. */
export function orderLineFacts(item: { goods_id: number; type: number; name: string; ypgg: string; sccj: string }): LineFacts {
  const isSet = item.type === COMBINATION_TYPE;
  return {
    name: item.name,
    spec: item.ypgg,
    maker: item.sccj,
    image: undefined,
    isSet,
    href: isSet ? '/zhzq' : `/list/info/${item.goods_id}`,
  };
}
