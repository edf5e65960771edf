// A goods as lists show it: picture, name, 规格, 生产厂家, price, 中包装/件装, 批准文号, 限购 and
// sales, tags, stock state, a quantity stepper by the middle pack and 加入购物车; where a page asks
// for it, 快速加购 on the picture (one click, the default quantity).
import { memo, useState } from 'react';
import { Link } from 'react-router';
import { Button } from 'antd';
import { ShoppingCartOutlined } from '@ant-design/icons';
import type { Card } from '@/api/types';
import { isCheaper, yuan } from '@/lib/money';
import { currentPrice, refusal, stockClass, useAddToCart, useQuickAdd } from './goods';
import { DispensingMark, GoodsTags } from './tags';
import { PackFacts } from './pack-facts';
import { QuantityStepper } from './quantity-stepper';
import { LazyImage } from './lazy-image';
import { Price } from './price';

export function QuantityAdd({ goods, compact = false }: { goods: Card; compact?: boolean }) {
  const step = Math.max(1, goods.zbz);
  const [number, setNumber] = useState(step);
  const { add, adding } = useAddToCart();
  const buyable = goods.is_buy === 1 && goods.number > 0;
  const refused = refusal(goods);
  // Goods the member may not buy at all show why, with no stepper and no add button.
  if (refused)
    return (
      <span className="quantity-add refused" data-testid="goods-refusal">
        {refused}
      </span>
    );
  return (
    <span className="quantity-add">
      <QuantityStepper
        size={compact ? 'small' : 'middle'}
        step={step}
        max={Math.max(1, goods.number)}
        value={number}
        onChange={setNumber}
        label={goods.name}
        disabled={!buyable}
      />
      <Button
        type="primary"
        size={compact ? 'small' : 'middle'}
        onClick={() => void add(goods, number)}
        loading={adding}
        disabled={!buyable}
      >
        {buyable ? '加入购物车' : '暂不可购'}
      </Button>
    </span>
  );
}

/** 快速加购: the goods' default quantity, its middle pack, in one click. */
export function QuickAddButton({ goods }: { goods: Card }) {
  const { add, adding } = useQuickAdd();
  const buyable = goods.is_buy === 1 && goods.number > 0;
  const pack = Math.max(1, goods.zbz);
  if (refusal(goods)) return null;
  return (
    <Button
      className="quick-add"
      size="small"
      icon={<ShoppingCartOutlined />}
      onClick={() => void add(goods)}
      loading={adding}
      disabled={!buyable}
      aria-label={`快速加购 ${goods.name}`}
      title={`快速加购：一次加入 ${pack}${goods.bzdw}${pack > 1 ? '（1 中包装）' : ''}`}
    >
      快速加购
    </Button>
  );
}

export const GoodsCard = memo(function GoodsCard({
  goods,
  showImage = true,
  quickAdd = false,
}: {
  goods: Card;
  showImage?: boolean;
  /** Show 快速加购 on the picture (the home floors, favourites). */
  quickAdd?: boolean;
}) {
  const price = currentPrice(goods);
  return (
    <article className={quickAdd ? 'goods-card with-quick-add' : 'goods-card'} data-goods-id={goods.id}>
      {quickAdd && <QuickAddButton goods={goods} />}
      {showImage && (
        <Link to={`/list/info/${goods.id}`} className="goods-card-image">
          <LazyImage src={goods.goods_image[0]} alt={goods.name} />
        </Link>
      )}
      <div className="goods-card-price">
        <Price price={price} text={goods.price_text} />
        {price !== null && goods.base_price !== null && isCheaper(price, goods.base_price) && <del>{yuan(goods.base_price)}</del>}
      </div>
      <Link to={`/list/info/${goods.id}`} className="goods-card-name" title={goods.name}>
        <DispensingMark goods={goods} />
        {goods.name}
      </Link>
      <div className="goods-card-meta">规格：{goods.ypgg}</div>
      <div className="goods-card-meta" title={goods.sccj}>
        厂家：{goods.sccj}
      </div>
      <PackFacts goods={goods} />
      {goods.expires_on && (
        <div className="goods-card-meta expiry" data-testid="goods-expiry">
          效期至：{goods.expires_on}
        </div>
      )}
      <div className="goods-card-tags">
        <GoodsTags tags={goods.tags} />
        <span className={stockClass(goods)}>{goods.stock_state}</span>
      </div>
      <QuantityAdd goods={goods} compact />
    </article>
  );
});
