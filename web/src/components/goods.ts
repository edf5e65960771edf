// What the goods card, the lists and the detail page share about a goods: the price it sells
// at now, its stock state's class, and adding it to the cart (with a quantity, or 快速加购: the
// default quantity the server chooses).
import { useState } from 'react';
import { App as AntApp } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { addToCart, quickAdd, refreshCart } from '@/api/cart';
import type { Card } from '@/api/types';
import { LineType } from '@/lib/engine';

/** The price a goods sells at now: its flash sale's while one runs. */
export function currentPrice(goods: Card): string {
  return goods.flash_sale?.price ?? goods.price;
}

export function stockClass(goods: Card): string {
  if (!goods.is_buy || goods.number <= 0) return 'stock out';
  return goods.stock_state === '库存紧张' ? 'stock low' : 'stock';
}

/** Adds a goods to the cart (as a flash-sale line while its sale runs), then refreshes the cart views. */
export function useAddToCart() {
  const client = useQueryClient();
  const { message } = AntApp.useApp();
  const [adding, setAdding] = useState(false);
  const add = async (goods: Card, number: number) => {
    setAdding(true);
    try {
      await addToCart({ goods_id: goods.id, number, type: goods.flash_sale ? LineType.FlashSale : undefined });
      message.success('已加入购物车');
      await refreshCart(client);
    } catch {
      // The API client has told the buyer.
    } finally {
      setAdding(false);
    }
  };
  return { add, adding };
}

/** 快速加购: one click adds the goods' default quantity (its middle pack, chosen by the server),
 * then says how many were added and how many the cart now holds, and refreshes the cart views. */
export function useQuickAdd() {
  const client = useQueryClient();
  const { message } = AntApp.useApp();
  const [adding, setAdding] = useState(false);
  const add = async (goods: Card) => {
    setAdding(true);
    try {
      const added = await quickAdd(goods.id);
      message.success(`已加入购物车 ${added.added}${added.unit}，购物车中共 ${added.number}${added.unit}`);
      await refreshCart(client);
    } catch {
      // The API client has told the buyer.
    } finally {
      setAdding(false);
    }
  };
  return { add, adding };
}
