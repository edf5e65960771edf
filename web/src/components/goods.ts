// What the goods card, the lists and the detail page share about a goods: the price it sells
// at now, its stock state's class, and adding it to the cart (with a quantity, or 快速加购: the
// default quantity the server chooses).
import { useAddLine, useQuickAddLine } from '@/api/cart';
import type { Card } from '@/api/types';
import { LineType } from '@/lib/engine';
import { useUi } from '@/lib/ui';

/** The price a goods sells at now: its flash sale's while one runs; null while prices are
 * hidden from the viewer (`price_text` says why). */
export function currentPrice(goods: Card): string | null {
  return goods.flash_sale?.price ?? goods.price;
}

export function stockClass(goods: Card): string {
  // Outside the member's business scope is not out of stock: the state is told as it is.
  if ((!goods.is_buy && goods.out_of_scope !== 1) || goods.number <= 0) return 'stock out';
  return goods.stock_state === '库存紧张' ? 'stock low' : 'stock';
}

/** Why the viewer cannot buy it at all — not signed in (登录后采购), not approved (认证后采购),
 * outside its business scope (超出经营范围) — or null when only stock decides. */
export function refusal(goods: Pick<Card, 'refusal' | 'price' | 'price_text'>): string | null {
  if (goods.price === null) return goods.price_text === '登录可见' ? '登录后采购' : '认证后采购';
  return goods.refusal || null;
}

/** Adds a goods to the cart (as a flash-sale line while its sale runs), then refreshes the cart views. */
export function useAddToCart() {
  const { message } = useUi();
  const addLine = useAddLine();
  const add = async (goods: Card, number: number) => {
    try {
      await addLine.mutateAsync({ goods_id: goods.id, number, type: goods.flash_sale ? LineType.FlashSale : undefined });
      message.success('已加入购物车');
    } catch {
      // The API client has told the buyer.
    }
  };
  return { add, adding: addLine.isPending };
}

/** 快速加购: one click adds the goods' default quantity (its middle pack, chosen by the server),
 * then says how many were added and how many the cart now holds, and refreshes the cart views. */
export function useQuickAdd() {
  const { message } = useUi();
  const quickAdd = useQuickAddLine();
  const add = async (goods: Card) => {
    try {
      const added = await quickAdd.mutateAsync(goods.id);
      message.success(`已加入购物车 ${added.added}${added.unit}，购物车中共 ${added.number}${added.unit}`);
    } catch {
      // The API client has told the buyer.
    }
  };
  return { add, adding: quickAdd.isPending };
}
