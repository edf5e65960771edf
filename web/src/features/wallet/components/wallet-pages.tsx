// 我的钱包 (/wdqb) and its children: 余额管理 (/wdqb/yegl, with recharge), 账户红包
// (/wdqb/zhhb), 积分管理 (/wdqb/jfgl), 优惠券 (/wdqb/yhq), 现金券 (/wdqb/xjq).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Card, Empty, Segmented, Skeleton, Statistic, Tabs, Tag } from 'antd';
import dayjs from 'dayjs';
import { Pager } from '@/components/pager';
import type { MemberCoupon, MemberVoucher } from '@/api/types';
import { discountLabel } from '@/lib/engine';
import { yuan } from '@/lib/money';
import { MemberLayout } from '@/components/member-layout';
import { walletQuery } from '@/api/wallet';
import { couponCountQuery, couponsQuery, vouchersQuery } from '../api';
import { thresholdText } from '@/lib/coupon-text';
import { LogTable } from './log-table';
import { Recharge } from './recharge';

const PAGE_SIZE = 20;

function WalletSummary() {
  const wallet = useQuery(walletQuery());
  const coupons = useQuery(couponCountQuery());
  const vouchers = useQuery(vouchersQuery(0, 1));
  if (!wallet.data) return <Skeleton active />;
  const items = [
    { title: '账户余额', value: yuan(wallet.data.balance), to: '/wdqb/yegl', testid: 'wallet-balance' },
    { title: '账户红包', value: yuan(wallet.data.red_packet), to: '/wdqb/zhhb', testid: 'wallet-red-packet' },
    { title: '积分', value: String(wallet.data.points), to: '/wdqb/jfgl', testid: 'wallet-points' },
    { title: '可用优惠券', value: `${coupons.data?.usable ?? '—'} 张`, to: '/wdqb/yhq', testid: 'wallet-coupons' },
    { title: '可用现金券', value: `${vouchers.data?.count.usable ?? '—'} 张`, to: '/wdqb/xjq', testid: 'wallet-vouchers' },
  ];
  return (
    <div className="member-stats">
      {items.map((item) => (
        <Link key={item.to} to={item.to}>
          <Card size="small" hoverable>
            <Statistic title={item.title} value={item.value} valueRender={() => <span data-testid={item.testid}>{item.value}</span>} />
          </Card>
        </Link>
      ))}
    </div>
  );
}

export function WalletPage() {
  return (
    <MemberLayout title="我的钱包">
      <WalletSummary />
      <h2 className="section-title">余额明细</h2>
      <LogTable account="balance" unit="元" />
    </MemberLayout>
  );
}

export function BalancePage() {
  const wallet = useQuery(walletQuery());
  return (
    <MemberLayout title="余额管理">
      <div className="member-stats">
        <Card size="small">
          <Statistic title="账户余额" valueRender={() => <span data-testid="balance">{yuan(wallet.data?.balance)}</span>} />
        </Card>
      </div>
      <Recharge />
      <h2 className="section-title">余额明细</h2>
      <LogTable account="balance" unit="元" />
    </MemberLayout>
  );
}

export function RedPacketPage() {
  const wallet = useQuery(walletQuery());
  return (
    <MemberLayout title="账户红包">
      <div className="member-stats">
        <Card size="small">
          <Statistic title="账户红包" valueRender={() => <span data-testid="red-packet">{yuan(wallet.data?.red_packet)}</span>} />
        </Card>
      </div>
      <p className="hint">下单时可用红包抵扣部分货款，每单最多抵扣比例以结算页为准。</p>
      <LogTable account="red_packet" unit="元" />
    </MemberLayout>
  );
}

export function PointsPage() {
  const wallet = useQuery(walletQuery());
  return (
    <MemberLayout title="积分管理">
      <div className="member-stats">
        <Card size="small">
          <Statistic title="可用积分" valueRender={() => <span data-testid="points">{wallet.data?.points ?? '—'}</span>} />
        </Card>
      </div>
      <p className="hint">订单支付后按实付金额获得积分；下单时积分可抵扣部分货款。</p>
      <LogTable account="points" unit="积分" />
    </MemberLayout>
  );
}

function validity(startsAt: number, expiresAt: number): string {
  return `${dayjs.unix(startsAt).format('YYYY.MM.DD')} - ${dayjs.unix(expiresAt - 1).format('YYYY.MM.DD')}`;
}

function CouponCard({ coupon }: { coupon: MemberCoupon }) {
  const value = coupon.kind === 2 && coupon.rate ? discountLabel(coupon.rate) : yuan(coupon.reduce);
  return (
    <div className={`coupon-card status-${coupon.status}`} data-testid="coupon-card">
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
        </div>
        <div className="coupon-time">{validity(coupon.starts_at, coupon.expires_at)}</div>
      </div>
      <div className="coupon-state">{coupon.status_name}</div>
    </div>
  );
}

function VoucherCard({ voucher }: { voucher: MemberVoucher }) {
  return (
    <div className={`coupon-card status-${voucher.status}`} data-testid="voucher-card">
      <div className="coupon-value">
        <strong>{yuan(voucher.amount)}</strong>
        <span>{thresholdText(voucher.min_amount)}</span>
      </div>
      <div className="coupon-body">
        <div className="coupon-title">{voucher.title}</div>
        <div className="coupon-time">{validity(voucher.starts_at, voucher.expires_at)}</div>
      </div>
      <div className="coupon-state">{voucher.status_name}</div>
    </div>
  );
}

const STATUS_TABS = ['未使用', '已使用', '已过期'];

function statusTabs(counts: (number | undefined)[]) {
  return STATUS_TABS.map((label, status) => ({
    key: String(status),
    label: counts[status] === undefined ? label : `${label}（${counts[status]}）`,
  }));
}

export function CouponsPage() {
  const [status, setStatus] = useState(0);
  const [kind, setKind] = useState(0);
  const [page, setPage] = useState(1);
  const counts = useQuery(couponCountQuery());
  const coupons = useQuery(couponsQuery(status, kind, page));
  return (
    <MemberLayout title="优惠券">
      <Tabs
        activeKey={String(status)}
        onChange={(key) => {
          setStatus(Number(key));
          setPage(1);
        }}
        items={statusTabs([counts.data?.unused, counts.data?.used, counts.data?.expired])}
      />
      <div className="member-filters">
        <Segmented
          options={[
            { label: '全部', value: 0 },
            { label: '满减券', value: 1 },
            { label: '折扣券', value: 2 },
          ]}
          value={kind}
          onChange={(value) => {
            setKind(value);
            setPage(1);
          }}
        />
      </div>
      {!coupons.data ? (
        <Skeleton active />
      ) : coupons.data.list.length === 0 ? (
        <Empty description="暂无优惠券" />
      ) : (
        <div className="coupon-grid">
          {coupons.data.list.map((coupon) => (
            <CouponCard key={coupon.id} coupon={coupon} />
          ))}
        </div>
      )}
      {coupons.data && <Pager total={coupons.data.total} page={page} pageSize={PAGE_SIZE} onChange={setPage} />}
    </MemberLayout>
  );
}

export function VouchersPage() {
  const [status, setStatus] = useState(0);
  const [page, setPage] = useState(1);
  const vouchers = useQuery(vouchersQuery(status, page));
  const count = vouchers.data?.count;
  return (
    <MemberLayout title="现金券">
      <Tabs
        activeKey={String(status)}
        onChange={(key) => {
          setStatus(Number(key));
          setPage(1);
        }}
        items={statusTabs([count?.unused, count?.used, count?.expired])}
      />
      {!vouchers.data ? (
        <Skeleton active />
      ) : vouchers.data.list.length === 0 ? (
        <Empty description="暂无现金券" />
      ) : (
        <div className="coupon-grid">
          {vouchers.data.list.map((voucher) => (
            <VoucherCard key={voucher.id} voucher={voucher} />
          ))}
        </div>
      )}
      {vouchers.data && <Pager total={vouchers.data.total} page={page} pageSize={PAGE_SIZE} onChange={setPage} />}
    </MemberLayout>
  );
}
