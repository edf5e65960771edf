// 领券中心 (/lqzx): the coupons the shop hands out, each as a ticket with what it takes off,
// from what amount, where it applies, how long it stays valid once claimed and how much of it
// is gone; 立即领取 puts one into the member's wallet at once (a visitor is sent to log in).
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button, Empty, Progress, Skeleton, Tag } from 'antd';
import { yuan } from '@/lib/money';
import type { CentreCoupon } from '@/api/types';
import { discountLabel } from '@/lib/engine';
import { thresholdText } from '@/lib/coupon-text';
import { CLAIM_STATES, claimedPercent, couponCentreQuery, useClaim } from '../api';
import { useUi } from '@/lib/ui';

function CentreCard({ coupon }: { coupon: CentreCoupon }) {
  const { message } = useUi();
  const claim = useClaim();
  const state = CLAIM_STATES[coupon.state] ?? CLAIM_STATES.gone;
  const value = coupon.kind === 2 && coupon.rate ? discountLabel(coupon.rate) : yuan(coupon.reduce);
  const press = async () => {
    try {
      await claim.mutateAsync(coupon.id);
      message.success('领取成功，已放入您的优惠券');
    } catch {
      // Told by the API client (a visitor goes to the login page).
    }
  };
  return (
    <div className={`coupon-card centre-card state-${coupon.state}`} data-testid="centre-coupon">
      <div className="coupon-value">
        <strong>{value}</strong>
        <span>{thresholdText(coupon.min_amount)}</span>
      </div>
      <div className="coupon-body">
        <div className="coupon-title">{coupon.title}</div>
        <div>
          <Tag>{coupon.kind_name}</Tag>
          <Tag color="blue">{coupon.scope_name}</Tag>
          {coupon.max_reduce && <Tag>最多减{coupon.max_reduce}</Tag>}
          {coupon.per_member > 1 && <Tag color="orange">每人限领{coupon.per_member}张</Tag>}
        </div>
        <div className="coupon-time">领取后{coupon.days}天内有效</div>
        <Progress percent={claimedPercent(coupon.claimed, coupon.stock)} size="small" format={(percent) => `已抢${percent}%`} />
      </div>
      <div className="centre-action">
        <Button type="primary" danger disabled={!state.enabled} loading={claim.isPending} onClick={() => void press()}>
          {state.label}
        </Button>
        {coupon.mine > 0 && <span className="muted">已领{coupon.mine}张</span>}
      </div>
    </div>
  );
}

export function CouponCentrePage() {
  const centre = useQuery(couponCentreQuery());
  return (
    <div className="container promotion-page">
      <div className="promotion-banner coupon-banner">
        <h1>领券中心</h1>
        <p>
          先领券，再下单，结算时自动为您选择最优惠的一张 · <Link to="/wdqb/yhq">我的优惠券</Link>
        </p>
      </div>
      {!centre.data ? (
        <Skeleton active />
      ) : centre.data.list.length === 0 ? (
        <Empty description="暂无可领取的优惠券" />
      ) : (
        <div className="centre-grid">
          {centre.data.list.map((coupon) => (
            <CentreCard key={coupon.id} coupon={coupon} />
          ))}
        </div>
      )}
    </div>
  );
}
