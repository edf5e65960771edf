// 组合购 (/zhzq): sets of goods sold together at the set's own price; a set goes into the cart
// as one line of type 3, which the engine prices at the set's price. The menu is hidden; the
// right-hand ad and the electronic agreement (/dzht) are linked.
import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card as AntCard, Empty, InputNumber, Skeleton, Tag } from 'antd';
import type { CombinationCard } from '@/api/types';
import { useAddLine } from '@/api/cart';
import { ZoneAd } from '@/components/zone-goods';
import { LineType } from '@/lib/engine';
import { Price } from '@/components/price';
import { combinationsQuery } from '../api';
import { useUi } from '@/lib/ui';

function CombinationSet({ set }: { set: CombinationCard }) {
  const [number, setNumber] = useState(1);
  const { message } = useUi();
  const addLine = useAddLine();
  const adding = addLine.isPending;
  const buyable = set.is_buy === 1;
  const add = async () => {
    try {
      await addLine.mutateAsync({ goods_id: set.items[0].goods.id, number, type: LineType.Combination, combination_id: set.id });
      message.success('已加入购物车');
    } catch {
      // The API client has told the buyer.
    }
  };
  return (
    <AntCard
      size="small"
      className="combination-set"
      data-testid="combination-set"
      title={set.name}
      extra={<Tag color="purple">组合价</Tag>}
    >
      <ul className="combination-items">
        {set.items.map((item) => (
          <li key={item.goods.id}>
            <img src={item.goods.goods_image[0]} alt={item.goods.name} loading="lazy" />
            <div>
              <Link to={`/list/info/${item.goods.id}`}>{item.goods.name}</Link>
              <div className="muted">
                {item.goods.ypgg} · {item.goods.sccj}
              </div>
              <div className="muted">
                单价 <Price price={item.goods.price} text={item.goods.price_text} className="" /> × {item.number}
              </div>
            </div>
          </li>
        ))}
      </ul>
      <div className="combination-buy">
        <span>
          组合价{' '}
          <strong className="price big">
            <Price price={set.price} text={set.price_text} className="" />
          </strong>
          <span className="muted"> · 剩余 {set.stock} 套</span>
        </span>
        {set.refusal ? (
          <span className="quantity-add refused" data-testid="goods-refusal">
            {set.refusal}
          </span>
        ) : (
          <span className="quantity-add">
            <InputNumber
              min={1}
              max={Math.max(1, set.stock)}
              value={number}
              onChange={(value) => setNumber(Math.max(1, Math.floor(value ?? 1)))}
              aria-label={`${set.name} 套数`}
              disabled={!buyable}
            />
            <Button type="primary" onClick={() => void add()} loading={adding} disabled={!buyable}>
              {buyable ? '加入购物车' : '暂不可购'}
            </Button>
          </span>
        )}
      </div>
    </AntCard>
  );
}

export function CombinationZonePage() {
  const sets = useQuery(combinationsQuery());
  return (
    <div className="container zone-page">
      <div className="promotion-banner combination-banner">
        <h1>组合购</h1>
        <p>常用品种搭配成套，一套一价，加入购物车即按组合价结算</p>
      </div>
      <Alert
        type="info"
        showIcon
        className="combination-notice"
        message={
          <>
            首次下单前请先签署 <Link to="/dzht">电子合同</Link>；组合商品按套发货，退货按套内商品实付金额退款。
          </>
        }
      />
      <div className="zone-body">
        <div className="zone-main">
          {!sets.data ? (
            <Skeleton active />
          ) : sets.data.length === 0 ? (
            <Empty description="暂无组合" />
          ) : (
            <div className="combination-grid">
              {sets.data.map((set) => (
                <CombinationSet key={set.id} set={set} />
              ))}
            </div>
          )}
        </div>
        <ZoneAd position="postList" />
      </div>
    </div>
  );
}
