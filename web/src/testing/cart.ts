// Cart lines as `cart/list` answers them, for tests that price them with the real engine.
import { LineType } from '@/lib/engine';
import type { CartLine } from '@/api/cart';

/** A normal, selected coupon line of `number` units at `price`, its goods in stock; `goods` overrides. */
export function cartLine(id: number, number: number, price: string, goods: Partial<CartLine['goods']> = {}): CartLine {
  return {
    id,
    type: LineType.Normal,
    goods_type: 0,
    number,
    price,
    raw_price: price,
    is_selected: 1,
    with_coupon: 1,
    goods_price_id: 0,
    ladder_price_id: 0,
    goods_manjian_id: 0,
    goods_manjian_amount: '0',
    is_yj: 0,
    gift_data: { total: 0, type: 0 },
    combination: null,
    goods: {
      id: id * 10,
      name: `商品${id}`,
      sccj: '厂家',
      ypgg: '规格',
      bzdw: '盒',
      pzwh: '',
      price,
      base_price: price,
      number: 500,
      stock_state: '有货',
      is_buy: 1,
      is_youx: 0,
      type: 1,
      is_dpby: 0,
      qg_number: 0,
      ladder_price: [],
      ladder_price_type: 0,
      goods_manjian_id: 0,
      tags: [],
      flash_sale: null,
      goods_image: [],
      ck_id: 0,
      expires_on: '',
      is_kx: 0,
      zbz: 1,
      jzl: 0,
      sales: 0,
      ...goods,
    },
  };
}
