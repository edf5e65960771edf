// 我的订单 (/order): the member's orders by state with counts, searched by order number or
// goods name within dates, each with its lines, amounts and the actions its state allows.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { DatePicker, Empty, Input, Skeleton, Table, Tabs, Tag } from 'antd';
// The date pickers' calendar in Chinese (ConfigProvider's zh_CN names dayjs's zh-cn).
import 'dayjs/locale/zh-cn';
import { Pager } from '@/components/pager';
import type { OrderDetail, OrderItem } from '@/api/types';
import { yuan } from '@/lib/money';
import { MemberLayout } from '@/components/member-layout';
import { dayRange, formatTime } from '@/lib/time';
import { STATUS_COLOURS, ordersQuery, type OrderFilter } from '../api';
import { OrderActions } from './order-actions';
import { orderLineFacts } from '@/components/line-facts';
import { LineGoodsName } from '@/components/line-goods';

const PAGE_SIZE = 10;

function OrderCard({ order }: { order: OrderDetail }) {
  return (
    <div className="order-card" data-testid="order-card">
      <div className="order-card-head">
        <span>订单号：{order.order_no}</span>
        <span className="muted">{formatTime(order.created_at)}</span>
        <Tag color={STATUS_COLOURS[order.status]}>{order.status_name}</Tag>
      </div>
      <Table<OrderItem>
        size="small"
        rowKey={(item) => `${item.goods_id}-${item.type}-${item.name}`}
        pagination={false}
        dataSource={order.items}
        columns={[
          { title: '商品', dataIndex: 'name', render: (_: string, item) => <LineGoodsName facts={orderLineFacts(item)} /> },
          { title: '生产厂家', dataIndex: 'sccj' },
          { title: '单价', dataIndex: 'price', align: 'right', render: (price: string) => yuan(price) },
          { title: '数量', dataIndex: 'number', align: 'right' },
          { title: '实付', dataIndex: 'paid', align: 'right', render: (paid: string) => yuan(paid) },
        ]}
      />
      <div className="order-card-foot">
        <span>
          应付金额 <strong className="price">{yuan(order.due)}</strong>
        </span>
        <OrderActions order={order} />
      </div>
    </div>
  );
}

export function OrderListPage() {
  const [search] = useSearchParams();
  const initial = Number(search.get('status') ?? -1);
  const [filter, setFilter] = useState<OrderFilter>({ page: 1, status: Number.isInteger(initial) ? initial : -1, keyword: '' });
  const orders = useQuery(ordersQuery(filter));
  const counts = orders.data?.counts ?? [];
  const tabs = [
    { key: '-1', label: '全部订单' },
    ...counts.map((state) => ({ key: String(state.status), label: `${state.status_name}${state.count ? `（${state.count}）` : ''}` })),
  ];
  return (
    <MemberLayout title="我的订单">
      <Tabs activeKey={String(filter.status)} items={tabs} onChange={(key) => setFilter({ ...filter, page: 1, status: Number(key) })} />
      <div className="member-filters">
        <Input.Search
          allowClear
          placeholder="订单号 / 商品名称"
          aria-label="搜索订单"
          style={{ width: 280 }}
          onSearch={(keyword) => setFilter({ ...filter, page: 1, keyword })}
        />
        <DatePicker.RangePicker
          allowEmpty={[true, true]}
          placeholder={['下单开始日期', '下单结束日期']}
          onChange={(range) => setFilter({ ...filter, page: 1, ...dayRange(range) })}
        />
      </div>
      {!orders.data ? (
        <Skeleton active />
      ) : orders.data.list.length === 0 ? (
        <Empty description="没有找到订单" />
      ) : (
        orders.data.list.map((order) => <OrderCard key={order.id} order={order} />)
      )}
      {orders.data && (
        <Pager total={orders.data.total} page={filter.page} pageSize={PAGE_SIZE} onChange={(page) => setFilter({ ...filter, page })} />
      )}
    </MemberLayout>
  );
}
