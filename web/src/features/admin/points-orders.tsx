// 积分订单: points-mall redemptions of goods, those waiting to be shipped by default; the
// warehouse ships each with its carrier and tracking number, and the member is told.
import { useState } from 'react';
import { AutoComplete, Button, Input, Modal, Space, Switch, Table, Tag } from 'antd';
import { formatTime } from '@/lib/time';
import { can, usePointsOrders, useShipPoints, type OperatorMe, type PointsOrderRow } from './api';

const STATUS = ['待发货', '待收货', '已完成'];
const CARRIERS = ['顺丰速运', '京东物流', '中通快递', '圆通速递', '韵达快递', '申通快递', 'EMS'];

export function PointsOrdersPage({ me }: { me: OperatorMe }) {
  const [all, setAll] = useState(false);
  const { data, isFetching } = usePointsOrders(!all);
  const ship = useShipPoints();
  const [shipping, setShipping] = useState<PointsOrderRow | null>(null);
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const mayShip = can(me, 'ship');
  return (
    <div data-testid="admin-points-orders">
      <Space className="console-filters">
        <span>显示全部</span>
        <Switch aria-label="显示全部" checked={all} onChange={setAll} />
      </Space>
      <Table<PointsOrderRow>
        rowKey="id"
        loading={isFetching}
        dataSource={data ?? []}
        pagination={{ pageSize: 20 }}
        columns={[
          { title: '订单号', dataIndex: 'order_no' },
          { title: '会员', dataIndex: 'company' },
          { title: '商品', render: (_, row) => `${row.name} ×${row.number}` },
          { title: '积分', dataIndex: 'points', align: 'right' },
          { title: '收货地址', dataIndex: 'address' },
          {
            title: '状态',
            dataIndex: 'status',
            render: (status: number, row) =>
              status === 0 ? <Tag color="orange">待发货</Tag> : `${STATUS[status]} ${row.carrier} ${row.tracking_no}`,
          },
          { title: '时间', dataIndex: 'created_at', render: (at: number) => formatTime(at) },
          {
            title: '操作',
            render: (_, row) =>
              row.status === 0 && mayShip ? (
                <Button type="link" onClick={() => setShipping(row)}>
                  发货
                </Button>
              ) : null,
          },
        ]}
      />
      <Modal
        title={`发货：${shipping?.order_no ?? ''}`}
        open={!!shipping}
        okText="发货"
        cancelText="取消"
        okButtonProps={{ disabled: carrier.trim() === '' || tracking.trim() === '', loading: ship.isPending }}
        onCancel={() => setShipping(null)}
        onOk={async () => {
          if (!shipping) return;
          await ship.mutateAsync({ id: shipping.id, carrier: carrier.trim(), tracking: tracking.trim() });
          setShipping(null);
          setTracking('');
        }}
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <AutoComplete
            aria-label="物流公司"
            placeholder="物流公司"
            options={CARRIERS.map((value) => ({ value }))}
            value={carrier}
            onChange={setCarrier}
            style={{ width: '100%' }}
          />
          <Input aria-label="运单号" placeholder="运单号" value={tracking} onChange={(event) => setTracking(event.target.value)} />
        </Space>
      </Modal>
    </div>
  );
}
