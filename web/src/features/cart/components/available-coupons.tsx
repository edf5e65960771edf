// 查看全部可用优惠券 at checkout: the member's coupons usable now (`availableCoupon`), a page of 20
// at a time, of every kind or only 满减 or 折扣, each beside what the engine's settlement of this
// order says of it (可减 ¥x, 还差 ¥y 可用, 不满足使用条件) and 使用 for a usable one. The list is
// the server's; every amount on it is the engine's.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Modal, Segmented, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import type { MemberCoupon } from '@/api/types';
import type { CouponValue } from '@/lib/engine';
import { positive, yuan } from '@/lib/money';
import { availableCouponsQuery } from '../api';

const PAGE_SIZE = 20;
const KINDS = [
  { label: '全部', value: 0 },
  { label: '满减券', value: 1 },
  { label: '折扣券', value: 2 },
];

/** What this order's settlement says of a coupon, in the checkout cards' words. */
function couponState(value: CouponValue | undefined): { text: string; usable: boolean } {
  if (value?.usable) return { text: `本单可减 ${yuan(value.value)}`, usable: true };
  if (value && positive(value.need)) return { text: `还差 ${yuan(value.need)} 可用`, usable: false };
  return { text: '本单不满足使用条件', usable: false };
}

export function AvailableCoupons({
  values,
  chosen,
  onUse,
  terms,
}: {
  /** The engine's value of each of the member's coupons on this order. */
  values: Map<number, CouponValue>;
  /** The coupon the settlement uses now. */
  chosen: number | undefined;
  onUse: (id: number) => void;
  /** A coupon's terms as the checkout's cards say them. */
  terms: (coupon: MemberCoupon) => string;
}) {
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState(0);
  const [page, setPage] = useState(1);
  // The count on the button: the first page of every kind.
  const count = useQuery(availableCouponsQuery(0, 1));
  const list = useQuery({ ...availableCouponsQuery(kind, page), enabled: open });
  const total = count.data?.total;

  return (
    <>
      <Button type="link" onClick={() => setOpen(true)} data-testid="all-coupons">
        查看全部可用优惠券{total === undefined ? '' : `（${total} 张）`}
      </Button>
      <Modal open={open} title="全部可用优惠券" footer={null} width={900} onCancel={() => setOpen(false)} destroyOnHidden>
        <Segmented
          options={KINDS}
          value={kind}
          onChange={(value) => {
            setKind(Number(value));
            setPage(1);
          }}
        />
        <Table<MemberCoupon>
          className="available-coupons"
          rowKey="id"
          size="small"
          loading={list.isFetching}
          dataSource={list.data?.list}
          locale={{ emptyText: '暂无可用的优惠券' }}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: list.data?.total ?? 0,
            onChange: setPage,
            showSizeChanger: false,
            showTotal: (all) => `共 ${all} 张`,
          }}
          onRow={() => ({ 'data-testid': 'available-coupon' }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { title: '优惠券', dataIndex: 'title' },
            { title: '类型', dataIndex: 'kind_name', width: 80 },
            { title: '适用范围', dataIndex: 'scope_name', width: 90 },
            { title: '使用条件', key: 'terms', render: (_, coupon) => terms(coupon) },
            {
              title: '有效期至',
              dataIndex: 'expires_at',
              width: 150,
              render: (at: number) => dayjs.unix(at).format('YYYY-MM-DD HH:mm'),
            },
            {
              title: '本单',
              key: 'value',
              width: 150,
              render: (_, coupon) => {
                const state = couponState(values.get(coupon.id));
                return (
                  <span className={state.usable ? 'price' : 'muted'} data-testid="available-coupon-value">
                    {state.text}
                  </span>
                );
              },
            },
            {
              title: '操作',
              key: 'use',
              width: 90,
              render: (_, coupon) =>
                coupon.id === chosen ? (
                  <Tag color="red">使用中</Tag>
                ) : (
                  <Button
                    size="small"
                    disabled={!couponState(values.get(coupon.id)).usable}
                    onClick={() => {
                      onUse(coupon.id);
                      setOpen(false);
                    }}
                  >
                    使用
                  </Button>
                ),
            },
          ]}
        />
      </Modal>
    </>
  );
}
