// A goods as lists show it: picture, name, 规格, 生产厂家, price, tags, stock state, a quantity
// stepper and 加入购物车.
import { memo, useState } from 'react';
import { Link } from 'react-router';
import { App as AntApp, Button, InputNumber } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { addToCart, CART_KEY, CART_TOTAL_KEY } from '@/api/cart';
import type { Goods } from '@/api/types';
import { LineType } from '@/lib/engine';
import { isCheaper, yuan } from '@/lib/money';
import { GoodsTags } from './tags';

/** The price a goods sells at now: its flash sale's while one runs. */
export function currentPrice(goods: Goods): string {
  return goods.flash_sale?.price ?? goods.price;
}

export function stockClass(goods: Goods): string {
  if (!goods.is_buy || goods.number <= 0) return 'stock out';
  return goods.stock_state === '库存紧张' ? 'stock low' : 'stock';
}

export function useAddToCart() {
  const client = useQueryClient();
  const { message } = AntApp.useApp();
  const [adding, setAdding] = useState(false);
  const add = async (goods: Goods, number: number) => {
    setAdding(true);
    try {
      await addToCart({ goods_id: goods.id, number, type: goods.flash_sale ? LineType.FlashSale : undefined });
      message.success('已加入购物车');
      await Promise.all([client.invalidateQueries({ queryKey: CART_TOTAL_KEY }), client.invalidateQueries({ queryKey: CART_KEY })]);
    } catch {
      // The API client has told the buyer.
    } finally {
      setAdding(false);
    }
  };
  return { add, adding };
}

export function QuantityAdd({ goods, compact = false }: { goods: Goods; compact?: boolean }) {
  const [number, setNumber] = useState(1);
  const { add, adding } = useAddToCart();
  const buyable = goods.is_buy === 1 && goods.number > 0;
  return (
    <span className="quantity-add">
      <InputNumber size={compact ? 'small' : 'middle'} min={1} max={Math.max(1, goods.number)} value={number} onChange={(value) => setNumber(Math.max(1, Math.floor(value ?? 1)))} aria-label={`${goods.name} 数量`} disabled={!buyable} />
      <Button type="primary" size={compact ? 'small' : 'middle'} onClick={() => void add(goods, number)} loading={adding} disabled={!buyable}>
        {buyable ? '加入购物车' : '暂不可购'}
      </Button>
    </span>
  );
}

export const GoodsCard = memo(function GoodsCard({ goods, showImage = true }: { goods: Goods; showImage?: boolean }) {
  const price = currentPrice(goods);
  return (
    <article className="goods-card" data-goods-id={goods.id}>
      {showImage && (
        <Link to={`/list/info/${goods.id}`} className="goods-card-image">
          <img src={goods.goods_image[0]} alt={goods.name} loading="lazy" />
        </Link>
      )}
      <div className="goods-card-price">
        <span className="price">{yuan(price)}</span>
        {isCheaper(price, goods.base_price) && <del>{yuan(goods.base_price)}</del>}
      </div>
      <Link to={`/list/info/${goods.id}`} className="goods-card-name" title={goods.name}>
        {goods.name}
      </Link>
      <div className="goods-card-meta">规格：{goods.ypgg}</div>
      <div className="goods-card-meta" title={goods.sccj}>
        厂家：{goods.sccj}
      </div>
      <div className="goods-card-tags">
        <GoodsTags tags={goods.tags} />
        <span className={stockClass(goods)}>{goods.stock_state}</span>
      </div>
      <QuantityAdd goods={goods} compact />
    </article>
  );
});
