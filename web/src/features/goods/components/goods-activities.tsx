// 本品参与的活动 on a goods' detail page (`goods/activities`): its full-reduction activity with
// every tier, a running flash sale with its price, limit and a live countdown, and the
// combinations it is sold in, each with its set price and 加入购物车 for one set (a type-3 line,
// priced by the engine at the set's price).
import { Link } from 'react-router';
import { Button, Skeleton, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { CombinationOffer } from '@/api/types';
import { useAddLine } from '@/api/cart';
import { LineType, manjianTitle } from '@/lib/engine';
import { Price } from '@/components/price';
import { countdown, useServerNow } from '@/lib/server-clock';
import { goodsActivitiesQuery } from '../api';
import { useUi } from '@/lib/ui';

function CombinationRow({ goodsId, offer, priceText }: { goodsId: number; offer: CombinationOffer; priceText: string }) {
  const { message } = useUi();
  const addLine = useAddLine();
  const adding = addLine.isPending;
  const add = async () => {
    try {
      await addLine.mutateAsync({ goods_id: goodsId, number: 1, type: LineType.Combination, combination_id: offer.id });
      message.success('已加入购物车（1 套）');
    } catch {
      // The API client has told the buyer.
    }
  };
  return (
    <li data-testid="activity-combination">
      <Tag color="purple">组合购</Tag>
      <span className="activity-name">{offer.name}</span>
      <span>
        组合价{' '}
        <strong className="price">
          <Price price={offer.price} text={priceText} className="" />
        </strong>
      </span>
      <span className="activity-actions">
        <Link to="/zhzq">查看组合</Link>
        <Button size="small" onClick={() => void add()} loading={adding}>
          加入购物车
        </Button>
      </span>
    </li>
  );
}

export function GoodsActivities({ goodsId, unit }: { goodsId: number; unit: string }) {
  const activities = useQuery(goodsActivitiesQuery(goodsId));
  const now = useServerNow();
  const data = activities.data;
  const sale = data?.flash_sale && data.flash_sale.ends_at > now ? data.flash_sale : null;
  const none = data && !data.manjian && !sale && data.combinations.length === 0;
  return (
    <section className="detail-activities" data-testid="goods-activities">
      <h2>本品参与的活动</h2>
      {!data ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : none ? (
        <p className="muted">本品暂未参与活动</p>
      ) : (
        <ul className="activity-list">
          {data.manjian && (
            <li data-testid="activity-manjian">
              <Tag color="red">满减</Tag>
              <span className="activity-name">{data.manjian.title}</span>
              <span>{data.manjian.tiers.map((tier) => manjianTitle(tier.amount, tier.reduce)).join('，')}</span>
              <span className="muted">与同活动商品合计计算，结算时自动减免</span>
            </li>
          )}
          {sale && (
            <li data-testid="activity-flash-sale">
              <Tag color="volcano">秒杀</Tag>
              <span>
                秒杀价{' '}
                <strong className="price">
                  <Price price={sale.price} text={data.price_text} className="" />
                </strong>
              </span>
              <span>
                每人限购 {sale.limit}
                {unit}
              </span>
              <span className="muted">距结束 {countdown(sale.ends_at - now)}</span>
            </li>
          )}
          {data.combinations.map((offer) => (
            <CombinationRow key={offer.id} goodsId={goodsId} offer={offer} priceText={data.price_text} />
          ))}
        </ul>
      )}
    </section>
  );
}
