// 订单详情 (/order/info/{id}; /order/wl/{id} comes here too): the order's state and timeline,
// address and payment, its parcels (lots, inspection reports, delivery notes, logistics), every line with its shares of the deductions and what was
// paid for it, the settlement, and the actions its state allows.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Card, Descriptions, Result, Skeleton, Table, Tag, Timeline } from 'antd';
import type { OrderItem } from '@/api/types';
import { positive, yuan } from '@/lib/money';
import { MemberLayout } from '@/components/member-layout';
import { formatTime } from '@/lib/time';
import { orderQuery } from '@/api/orders';
import { STATUS_COLOURS } from '../api';
import { OrderActions } from './order-actions';
import { orderLineFacts } from '@/components/line-facts';
import { LineGoodsName } from '@/components/line-goods';
import { PayCountdown } from '@/components/pay-countdown';
import { ShipmentsCard } from './shipments-card';

const ACTORS: Record<string, string> = { member: '会员', operator: '商家', system: '系统' };
const PAY_METHODS: Record<string, string> = { balance: '余额支付', online: '在线支付' };

export function OrderDetailPage() {
  const id = Number(useParams().id);
  const order = useQuery(orderQuery(id));
  if (!(id > 0) || order.isError)
    return (
      <MemberLayout title="订单详情">
        <Result status="404" title="订单不存在" extra={<Link to="/order">返回我的订单</Link>} />
      </MemberLayout>
    );
  const data = order.data;
  return (
    <MemberLayout title="订单详情" extra={data && <OrderActions order={data} detail={false} />}>
      {!data ? (
        <Skeleton active />
      ) : (
        <div data-testid="order-detail">
          {data.status === 0 && <PayCountdown deadline={data.pay_deadline} />}
          <Descriptions bordered size="small" column={2} className="member-card">
            <Descriptions.Item label="订单号">{data.order_no}</Descriptions.Item>
            <Descriptions.Item label="状态">
              <Tag color={STATUS_COLOURS[data.status]} data-testid="order-status">
                {data.status_name}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label="下单时间">{formatTime(data.created_at)}</Descriptions.Item>
            <Descriptions.Item label="支付方式">{PAY_METHODS[data.pay_method] ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="收货地址" span={2}>
              {data.address}
            </Descriptions.Item>
            {data.remark ? (
              <Descriptions.Item label="备注" span={2}>
                {data.remark}
              </Descriptions.Item>
            ) : null}
          </Descriptions>

          <div className="order-detail-columns">
            <Card size="small" title="订单跟踪" className="member-card">
              <Timeline
                items={data.timeline.map((event) => ({
                  children: (
                    <>
                      <div>
                        {event.title} <span className="muted">（{ACTORS[event.actor] ?? event.actor}）</span>
                      </div>
                      <div className="muted">
                        {formatTime(event.created_at)} {event.note}
                      </div>
                    </>
                  ),
                }))}
              />
            </Card>
            <ShipmentsCard order={data} />
          </div>

          <Table<OrderItem>
            size="small"
            className="member-card"
            rowKey="id"
            pagination={false}
            dataSource={data.items}
            columns={[
              { title: '商品', dataIndex: 'name', render: (_: string, item) => <LineGoodsName facts={orderLineFacts(item)} /> },
              { title: '生产厂家', dataIndex: 'sccj' },
              { title: '单价', dataIndex: 'price', align: 'right', render: yuan },
              { title: '数量', dataIndex: 'number', align: 'right' },
              { title: '小计', dataIndex: 'amount', align: 'right', render: yuan },
              { title: '满减', dataIndex: 'goods_manjian_amount', align: 'right', render: yuan },
              { title: '优惠券', dataIndex: 'coupon', align: 'right', render: yuan },
              { title: '现金券', dataIndex: 'cash_voucher', align: 'right', render: yuan },
              { title: '红包', dataIndex: 'red_packet', align: 'right', render: yuan },
              { title: '积分', dataIndex: 'points', align: 'right', render: yuan },
              { title: '实付', dataIndex: 'paid', align: 'right', render: (paid: string) => <strong>{yuan(paid)}</strong> },
              ...(positive(data.refunded)
                ? [
                    {
                      title: '已退货',
                      key: 'returned',
                      align: 'right' as const,
                      render: (_: unknown, item: OrderItem) => (item.returned > 0 ? `${item.returned}件 ${yuan(item.refunded)}` : '—'),
                    },
                  ]
                : []),
            ]}
          />

          <Descriptions bordered size="small" column={1} className="order-totals">
            <Descriptions.Item label="商品金额">{yuan(data.total)}</Descriptions.Item>
            {positive(data.discount) && <Descriptions.Item label="满减优惠">-{yuan(data.discount)}</Descriptions.Item>}
            {positive(data.coupon) && <Descriptions.Item label="优惠券">-{yuan(data.coupon)}</Descriptions.Item>}
            {positive(data.cash_voucher) && <Descriptions.Item label="现金券">-{yuan(data.cash_voucher)}</Descriptions.Item>}
            {positive(data.red_packet) && <Descriptions.Item label="红包">-{yuan(data.red_packet)}</Descriptions.Item>}
            {data.points_used > 0 && (
              <Descriptions.Item label="积分抵扣">
                -{yuan(data.points_value)}（{data.points_used} 积分）
              </Descriptions.Item>
            )}
            <Descriptions.Item label="运费">{positive(data.shipping_fee) ? `+${yuan(data.shipping_fee)}` : '包邮'}</Descriptions.Item>
            <Descriptions.Item label="应付金额">
              <strong className="price big" data-testid="order-due">
                {yuan(data.due)}
              </strong>
            </Descriptions.Item>
            {data.points_earned > 0 && <Descriptions.Item label="获得积分">{data.points_earned}</Descriptions.Item>}
            {positive(data.refunded) && (
              <Descriptions.Item label="已退款">
                <span data-testid="order-refunded">{yuan(data.refunded)}</span>
              </Descriptions.Item>
            )}
          </Descriptions>
        </div>
      )}
    </MemberLayout>
  );
}
