// 积分订单 (/jfdd): what the member redeemed in the points mall, by state, with the points and
// money each took, the delivery of goods (carrier and tracking number) and 确认收货 once shipped.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Table, Tabs, Tag } from 'antd';
import { positive, yuan } from '@/lib/money';
import { formatTime } from '@/lib/time';
import type { PointsOrder } from '@/api/types';
import { Pager } from '@/components/pager';
import { MemberLayout } from '@/components/member-layout';
import { pointsOrdersQuery, useReceivePoints } from '../api';
import { useUi } from '@/lib/ui';

const TABS = [
  { key: '-1', label: '全部' },
  { key: '0', label: '待发货' },
  { key: '1', label: '待收货' },
  { key: '2', label: '已完成' },
];
const COLOURS = ['orange', 'cyan', 'green'];

export function PointsOrdersPage() {
  const { modal } = useUi();
  const [status, setStatus] = useState(-1);
  const [page, setPage] = useState(1);
  const orders = useQuery(pointsOrdersQuery(page, status));
  const receive = useReceivePoints();
  const confirm = (order: PointsOrder) =>
    modal.confirm({
      title: '温馨提示',
      content: '确认已收到该商品吗?',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await receive.mutateAsync(order.id);
        } catch {
          // Told by the API client.
        }
      },
    });
  return (
    <MemberLayout title="积分订单" extra={<Link to="/jfsc">去积分商城</Link>}>
      <Tabs
        items={TABS}
        activeKey={String(status)}
        onChange={(key) => {
          setStatus(Number(key));
          setPage(1);
        }}
      />
      <Table<PointsOrder>
        size="small"
        rowKey="id"
        loading={orders.isFetching && !orders.data}
        pagination={false}
        dataSource={orders.data?.list ?? []}
        locale={{ emptyText: '暂无积分订单' }}
        data-testid="points-orders"
        columns={[
          { title: '订单号', dataIndex: 'order_no' },
          { title: '商品', dataIndex: 'name' },
          { title: '数量', dataIndex: 'number', align: 'right' },
          { title: '积分', dataIndex: 'points', align: 'right' },
          { title: '现金', dataIndex: 'price', align: 'right', render: (price: string) => (positive(price) ? yuan(price) : '—') },
          {
            title: '状态',
            dataIndex: 'status_name',
            render: (name: string, order) => <Tag color={COLOURS[order.status]}>{name}</Tag>,
          },
          { title: '兑换时间', dataIndex: 'created_at', render: formatTime },
          {
            title: '物流',
            key: 'delivery',
            render: (_, order) => (order.carrier ? `${order.carrier} ${order.tracking_no}` : order.kind === 1 ? '等待发货' : '已到账'),
          },
          {
            title: '操作',
            key: 'actions',
            render: (_, order) =>
              order.status === 1 && (
                <Button size="small" type="primary" onClick={() => confirm(order)}>
                  确认收货
                </Button>
              ),
          },
        ]}
      />
      {orders.data && <Pager total={orders.data.total} page={page} pageSize={10} onChange={setPage} />}
    </MemberLayout>
  );
}
