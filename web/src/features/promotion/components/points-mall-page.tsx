// 积分商城 (/jfsc): goods, coupons and red packets for points (some for points and money, the
// money from the balance), filtered by kind and sorted by points; 立即兑换 asks for the number
// and, for goods, the delivery address, then redeems at once. The member's points are shown
// above, and what was redeemed is under 积分订单 (/jfdd).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Empty, InputNumber, Modal, Segmented, Select, Skeleton, Space, Tag } from 'antd';
import { positive, yuan } from '@/lib/money';
import type { PointsGoods } from '@/api/types';
import { Pager } from '@/components/pager';
import { addressesQuery } from '@/api/account';
import { type MallFilter, pointsMallQuery, redeemable, useRedeem } from '../api';
import { useUi } from '@/lib/ui';

const KINDS = [
  { value: 0, label: '全部' },
  { value: 1, label: '实物商品' },
  { value: 2, label: '优惠券' },
  { value: 3, label: '账户红包' },
];
const SORTS = [
  { value: '', label: '默认排序' },
  { value: 'points_asc', label: '积分从低到高' },
  { value: 'points_desc', label: '积分从高到低' },
];

function RedeemDialog({ item, points, close }: { item: PointsGoods; points: number; close: () => void }) {
  const { message } = useUi();
  const redeem = useRedeem();
  const [number, setNumber] = useState(1);
  const addresses = useQuery(addressesQuery());
  const list = item.kind === 1 ? (addresses.data?.list ?? []) : [];
  const [address, setAddress] = useState<number | undefined>();
  const chosen = address ?? list.find((entry) => entry.is_default === 1)?.id ?? list[0]?.id;
  const needed = item.points * number;
  const confirm = async () => {
    try {
      const order = await redeem.mutateAsync({ id: item.id, number, address_id: item.kind === 1 && chosen ? chosen : undefined });
      message.success(order.kind === 1 ? '兑换成功，商品将尽快为您发出' : '兑换成功，已存入您的账户');
      close();
    } catch {
      // Told by the API client.
    }
  };
  return (
    <Modal
      open
      title={`兑换：${item.name}`}
      okText="确认兑换"
      cancelText="取消"
      onOk={() => void confirm()}
      onCancel={close}
      confirmLoading={redeem.isPending}
      okButtonProps={{ disabled: needed > points || (item.kind === 1 && !chosen) }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <div>
          兑换数量：
          <InputNumber
            min={1}
            max={Math.max(1, redeemable(item))}
            precision={0}
            value={number}
            onChange={(value) => setNumber(Number(value ?? 1))}
            aria-label="兑换数量"
          />
        </div>
        <div data-testid="redeem-points">
          所需积分：<strong className="price">{needed}</strong>（您有{points}积分）
        </div>
        {positive(item.price) && (
          <div>
            另需现金：{yuan(item.price)} × {number}（从账户余额支付）
          </div>
        )}
        {needed > points && <div className="price">积分不足</div>}
        {item.kind === 1 && (
          <div>
            收货地址：
            <Select
              style={{ width: '100%' }}
              value={chosen}
              onChange={setAddress}
              loading={addresses.isLoading}
              options={list.map((entry) => ({
                value: entry.id,
                label: `${entry.contact} ${entry.phone} ${entry.province}${entry.city}${entry.district}${entry.detail}`,
              }))}
              aria-label="收货地址"
            />
          </div>
        )}
      </Space>
    </Modal>
  );
}

function MallCard({ item, open }: { item: PointsGoods; open: () => void }) {
  const left = redeemable(item);
  return (
    <div className="mall-card" data-testid="mall-item">
      {item.picture ? (
        <img src={item.picture} alt={item.name} className="mall-picture" />
      ) : (
        <div className={`mall-ticket kind-${item.kind}`}>{item.kind === 3 ? `${yuan(item.red_packet)} 红包` : '优惠券'}</div>
      )}
      <div className="mall-name">{item.name}</div>
      <div className="muted mall-description">{item.description}</div>
      <div className="mall-price">
        <strong className="price">{item.points}积分</strong>
        {positive(item.price) && <span className="price"> + {yuan(item.price)}</span>}
      </div>
      <div className="muted">
        <Tag>{item.kind_name}</Tag>剩余{item.stock}件{item.per_member > 0 && ` · 每人限兑${item.per_member}件`}
      </div>
      <Button type="primary" block disabled={left === 0} onClick={open}>
        {item.stock === 0 ? '已兑完' : left === 0 ? '已达兑换上限' : '立即兑换'}
      </Button>
    </div>
  );
}

export function PointsMallPage() {
  const [filter, setFilter] = useState<MallFilter>({ page: 1, kind: 0, sort: '' });
  const mall = useQuery(pointsMallQuery(filter));
  const [chosen, setChosen] = useState<PointsGoods | null>(null);
  return (
    <div className="container promotion-page">
      <div className="promotion-banner mall-banner">
        <h1>积分商城</h1>
        <p>
          {mall.data ? (
            <>
              我的积分：<strong data-testid="mall-points">{mall.data.points}</strong> · <Link to="/jfdd">积分订单</Link> ·{' '}
              <Link to="/wdqb/jfgl">积分明细</Link>
            </>
          ) : (
            '下单即可获得积分，积分可兑换商品、优惠券和红包'
          )}
        </p>
      </div>
      <Space className="mall-filters" wrap>
        <Segmented options={KINDS} value={filter.kind} onChange={(kind) => setFilter({ ...filter, page: 1, kind: Number(kind) })} />
        <Select
          style={{ width: 150 }}
          options={SORTS}
          value={filter.sort}
          onChange={(sort) => setFilter({ ...filter, page: 1, sort })}
          aria-label="排序"
        />
      </Space>
      {!mall.data ? (
        <Skeleton active />
      ) : mall.data.list.length === 0 ? (
        <Empty description="暂无可兑换的商品" />
      ) : (
        <>
          <div className="mall-grid">
            {mall.data.list.map((item) => (
              <MallCard key={item.id} item={item} open={() => setChosen(item)} />
            ))}
          </div>
          <Pager total={mall.data.total} page={filter.page} pageSize={12} onChange={(page) => setFilter({ ...filter, page })} />
        </>
      )}
      {chosen && mall.data && <RedeemDialog item={chosen} points={mall.data.points} close={() => setChosen(null)} />}
    </div>
  );
}
